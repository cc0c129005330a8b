import { randomBytes } from 'node:crypto';
import type { CommitmentBinding } from './commitment-binding.js';
import { commitmentChallenge } from './commitment-challenge.js';
import { sampleDiscreteGaussian, sampleUniformWords } from './discrete-gaussian.js';
import { expandSeed } from './expand-seed.js';
import { entryLocation, readEntry } from './packing.js';
import { CHALLENGE_ROWS, type PirParameters, scalingFactor } from './parameters.js';
import { PirVerificationError } from './pir-verification-error.js';
import { secretChallengeShape } from './secret-challenge.js';
import { KernelInstance } from './wasm/kernels.js';

/** What the client keeps between a query and its answer: the secret s and the column. */
export interface QueryState {
  readonly column: number;
  readonly secret: Uint32Array;
  /** The query sent, kept for the answer check Z·u = C·v. */
  readonly query: Uint32Array;
}

/** What the auditor keeps between beginSecretChallenge and finishSecretChallenge. */
export interface SecretChallengeState {
  /** The secret C ∈ {0,1}^{λ×ℓ}, row-major. */
  readonly challenge: Uint8Array;
  /** The secrets s_1 … s_λ as an n × λ matrix (column k = s_k). */
  readonly secretsTransposed: Uint32Array;
}

/** The recovered column: ℓ values of Z_p and the largest decryption noise seen. */
export interface RecoveredColumn {
  readonly values: Uint8Array;
  readonly largestNoise: number;
}

/**
 * The SimplePIR client (the auditor): from the parameters, the seed of A and the
 * hint H, it builds Regev encryptions of unit vectors (queries) and decrypts the
 * answers. Every answer's noise is checked row by row against the 2^-40 bound B. That
 * check alone does not bind the answers to the committed D: an answer computed from
 * another database D′ decrypts to D′'s column plus the row terms of (D′ − D)·A·s, which
 * stay small for many D′ (an entry-wise shift, a table equal to D in most rows). What
 * binds them is the commitment check Z·u = C·v (verifyCommitment) with a C the provider
 * does not know (the secret challenge). Create it with `PirClient.create`.
 */
export class PirClient {
  /** Offsets of C (λ × ℓ' words, ℓ' = ℓ rounded up to 16) and Z once verified. */
  private commitment: { challenge: number; proof: number; paddedRows: number } | undefined;
  private secret = false;

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
      throw new PirVerificationError(`hint: expected ${rows} × ${lweDimension} words, found ${hint.length} words`);
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
   * verifyCommitment(proof, binding?) runs the auditor's offline checks of paper B
   * Figure 3: C ← Hash(A, H) (commitmentChallenge, over the audit's binding when given:
   * then the client must have been created with publicSeeds(binding).matrix as the seed
   * of A), then reject unless ‖Z‖∞ ≤ p·ℓ and Z·A = C·H (mod q), Z read as signed 32-bit
   * integers (λ × m, row-major). A commitment made for another nonce or candidate list
   * (a replayed transcript) fails Z·A = C·H. On success it keeps C and Z so that every
   * later answer v to a query u must also satisfy Z·u = C·v (mod q).
   * O(λ·(m + ℓ)·n). Throws PirVerificationError.
   */
  verifyCommitment(proof: Int32Array, binding?: CommitmentBinding): void {
    const challenge = commitmentChallenge(this.parameters, this.seed, this.hint, binding);
    this.checkProof(challenge, proof, 'commitment');
    this.installChallenge(challenge, proof);
    this.secret = false;
  }

  /** Whether the installed challenge C is the auditor's secret one (VeriSimplePIR's PreVerify). */
  get secretChallenge(): boolean {
    return this.secret;
  }

