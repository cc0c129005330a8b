import { randomBytes } from 'node:crypto';
import { type CommitmentBinding, publicSeeds } from './commitment-binding.js';
import { commitmentChallenge } from './commitment-challenge.js';
import { expandSeed, SEED_BYTES } from './expand-seed.js';
import { packDatabase } from './packing.js';
import { CHALLENGE_ROWS, type PirParameters } from './parameters.js';
import { splitQueryLimbs } from './query-limbs.js';
import { secretChallengeShape } from './secret-challenge.js';
import { KernelInstance } from './wasm/kernels.js';

/**
 * The SimplePIR server (the provider): holds the packed database D ∈ Z_p^{ℓ×m} in
 * WebAssembly memory, computes the hint H = D·A once, and answers queries with
 * D·u (a batch as one matrix product). Create it with `PirServer.create`.
 */
export class PirServer {
  private constructor(
    readonly parameters: PirParameters,
    /** The 16-byte seed of the public matrix A ∈ Z_q^{m×n}. */
    readonly seed: Uint8Array,
    private readonly kernels: KernelInstance,
    private readonly databaseOffset: number,
  ) {}

  /**
   * PirServer.create(entries, parameters, seed?) packs the entries (see packDatabase)
   * and loads D into a kernel instance; the seed of A is drawn from node:crypto
   * unless given. O(ℓm). Throws InputError for entries that do not fit.
   */
  static async create(
    entries: ArrayLike<number>,
    parameters: PirParameters,
    seed: Uint8Array = new Uint8Array(randomBytes(SEED_BYTES)),
  ): Promise<PirServer> {
    return PirServer.fromMatrix(packDatabase(entries, parameters), parameters, seed);
  }

  /** PirServer.fromMatrix(matrix, parameters, seed) loads an already packed ℓ × m matrix. */
  static async fromMatrix(matrix: Uint8Array, parameters: PirParameters, seed: Uint8Array): Promise<PirServer> {
    const kernels = await KernelInstance.create();
    const offset = kernels.allocate(matrix.length);
    kernels.bytes(offset, matrix.length).set(matrix);
    return new PirServer(parameters, seed, kernels, offset);
  }

  /** A copy of the packed matrix D (row-major ℓ × m bytes). */
  matrix(): Uint8Array {
    const { rows, columns } = this.parameters;
    return this.kernels.bytes(this.databaseOffset, rows * columns).slice();
  }

  /** publicMatrix() expands A ∈ Z_q^{m×n} (row-major) from the seed. O(mn). */
  publicMatrix(): Uint32Array {
    return expandSeed(this.seed, this.parameters.columns * this.parameters.lweDimension);
  }

  /**
   * hint(publicMatrix?) computes H = D·A ∈ Z_q^{ℓ×n} (row-major) in WebAssembly:
   * A is split into 16-bit limbs and pairs of columns of D meet pairs of rows of A
   * in i32x4.dot_i16x8_s (see kernel-text.ts, matmulPairs). O(ℓ·m·n) multiply-adds;
   * A is expanded from the seed unless passed in.
   */
  hint(publicMatrix: Uint32Array = this.publicMatrix()): Uint32Array {
    const { rows, columns, lweDimension: n } = this.parameters;
    const pairs = columns / 2;
    const mark = this.kernels.mark();
    try {
      // Left: D[i][2t] | D[i][2t+1] << 16, one word per pair of columns of D.
      const left = this.kernels.allocate(rows * pairs * 4);
      const leftWords = this.kernels.words(left, rows * pairs);
      const database = this.kernels.bytes(this.databaseOffset, rows * columns);
      for (let i = 0; i < rows * pairs; i++) leftWords[i] = database[2 * i] | (database[2 * i + 1] << 16);
      // Right, in panels of 8 columns of A: per pair t of rows, 16 low limbs (rows 2t
      // and 2t+1 interleaved column by column) then 16 high limbs, A = high·2^16 + low.
      const right = this.kernels.allocate(columns * n * 4);
      const limbs = this.kernels.halves(right, columns * n * 2);
      for (let t = 0; t < pairs; t++) {
        for (let half = 0; half < 2; half++) {
          const row = (2 * t + half) * n;
          for (let k = 0; k < n; k++) {
            const value = publicMatrix[row + k];
            const low = (value << 16) >> 16;
            const at = ((k >> 3) * pairs + t) * 32 + 2 * (k & 7) + half;
            limbs[at] = low;
            limbs[at + 16] = (value - low) >>> 16;
          }
        }
      }
      const out = this.kernels.allocate(rows * n * 4);
      this.kernels.exports.matmulPairs(left, rows, pairs, right, n, out);
      return this.kernels.words(out, rows * n).slice();
    } finally {
      this.kernels.release(mark);
    }
  }

