import { commitmentChallenge } from './commitment-challenge.js';
import { expandSeed } from './expand-seed.js';
import { sampleDiscreteGaussian, sampleUniformWords } from './discrete-gaussian.js';
import { entryLocation, readEntry } from './packing.js';
import { CHALLENGE_ROWS, type PirParameters, scalingFactor } from './parameters.js';
import { PirVerificationError } from './pir-verification-error.js';
import { KernelInstance } from './wasm/kernels.js';

/** What the client keeps between a query and its answer: the secret s and the column. */
export interface QueryState {
  readonly column: number;
  readonly secret: Uint32Array;
  /** The query sent, kept for the answer check Z·u = C·v. */
  readonly query: Uint32Array;
}

/** The recovered column: ℓ values of Z_p and the largest decryption noise seen. */
export interface RecoveredColumn {
  readonly values: Uint8Array;
  readonly largestNoise: number;
}

/**
 * The SimplePIR client (the auditor): from the parameters, the seed of A and the
 * hint H, it builds Regev encryptions of unit vectors (queries) and decrypts the
 * answers. Every answer's noise is checked row by row against the 2^-40 bound B:
 * rows computed from any other database decrypt to noise that is uniform modulo q.
 * Create it with `PirClient.create`.
 */
export class PirClient {
  /** Offsets of C (λ × ℓ' words, ℓ' = ℓ rounded up to 16) and Z once verified. */
  private commitment: { challenge: number; proof: number; paddedRows: number } | undefined;

  private constructor(
    readonly parameters: PirParameters,
    readonly seed: Uint8Array,
    private readonly kernels: KernelInstance,
    private readonly publicMatrixOffset: number,
    private readonly hintOffset: number,
    private readonly hint: Uint32Array,
  ) {}

  /**
   * PirClient.create(parameters, seed, hint) expands A from the seed and loads A and
   * H into a kernel instance. O(mn + ℓn). Throws PirVerificationError when the hint
   * has the wrong size.
   */
  static async create(parameters: PirParameters, seed: Uint8Array, hint: Uint32Array): Promise<PirClient> {
    const { rows, columns, lweDimension } = parameters;
    if (hint.length !== rows * lweDimension) {
      throw new PirVerificationError(
        `hint: expected ${rows} × ${lweDimension} words, found ${hint.length} words`,
      );
    }
    const kernels = await KernelInstance.create();
    const a = kernels.allocate(columns * lweDimension * 4);
    kernels.words(a, columns * lweDimension).set(expandSeed(seed, columns * lweDimension));
    const h = kernels.allocate(rows * lweDimension * 4);
    kernels.words(h, rows * lweDimension).set(hint);
    return new PirClient(parameters, seed, kernels, a, h, hint);
  }

  /** Whether verifyCommitment has accepted a proof (answers are then checked against it). */
  get committed(): boolean {
    return this.commitment !== undefined;
  }

  /**
   * verifyCommitment(proof) runs the auditor's offline checks of paper B Figure 3:
   * C ← Hash(A, H) (commitmentChallenge), then reject unless ‖Z‖∞ ≤ p·ℓ and
   * Z·A = C·H (mod q), Z read as signed 32-bit integers (λ × m, row-major). On
   * success it keeps C and Z so that every later answer v to a query u must also
   * satisfy Z·u = C·v (mod q). O(λ·(m + ℓ)·n). Throws PirVerificationError.
   */
  verifyCommitment(proof: Int32Array): void {
    const { rows, columns, lweDimension, plaintextModulus } = this.parameters;
    if (proof.length !== CHALLENGE_ROWS * columns) {
      throw new PirVerificationError(
        `commitment proof Z: expected ${CHALLENGE_ROWS} × ${columns} integers, found ${proof.length}`,
      );
    }
    const limit = plaintextModulus * rows;
    for (let i = 0; i < proof.length; i++) {
      if (Math.abs(proof[i]) > limit) {
        throw new PirVerificationError(
          `commitment proof Z: ‖Z‖∞ must be at most p·ℓ = ${limit}, found ${proof[i]} at position ${i}`,
        );
      }
    }
    const challenge = commitmentChallenge(this.parameters, this.seed, this.hint);
    const paddedRows = Math.ceil(rows / 16) * 16;
    const z = this.kernels.allocate(proof.byteLength);
    this.kernels.words(z, proof.length).set(new Uint32Array(proof.buffer, proof.byteOffset, proof.length));
    const c = this.kernels.allocate(CHALLENGE_ROWS * paddedRows * 4);
    const cWords = this.kernels.words(c, CHALLENGE_ROWS * paddedRows);
    for (let k = 0; k < CHALLENGE_ROWS; k++) {
      for (let r = 0; r < rows; r++) cWords[k * paddedRows + r] = challenge[k * rows + r];
    }
    const mark = this.kernels.mark();
    try {
      const left = this.kernels.allocate(challenge.length);
      this.kernels.bytes(left, challenge.length).set(challenge);
      const za = this.kernels.allocate(CHALLENGE_ROWS * lweDimension * 4);
      const ch = this.kernels.allocate(CHALLENGE_ROWS * lweDimension * 4);
      this.kernels.exports.matmulWords(z, CHALLENGE_ROWS, columns, this.publicMatrixOffset, lweDimension, za);
      this.kernels.exports.matmulBytes(left, rows, CHALLENGE_ROWS, rows, this.hintOffset, lweDimension, ch);
      const zaView = this.kernels.words(za, CHALLENGE_ROWS * lweDimension);
      const chView = this.kernels.words(ch, CHALLENGE_ROWS * lweDimension);
      for (let i = 0; i < zaView.length; i++) {
        if (zaView[i] !== chView[i]) {
          throw new PirVerificationError(
            `commitment: Z·A ≠ C·H at row ${Math.floor(i / lweDimension)}, column ${i % lweDimension}; the hint does not commit to the database behind Z`,
          );
        }
      }
    } finally {
      this.kernels.release(mark);
    }
    this.commitment = { challenge: c, proof: z, paddedRows };
  }