  /** Rejects unless Z is λ × m, ‖Z‖∞ ≤ p·ℓ and Z·A = C·H (mod q). O(λ·(m + ℓ)·n). */
  private checkProof(challenge: Uint8Array, proof: Int32Array, what: string): void {
    const { rows, columns, lweDimension, plaintextModulus } = this.parameters;
    if (proof.length !== CHALLENGE_ROWS * columns) {
      throw new PirVerificationError(
        `${what} proof Z: expected ${CHALLENGE_ROWS} × ${columns} integers, found ${proof.length}`,
      );
    }
    const limit = plaintextModulus * rows;
    for (let i = 0; i < proof.length; i++) {
      if (Math.abs(proof[i]) > limit) {
        throw new PirVerificationError(
          `${what} proof Z: ‖Z‖∞ must be at most p·ℓ = ${limit}, found ${proof[i]} at position ${i}`,
        );
      }
    }
    const mark = this.kernels.mark();
    try {
      const z = this.kernels.allocate(proof.byteLength);
      this.kernels.words(z, proof.length).set(new Uint32Array(proof.buffer, proof.byteOffset, proof.length));
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
            `${what}: Z·A ≠ C·H at row ${Math.floor(i / lweDimension)}, column ${i % lweDimension}; ${
              what === 'commitment'
                ? 'the hint does not commit to the database behind Z (or it was made for another audit: another ' +
                  'nonce, share or candidate list)'
                : 'the provider did not evaluate the committed database on the challenge'
            }`,
          );
        }
      }
    } finally {
      this.kernels.release(mark);
    }
  }

  /** Keeps C (as λ × ℓ' words, ℓ' = ℓ rounded up to 16) and Z for the answer checks. */
  private installChallenge(challenge: Uint8Array, proof: Int32Array): void {
    const { rows } = this.parameters;
    const paddedRows = Math.ceil(rows / 16) * 16;
    const z = this.kernels.allocate(proof.byteLength);
    this.kernels.words(z, proof.length).set(new Uint32Array(proof.buffer, proof.byteOffset, proof.length));
    const c = this.kernels.allocate(CHALLENGE_ROWS * paddedRows * 4);
    const cWords = this.kernels.words(c, CHALLENGE_ROWS * paddedRows);
    for (let k = 0; k < CHALLENGE_ROWS; k++) {
      for (let r = 0; r < rows; r++) cWords[k * paddedRows + r] = challenge[k * rows + r];
    }
    this.commitment = { challenge: c, proof: z, paddedRows };
  }

  /**
   * beginSecretChallenge(seed) starts VeriSimplePIR's reusable-proof preprocessing
   * (Construction 5.1, PrQry): it draws a secret C ∈ {0,1}^{λ×ℓ} and λ secrets s_k
   * from node:crypto and encrypts each row c_k under A_2 = PRG(seed):
   * U_k = A_2·s_k + e_k + Δ'·c_k, returned as ℓ × λ words (column k = U_k) for
   * PirServer.answerChallenge. O(ℓnλ).
   */
  beginSecretChallenge(seed: Uint8Array): { encrypted: Uint32Array; state: SecretChallengeState } {
    const { rows, lweDimension: n } = this.parameters;
    const shape = secretChallengeShape(this.parameters);
    const bits = randomBytes(Math.ceil((CHALLENGE_ROWS * rows) / 8));
    const challenge = new Uint8Array(CHALLENGE_ROWS * rows);
    for (let i = 0; i < challenge.length; i++) challenge[i] = (bits[i >> 3] >> (i & 7)) & 1;
    const secretsTransposed = sampleUniformWords(n * CHALLENGE_ROWS);
    const scaling = 2 ** (32 - shape.plaintextBits);
    const mark = this.kernels.mark();
    try {
      const a = this.kernels.allocate(rows * n * 4);
      this.kernels.words(a, rows * n).set(expandSeed(seed, rows * n, 2));
      const s = this.kernels.allocate(secretsTransposed.byteLength);
      this.kernels.words(s, secretsTransposed.length).set(secretsTransposed);
      const out = this.kernels.allocate(rows * CHALLENGE_ROWS * 4);
      this.kernels.exports.matmulWords(a, rows, n, s, CHALLENGE_ROWS, out);
      const encrypted = this.kernels.words(out, rows * CHALLENGE_ROWS).slice();
      const errors = sampleDiscreteGaussian(encrypted.length);
      for (let i = 0; i < rows; i++) {
        for (let k = 0; k < CHALLENGE_ROWS; k++) {
          const at = i * CHALLENGE_ROWS + k;
          encrypted[at] = (encrypted[at] + errors[at] + scaling * challenge[k * rows + i]) >>> 0;
        }
      }
      return { encrypted, state: { challenge, secretsTransposed } };
    } finally {
      this.kernels.release(mark);
    }
  }

  /**
   * finishSecretChallenge(state, hints, answers) decrypts the provider's evaluation
   * (PrRec): per digit plane d, Z_d^T = round((V_d − H_2,d·S)/Δ') with every entry's
   * noise within the bound, Z = Σ_d 2^(g·d)·Z_d; then checks ‖Z‖∞ ≤ p·ℓ and Z·A = C·H
   * against the verified digest, and from then on checks every answer with the secret
   * C (Z·u = C·v), which only the exactly correct v passes except with probability
   * about 2^-λ. O(planes·mnλ + λ(m+ℓ)n). Throws PirVerificationError.
   */
  finishSecretChallenge(state: SecretChallengeState, hints: Uint32Array, answers: Uint32Array): void {
    const { columns, lweDimension: n } = this.parameters;
    const shape = secretChallengeShape(this.parameters);
    if (hints.length !== shape.planes * columns * n || answers.length !== shape.planes * columns * CHALLENGE_ROWS) {
      throw new PirVerificationError(
        `secret challenge: expected ${shape.planes} planes of ${columns} × ${n} hint words ` +
          `and ${columns} × ${CHALLENGE_ROWS} answer words`,
      );
    }
    const shift = 32 - shape.plaintextBits;
    const scaling = 2 ** shift;
    const proof = new Int32Array(CHALLENGE_ROWS * columns);
    const mark = this.kernels.mark();
    try {
      const s = this.kernels.allocate(state.secretsTransposed.byteLength);
      this.kernels.words(s, state.secretsTransposed.length).set(state.secretsTransposed);
      const h = this.kernels.allocate(columns * n * 4);
      const out = this.kernels.allocate(columns * CHALLENGE_ROWS * 4);
      for (let plane = 0; plane < shape.planes; plane++) {
        this.kernels.words(h, columns * n).set(hints.subarray(plane * columns * n, (plane + 1) * columns * n));
        this.kernels.exports.matmulWords(h, columns, n, s, CHALLENGE_ROWS, out);
        const masked = this.kernels.words(out, columns * CHALLENGE_ROWS);
        const base = plane * columns * CHALLENGE_ROWS;
        const weight = 2 ** (shape.digitBits * plane);
        for (let j = 0; j < columns; j++) {
          for (let k = 0; k < CHALLENGE_ROWS; k++) {
            const decrypted = (answers[base + j * CHALLENGE_ROWS + k] - masked[j * CHALLENGE_ROWS + k]) >>> 0;
            const value = ((decrypted + scaling / 2) >>> 0) >>> shift;
            if (Math.abs((decrypted - value * scaling) | 0) > shape.noiseBound) {
              throw new PirVerificationError(
                'secret challenge: decryption noise beyond the bound; the provider did not evaluate the ' +
                  'committed database',
              );
            }
            proof[k * columns + j] += weight * value;
          }
        }
      }
    } finally {
      this.kernels.release(mark);
    }
    this.checkProof(state.challenge, proof, 'secret challenge');
    this.installChallenge(state.challenge, proof);
    this.secret = true;
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
          `answer: decryption noise ${largestNoise} exceeds the bound ${Math.floor(noiseBound)}; the answer was ` +
            `not computed from the committed database`,
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
