import { inputError } from '../util/errors.js';

/** LWE dimension n of SimplePIR (Henzinger et al., USENIX Security 2023). */
export const LWE_DIMENSION = 1024;
/** log2 of the ciphertext modulus q = 2^32: arithmetic is native u32 wrap-around. */
export const MODULUS_BITS = 32;
/** Standard deviation σ of the discrete Gaussian error (SimplePIR's σ = 6.4). */
export const ERROR_STANDARD_DEVIATION = 6.4;
/** Target decryption-failure probability per answer: 2^-40 (SimplePIR's δ). */
export const FAILURE_LOG2 = -40;
/** Largest plaintext modulus: one byte per Z_p element in the packed layout. */
export const MAX_ELEMENT_BITS = 8;
/** Rows of the database matrix come in blocks of 4 (the answer kernel's row block). */
export const ROW_MULTIPLE = 4;
/** Columns come in multiples of 16 (one v128 of bytes). */
export const COLUMN_MULTIPLE = 16;
/** Rows of the Fiat-Shamir challenge C ∈ {0,1}^{λ×ℓ} of the commitment (λ = 128). */
export const CHALLENGE_ROWS = 128;

/**
 * Everything both sides must agree on for one database: the LWE parameters, the
 * plaintext modulus p = 2^elementBits, how entries pack into Z_p elements, and the
 * ℓ × m shape of the matrix D (rows × columns; a query has `columns` elements, an
 * answer `rows`).
 */
export interface PirParameters {
  readonly lweDimension: number;
  readonly modulusBits: number;
  readonly errorStandardDeviation: number;
  /** N, the number of database entries. */
  readonly entryCount: number;
  /** d, the bits of one entry (1 for labels). */
  readonly entryBits: number;
  /** log2 p: bits carried by one Z_p element. */
  readonly elementBits: number;
  /** p = 2^elementBits. */
  readonly plaintextModulus: number;
  /** Entries packed into one element when entryBits ≤ elementBits, else 1. */
  readonly entriesPerElement: number;
  /** Elements holding one entry when entryBits > elementBits, else 1. */
  readonly elementsPerEntry: number;
  /** ℓ, rows of D (a multiple of 4). */
  readonly rows: number;
  /** m, columns of D (a multiple of 16). */
  readonly columns: number;
  /**
   * B: the honest decryption noise of every row of an answer stays within ±B
   * except with probability 2^-40 (see `noiseBound`); B < Δ/2 = q/(2p).
   */
  readonly noiseBound: number;
}

/** Δ = ⌊q/p⌋ = 2^(32 - elementBits), the scaling of the plaintext in a Regev ciphertext. */
export function scalingFactor(parameters: Pick<PirParameters, 'elementBits'>): number {
  return 2 ** (MODULUS_BITS - parameters.elementBits);
}

/**
 * noiseBound(plaintextModulus, columns, rows) is the bound B used for correctness
 * and for the verifier's noise check. Row i of an answer decrypts to
 * Δ·D[i][c] + Σ_j D[i][j]·e_j with e_j independent discrete Gaussians of standard
 * deviation σ, each σ-subgaussian (as in SimplePIR's analysis). The sum is
 * subgaussian with parameter s ≤ σ·(p-1)·√m, so P(|noise| ≥ t) ≤ 2·exp(-t²/(2s²)).
 * A union bound over the ℓ rows (the verifier checks all of them) gives failure
 * ≤ 2^-40 for t = B = σ(p-1)√m · √(2·ln(2ℓ·2^40)). Correct rounding needs B < Δ/2.
 * O(1).
 */
export function noiseBound(plaintextModulus: number, columns: number, rows: number): number {
  const subgaussian = ERROR_STANDARD_DEVIATION * (plaintextModulus - 1) * Math.sqrt(columns);
  return subgaussian * Math.sqrt(2 * (Math.log(2 * rows) - FAILURE_LOG2 * Math.LN2));
}

function roundUp(value: number, multiple: number): number {
  return Math.ceil(value / multiple) * multiple;
}

/** The ℓ × m shape and packing of N entries of d bits with p = 2^elementBits. */
function layout(entryCount: number, entryBits: number, elementBits: number) {
  const entriesPerElement = entryBits <= elementBits ? Math.floor(elementBits / entryBits) : 1;
  const elementsPerEntry = entryBits <= elementBits ? 1 : Math.ceil(entryBits / elementBits);
  const elements = entryBits <= elementBits ? Math.ceil(entryCount / entriesPerElement) : entryCount * elementsPerEntry;
  const columns = roundUp(Math.max(1, Math.ceil(Math.sqrt(elements))), COLUMN_MULTIPLE);
  const rows = roundUp(Math.max(1, Math.ceil(elements / columns)), ROW_MULTIPLE * elementsPerEntry);
  return { entriesPerElement, elementsPerEntry, rows, columns };
}

/**
 * choosePirParameters({entryCount, entryBits}) picks the largest p = 2^b (b ≤ 8) for
 * which the packed near-square matrix meets the 2^-40 failure bound (`noiseBound`),
 * packing ⌊b/d⌋ entries per element (or ⌈d/b⌉ elements per entry). The matrix is
 * filled column by column, so an entry never straddles two columns. O(1).
 * Throws InputError when entryCount or entryBits is not a positive integer
 * (entryBits ≤ 32) or when no p ≥ 2 satisfies the bound.
 * @param database the entries and their bits
 * @returns SimplePIR parameters for the database (dimensions, modulus, noise)
 * @example
 * const parameters = choosePirParameters({ entryCount: 20000, entryBits: 1 });
 */
export function choosePirParameters(database: { entryCount: number; entryBits: number }): PirParameters {
  const { entryCount, entryBits } = database;
  if (!Number.isInteger(entryCount) || entryCount < 1 || entryCount > 2 ** 31) {
    throw inputError({ where: 'PIR database size', expected: 'an integer in [1, 2^31]', found: entryCount });
  }
  if (!Number.isInteger(entryBits) || entryBits < 1 || entryBits > 32) {
    throw inputError({ where: 'PIR entry bits', expected: 'an integer in [1, 32]', found: entryBits });
  }
  for (let elementBits = MAX_ELEMENT_BITS; elementBits >= 1; elementBits--) {
    const shape = layout(entryCount, entryBits, elementBits);
    const plaintextModulus = 2 ** elementBits;
    const bound = noiseBound(plaintextModulus, shape.columns, shape.rows);
    if (bound < scalingFactor({ elementBits }) / 2) {
      return {
        lweDimension: LWE_DIMENSION,
        modulusBits: MODULUS_BITS,
        errorStandardDeviation: ERROR_STANDARD_DEVIATION,
        entryCount,
        entryBits,
        elementBits,
        plaintextModulus,
        ...shape,
        noiseBound: bound,
      };
    }
  }
  throw inputError({
    where: 'PIR database size',
    expected: 'a database small enough for p ≥ 2 at q = 2^32 and failure 2^-40',
    found: entryCount,
  });
}