  /**
   * query(entryIndex) encrypts the unit vector of the entry's column:
   * u = A·s + e + ⌊q/p⌋·1_column with s uniform in Z_q^n and e discrete Gaussian
   * (σ = 6.4), both from node:crypto. O(mn). The query alone is pseudorandom under
   * LWE, whatever the index.
   */
  query(entryIndex: number): QueryState {
    const { columns, lweDimension, entryCount } = this.parameters;
    if (!Number.isInteger(entryIndex) || entryIndex < 0 || entryIndex >= entryCount) {
      throw new RangeError(`query: entry index must be an integer in [0, ${entryCount}), found ${entryIndex}`);
    }
    const { column } = entryLocation(entryIndex, this.parameters);
    const secret = sampleUniformWords(lweDimension);
    const mark = this.kernels.mark();
    try {
      const s = this.kernels.allocate(lweDimension * 4);
      this.kernels.words(s, lweDimension).set(secret);
      const out = this.kernels.allocate(columns * 4);
      this.kernels.exports.matvecWords(this.publicMatrixOffset, columns, lweDimension, s, out);
      const query = this.kernels.words(out, columns).slice();
      const errors = sampleDiscreteGaussian(columns);
      for (let c = 0; c < columns; c++) query[c] = (query[c] + errors[c]) >>> 0;
      query[column] = (query[column] + scalingFactor(this.parameters)) >>> 0;
      return { column, secret, query };
    } finally {
      this.kernels.release(mark);
    }
  }

  /**
   * recoverColumn(answer, state) decrypts every row: r̃ = v - H·s, value =
   * round(r̃/Δ) mod p, noise = r̃ - Δ·value. O(ℓn). Throws PirVerificationError when
   * the answer has the wrong length or any row's noise exceeds the bound B.
   */
  recoverColumn(answer: Uint32Array, state: QueryState): RecoveredColumn {
    const { rows, lweDimension, noiseBound, elementBits } = this.parameters;
    if (answer.length !== rows) {
      throw new PirVerificationError(`answer: expected ${rows} words, found ${answer.length}`);
    }
    const delta = scalingFactor(this.parameters);
    const shift = 32 - elementBits;
    const mark = this.kernels.mark();
    try {
      const s = this.kernels.allocate(lweDimension * 4);
      this.kernels.words(s, lweDimension).set(state.secret);
      const out = this.kernels.allocate(rows * 4);
      this.kernels.exports.matvecWords(this.hintOffset, rows, lweDimension, s, out);
      const masked = this.kernels.words(out, rows);
      const values = new Uint8Array(rows);
      let largestNoise = 0;
      for (let r = 0; r < rows; r++) {
        const decrypted = (answer[r] - masked[r]) >>> 0;
        const value = ((decrypted + delta / 2) >>> 0) >>> shift;
        const noise = Math.abs((decrypted - value * delta) | 0);
        if (noise > largestNoise) largestNoise = noise;
        values[r] = value;
      }
      if (this.commitment) this.checkAgainstCommitment(answer, state.query);
      if (largestNoise > noiseBound) {
        throw new PirVerificationError(
          `answer: decryption noise ${largestNoise} exceeds the bound ${Math.floor(noiseBound)}; the answer was not computed from the committed database`,
        );
      }
      return { values, largestNoise };
    } finally {
      this.kernels.release(mark);
    }
  }

  /** Z·u = C·v (mod q): VeriSimplePIR's PreVerify equation, with the public C of the digest. */
  private checkAgainstCommitment(answer: Uint32Array, query: Uint32Array): void {
    const { rows, columns } = this.parameters;
    const commitment = this.commitment!;
    const mark = this.kernels.mark();
    try {
      const u = this.kernels.allocate(columns * 4);
      this.kernels.words(u, columns).set(query);
      const v = this.kernels.allocate(commitment.paddedRows * 4);
      this.kernels.words(v, rows).set(answer);
      const zu = this.kernels.allocate(CHALLENGE_ROWS * 4);
      const cv = this.kernels.allocate(CHALLENGE_ROWS * 4);
      this.kernels.exports.matvecWords(commitment.proof, CHALLENGE_ROWS, columns, u, zu);
      this.kernels.exports.matvecWords(commitment.challenge, CHALLENGE_ROWS, commitment.paddedRows, v, cv);
      const zuView = this.kernels.words(zu, CHALLENGE_ROWS);
      const cvView = this.kernels.words(cv, CHALLENGE_ROWS);
      for (let k = 0; k < CHALLENGE_ROWS; k++) {
        if (zuView[k] !== cvView[k]) {
          throw new PirVerificationError(
            `answer: Z·u ≠ C·v at challenge row ${k}; the answer was not computed from the committed database`,
          );
        }
      }
    } finally {
      this.kernels.release(mark);
    }
  }

  /** recover(answer, state, entryIndex) decrypts the column and returns entry t. O(ℓn). */
  recover(answer: Uint32Array, state: QueryState, entryIndex: number): number {
    const column = this.recoverColumn(answer, state);
    return readEntry(column.values, entryIndex, this.parameters);
  }
}