  /**
   * commit(binding?) is the provider's offline phase of paper B Figure 3: the hint
   * H = D·A, the challenge C = Hash(A, H) and the proof Z = C·D (signed 32-bit integers,
   * λ × m). For an audit (`binding`: candidate-list digest, auditor nonce, provider
   * share) A is expanded from publicSeeds(binding).matrix and the hash covers the
   * binding too, so the commitment holds for this audit and this candidate list only;
   * without one, A comes from this server's seed (benchmarks, tests of the scheme).
   * Returns the seed of A used. O(ℓmn + λℓm).
   */
  commit(binding?: CommitmentBinding): { seed: Uint8Array; hint: Uint32Array; proof: Int32Array } {
    const seed = binding === undefined ? this.seed : publicSeeds(binding).matrix;
    const hint = this.hint(expandSeed(seed, this.parameters.columns * this.parameters.lweDimension));
    const challenge = commitmentChallenge(this.parameters, seed, hint, binding);
    const proof = this.commitmentProof(challenge, CHALLENGE_ROWS);
    return { seed, hint, proof: new Int32Array(proof.buffer, proof.byteOffset, proof.length) };
  }

  /**
   * commitmentProof(challenge) computes Z = C·D over the integers for a challenge
   * C ∈ {0,1}^{λ×ℓ} (row-major bytes): paper B Figure 3's proof that H commits to a
   * short D. O(λ·ℓ·m).
   */
  commitmentProof(challenge: Uint8Array, challengeRows: number): Uint32Array {
    const { rows, columns } = this.parameters;
    const mark = this.kernels.mark();
    try {
      const wide = this.kernels.allocate(rows * columns * 4);
      const wideView = this.kernels.words(wide, rows * columns);
      const database = this.kernels.bytes(this.databaseOffset, rows * columns);
      for (let i = 0; i < database.length; i++) wideView[i] = database[i];
      const left = this.kernels.allocate(challengeRows * rows);
      this.kernels.bytes(left, challenge.length).set(challenge);
      const out = this.kernels.allocate(challengeRows * columns * 4);
      this.kernels.exports.matmulBytes(left, rows, challengeRows, rows, wide, columns, out);
      return this.kernels.words(out, challengeRows * columns).slice();
    } finally {
      this.kernels.release(mark);
    }
  }

