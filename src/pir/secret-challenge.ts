import { CHALLENGE_ROWS, ERROR_STANDARD_DEVIATION, FAILURE_LOG2, type PirParameters } from './parameters.js';

/**
 * The shape of VeriSimplePIR's secret-challenge preprocessing (Construction 5.1,
 * PrQry/PrRec) at q = 2^32. The auditor must learn Z = C·D for a secret C ∈
 * {0,1}^{λ×ℓ} without revealing C; Z's entries reach ℓ(p−1), too large to decrypt
 * at once with q = 2^32 (VeriSimplePIR uses q = 2^64 there), so D is cut into digit
 * planes D = Σ_d 2^(g·d)·D_d with digits of g bits, and each C·D_d (entries ≤ ℓ(2^g−1))
 * is decrypted with its own plaintext modulus p' = 2^plaintextBits.
 */
export interface SecretChallengeShape {
  readonly digitBits: number;
  readonly planes: number;
  /** log2 p', the plaintext modulus of the challenge ciphertexts. */
  readonly plaintextBits: number;
  /** Honest decryption noise bound of every entry (2^-40 failure over all m·λ entries). */
  readonly noiseBound: number;
}

/**
 * secretChallengeShape(parameters) picks the widest digit g ≤ elementBits such that
 * p' = 2^⌈log2(ℓ(2^g−1)+1)⌉ leaves Δ'/2 = q/(2p') above the noise bound
 * σ(2^g−1)√ℓ·√(2·ln(2mλ·2^40)) of D_d^T·e (the subgaussian tail bound of
 * parameters.ts with a union over the m·λ decrypted entries). O(elementBits).
 * Throws Error if even one-bit digits do not fit.
 */
export function secretChallengeShape(parameters: PirParameters): SecretChallengeShape {
  const { rows, columns, elementBits } = parameters;
  for (let digitBits = elementBits; digitBits >= 1; digitBits--) {
    const digitMax = 2 ** digitBits - 1;
    const plaintextBits = Math.ceil(Math.log2(rows * digitMax + 1));
    const noiseBound =
      ERROR_STANDARD_DEVIATION *
      digitMax *
      Math.sqrt(rows) *
      Math.sqrt(2 * (Math.log(2 * columns * CHALLENGE_ROWS) - FAILURE_LOG2 * Math.LN2));
    if (plaintextBits <= 31 && noiseBound < 2 ** (32 - plaintextBits) / 2) {
      return { digitBits, planes: Math.ceil(elementBits / digitBits), plaintextBits, noiseBound };
    }
  }
  throw new Error(`secretChallengeShape: no digit size fits ${rows} rows at q = 2^32`);
}
