import { expandSeed } from './expand-seed.js';
import type { PirParameters } from './parameters.js';

/**
 * publicMatrixRankModTwo(parameters, seed) is the rank over GF(2) of A mod 2, where
 * A ∈ Z_q^{m×n} is expanded from `seed`: Gaussian elimination on m rows of n bits,
 * packed 32 to a word. O(m²n/32).
 */
export function publicMatrixRankModTwo(parameters: PirParameters, seed: Uint8Array): number {
  const { columns: m, lweDimension: n } = parameters;
  const a = expandSeed(seed, m * n);
  const words = Math.ceil(n / 32);
  const rows = Array.from({ length: m }, (_, i) => {
    const bits = new Uint32Array(words);
    for (let j = 0; j < n; j++) bits[j >>> 5] |= (a[i * n + j] & 1) << (j & 31);
    return bits;
  });
  let rank = 0;
  for (let bit = 0; bit < n && rank < m; bit++) {
    const word = bit >>> 5;
    const mask = 1 << (bit & 31);
    let pivot = rank;
    while (pivot < m && (rows[pivot][word] & mask) === 0) pivot++;
    if (pivot === m) continue;
    [rows[rank], rows[pivot]] = [rows[pivot], rows[rank]];
    for (let r = 0; r < m; r++) {
      if (r !== rank && (rows[r][word] & mask) !== 0) for (let w = word; w < words; w++) rows[r][w] ^= rows[rank][w];
    }
    rank++;
  }
  return rank;
}

/**
 * hintRevealsDatabase(parameters, seed) says whether SimplePIR's hint H = D·A alone
 * determines the whole packed database D: exactly when A ∈ Z_q^{m×n} (q = 2^32) has a
 * right inverse R modulo 2^32 (then D = H·R), that is when A mod 2 has full row rank m
 * over GF(2) (a unit determinant mod 2 is a unit mod 2^32). This needs m ≤ n and fails
 * for a uniform A with probability at most 2^(m−n). With m > n it returns false: the
 * hint is then n linear combinations of each row's m small entries, which this function
 * does not claim either way. O(m²n/32).
 * @param parameters the PIR parameters
 * @param seed the public matrix's seed
 * @returns true when the hint alone determines the database (the public matrix has full column rank mod 2)
 * @example
 * hintRevealsDatabase(choosePirParameters({ entryCount: 1024, entryBits: 1 }), seed);
 */
export function hintRevealsDatabase(parameters: PirParameters, seed: Uint8Array): boolean {
  if (parameters.columns > parameters.lweDimension) return false;
  return publicMatrixRankModTwo(parameters, seed) === parameters.columns;
}

/** x⁻¹ mod 2^32 for odd x (Newton's iteration: five doublings of the correct bits from 3). */
function inverseModTwoToThe32(x: number): number {
  let inverse = x;
  for (let i = 0; i < 5; i++) inverse = Math.imul(inverse, 2 - Math.imul(x, inverse)) >>> 0;
  return inverse >>> 0;
}

/**
 * databaseFromHint(parameters, seed, hint) recovers the packed database D (ℓ × m bytes,
 * row-major) from the hint H = D·A and the seed of A alone, as any auditor can: it
 * solves Aᵀ·Dᵀ = Hᵀ modulo 2^32 by Gauss-Jordan elimination on odd pivots. Returns null
 * when A mod 2 lacks full row rank (no odd pivot in some column; see
 * hintRevealsDatabase). The demonstration behind docs/pir.md's "what the auditor
 * learns". O(m·n·(m + ℓ)).
 */
export function databaseFromHint(parameters: PirParameters, seed: Uint8Array, hint: Uint32Array): Uint8Array | null {
  const { rows: l, columns: m, lweDimension: n } = parameters;
  if (m > n) return null;
  const a = expandSeed(seed, m * n);
  const width = m + l;
  // Row j of the system: column j of A (m words) | column j of H (ℓ words).
  const system = Array.from({ length: n }, (_, j) => {
    const row = new Uint32Array(width);
    for (let i = 0; i < m; i++) row[i] = a[i * n + j];
    for (let i = 0; i < l; i++) row[m + i] = hint[i * n + j];
    return row;
  });
  for (let column = 0; column < m; column++) {
    let pivot = column;
    while (pivot < n && (system[pivot][column] & 1) === 0) pivot++;
    if (pivot === n) return null;
    [system[column], system[pivot]] = [system[pivot], system[column]];
    const lead = system[column];
    const inverse = inverseModTwoToThe32(lead[column]);
    for (let k = column; k < width; k++) lead[k] = Math.imul(lead[k], inverse) >>> 0;
    for (let r = 0; r < n; r++) {
      const factor = system[r][column];
      if (r === column || factor === 0) continue;
      const row = system[r];
      for (let k = column; k < width; k++) row[k] = (row[k] - Math.imul(factor, lead[k])) >>> 0;
    }
  }
  const database = new Uint8Array(l * m);
  for (let i = 0; i < l; i++) {
    for (let c = 0; c < m; c++) {
      const value = system[c][m + i];
      if (value > 255) return null;
      database[i * m + c] = value;
    }
  }
  return database;
}