  /** D_d^T, the transposed digit plane d of D (m × ℓ bytes), in kernel memory. */
  private transposedPlane(plane: number, digitBits: number): number {
    const { rows, columns } = this.parameters;
    const offset = this.kernels.allocate(rows * columns);
    const out = this.kernels.bytes(offset, rows * columns);
    const database = this.kernels.bytes(this.databaseOffset, rows * columns);
    const mask = 2 ** digitBits - 1;
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < columns; c++) out[c * rows + r] = (database[r * columns + c] >> (plane * digitBits)) & mask;
    }
    return offset;
  }

  /**
   * challengeHints(seed) is the provider's offline half of VeriSimplePIR's secret
   * challenge (Construction 5.1): with A_2 ∈ Z_q^{ℓ×n} expanded from `seed`, the hint
   * H_2,d = D_d^T·A_2 (m × n) of each digit plane (see secretChallengeShape), planes
   * end to end. O(planes·ℓmn).
   */
  challengeHints(seed: Uint8Array): Uint32Array {
    const { rows, lweDimension } = this.parameters;
    return this.transposedPlanesTimes(expandSeed(seed, rows * lweDimension, 2), lweDimension);
  }

  /**
   * answerChallenge(encrypted) evaluates every digit plane's D_d^T on the auditor's
   * encrypted challenge (ℓ × λ words: column k encrypts row k of the secret C), giving
   * planes × (m × λ) words. The provider learns nothing of C (LWE). O(planes·ℓmλ).
   */
  answerChallenge(encrypted: Uint32Array): Uint32Array {
    return this.transposedPlanesTimes(encrypted, CHALLENGE_ROWS);
  }

  /**
   * transposedPlanesTimes(right, width) is D_d^T·right (m × width words, mod 2^32) for
   * every digit plane d of secretChallengeShape, planes end to end, where right is an
   * ℓ × width matrix: the one product behind challengeHints and answerChallenge.
   * O(planes·ℓm·width).
   */
  private transposedPlanesTimes(right: Uint32Array, width: number): Uint32Array {
    const { rows, columns } = this.parameters;
    const { digitBits, planes } = secretChallengeShape(this.parameters);
    const products = new Uint32Array(planes * columns * width);
    const mark = this.kernels.mark();
    try {
      const rightAddress = this.kernels.allocate(right.byteLength);
      this.kernels.words(rightAddress, right.length).set(right);
      const out = this.kernels.allocate(columns * width * 4);
      for (let plane = 0; plane < planes; plane++) {
        const inner = this.kernels.mark();
        const left = this.transposedPlane(plane, digitBits);
        this.kernels.exports.matmulBytes(left, rows, columns, rows, rightAddress, width, out);
        products.set(this.kernels.words(out, columns * width), plane * columns * width);
        this.kernels.release(inner);
      }
      return products;
    } finally {
      this.kernels.release(mark);
    }
  }

  /**
   * loadQueryLimbs(queries, count) splits each of `count` queries (m words each, end to
   * end) into its low and high 16-bit limbs in WebAssembly memory, the layout the
   * answer kernel reads, and returns their address. The memory belongs to the caller's
   * kernels.mark() scope. O(count·m).
   */
  private loadQueryLimbs(queries: Uint32Array, count: number): number {
    const { columns } = this.parameters;
    const limbs = this.kernels.allocate(count * columns * 4);
    for (let q = 0; q < count; q++) {
      const base = limbs + q * columns * 4;
      splitQueryLimbs(
        queries.subarray(q * columns, (q + 1) * columns),
        this.kernels.halves(base, columns),
        this.kernels.halves(base + columns * 2, columns),
      );
    }
    return limbs;
  }

  /**
   * answer(queries, count) returns D·u for each of `count` queries laid end to end
   * (count × m words): one pass over D for the whole batch, count × ℓ words out.
   * O(count·ℓ·m). The caller validates the shape (see wire-format.ts).
   */
  answer(queries: Uint32Array, count: number): Uint32Array {
    const { rows, columns } = this.parameters;
    const mark = this.kernels.mark();
    try {
      const limbs = this.loadQueryLimbs(queries, count);
      const out = this.kernels.allocate(count * rows * 4);
      this.kernels.exports.answer(this.databaseOffset, rows, columns, limbs, count, out);
      return this.kernels.words(out, count * rows).slice();
    } finally {
      this.kernels.release(mark);
    }
  }

  /**
   * benchmarkKernel(queries, count, repetitions) times the bare answer kernel on
   * limbs already in WebAssembly memory (no copies in or out), and the `ceiling`
   * kernel (the same loads and multiply-adds against constant registers, one
   * pass over D) as the bound it is compared with. Medians of `repetitions`
   * alternating calls, in milliseconds (warm cache: D stays in L2/L3).
   */
  benchmarkKernel(queries: Uint32Array, count: number, repetitions: number): { answerMs: number; ceilingMs: number } {
    const { rows, columns } = this.parameters;
    const mark = this.kernels.mark();
    try {
      const limbs = this.loadQueryLimbs(queries, count);
      const out = this.kernels.allocate(count * rows * 4);
      const kernels = this.kernels.exports;
      kernels.answer(this.databaseOffset, rows, columns, limbs, count, out);
      kernels.ceiling(this.databaseOffset, rows, columns, out);
      const answerTimes: number[] = [];
      const ceilingTimes: number[] = [];
      for (let r = 0; r < repetitions; r++) {
        let start = process.hrtime.bigint();
        kernels.answer(this.databaseOffset, rows, columns, limbs, count, out);
        answerTimes.push(Number(process.hrtime.bigint() - start) / 1e6);
        start = process.hrtime.bigint();
        kernels.ceiling(this.databaseOffset, rows, columns, out);
        ceilingTimes.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
      const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1];
      return { answerMs: median(answerTimes), ceilingMs: median(ceilingTimes) };
    } finally {
      this.kernels.release(mark);
    }
  }
}
