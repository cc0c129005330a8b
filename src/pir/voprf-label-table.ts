import { randomBytes } from 'node:crypto';
import { compiledModule } from '../util/paths.js';
import { ThreadPool } from '../util/thread-pool.js';
import { labelInput, labelPad, TABLE_ID_BYTES, tableBytes, VOPRF, voprfEvaluate } from './voprf-suite.js';

/**
 * The provider's OPRF-masked label table for one model version: the key pair (sk, pk),
 * the table id, and T with T_i = label_i ⊕ pad(Evaluate(sk, x_i)), packed `entryBits`
 * bits per entry. The secret key never leaves the provider; a key pair labels one table
 * only (T ⊕ T′ under one key would show which labels changed).
 */
export interface VoprfLabelTable {
  readonly secretKey: Uint8Array;
  readonly publicKey: Uint8Array;
  readonly tableId: Uint8Array;
  readonly candidateDigest: Uint8Array;
  readonly entryCount: number;
  readonly entryBits: number;
  readonly table: Uint8Array;
}

/** The work of one thread: masked entries [start, end) as one byte each. */
export interface MaskedRangeRequest {
  readonly secretKey: Uint8Array;
  readonly candidateDigest: Uint8Array;
  readonly tableId: Uint8Array;
  readonly entryBits: number;
  readonly start: number;
  readonly labels: Uint8Array;
}

/**
 * maskedRange(request) is label_i ⊕ pad(Evaluate(sk, x_i)) for i = start … start + labels.length − 1,
 * one byte each: the kernel of the table (one hash-to-group, one scalar multiplication and one
 * SHA-512 per entry, all in @noble/curves). O(length).
 * @param request the key, the binding of x_i and the labels of the range
 * @returns the masked entries of the range
 * @example maskedRange({ secretKey, candidateDigest, tableId, entryBits: 1, start: 0, labels }).length
 */
export function maskedRange(request: MaskedRangeRequest): Uint8Array {
  const { secretKey, candidateDigest, tableId, entryBits, start, labels } = request;
  const out = new Uint8Array(labels.length);
  for (let k = 0; k < labels.length; k++) {
    const output = voprfEvaluate(secretKey, labelInput(candidateDigest, tableId, start + k));
    out[k] = labels[k] ^ labelPad(output, entryBits);
  }
  return out;
}

export interface VoprfLabelTableOptions {
  readonly candidateDigest: Uint8Array;
  /** Bits per label: 1, 2, 4 or 8 (default 1). */
  readonly entryBits?: number;
  /** Threads to evaluate on (default 1: the calling thread; more needs the compiled dist/). */
  readonly threads?: number;
}

/**
 * createVoprfLabelTable(labels, options) draws a fresh key pair and a 16-byte table id
 * from node:crypto and builds T: entry i is labels[i] ⊕ pad(y_i), y_i = Evaluate(sk, x_i)
 * with x_i = labelInput(candidate digest, table id, i). With `threads` > 1 the entries are
 * split into contiguous ranges evaluated on worker threads. O(N) group operations.
 * Throws Error for labels that do not fit entryBits (a caller bug: the pool reader checks).
 * @param labels the provider's labels in the agreed candidate order
 * @param options the candidate digest, bits per label, threads
 * @returns the table with its keys and id
 * @example const table = await createVoprfLabelTable(pool.decision, { candidateDigest })
 */
export async function createVoprfLabelTable(
  labels: Uint8Array,
  options: VoprfLabelTableOptions,
): Promise<VoprfLabelTable> {
  const entryBits = options.entryBits ?? 1;
  if (![1, 2, 4, 8].includes(entryBits))
    throw new Error(`createVoprfLabelTable: entryBits ${entryBits} not in 1, 2, 4, 8`);
  const limit = 1 << entryBits;
  for (let i = 0; i < labels.length; i++) {
    if (labels[i] >= limit)
      throw new Error(`createVoprfLabelTable: label ${labels[i]} at ${i} needs more than ${entryBits} bits`);
  }
  const keys = VOPRF.generateKeyPair();
  const tableId = new Uint8Array(randomBytes(TABLE_ID_BYTES));
  const base = { secretKey: keys.secretKey, candidateDigest: options.candidateDigest, tableId, entryBits };
  const threads = Math.max(1, Math.min(Math.floor(options.threads ?? 1), labels.length));
  let masked: Uint8Array;
  if (threads === 1) masked = maskedRange({ ...base, start: 0, labels });
  else {
    const size = Math.ceil(labels.length / threads);
    const pool = new ThreadPool<MaskedRangeRequest, Uint8Array>(compiledModule('pir/voprf-label-table-worker.js'), {
      size: threads,
      name: 'voprf label table worker',
    });
    let parts: Uint8Array[];
    try {
      parts = await Promise.all(
        Array.from({ length: threads }, (_, t) =>
          pool.run({ ...base, start: t * size, labels: labels.slice(t * size, (t + 1) * size) }),
        ),
      );
    } finally {
      await pool.close();
    }
    masked = new Uint8Array(labels.length);
    for (const [t, part] of parts.entries()) masked.set(part, t * size);
  }
  const table = new Uint8Array(tableBytes(labels.length, entryBits));
  for (let i = 0; i < masked.length; i++) table[(i * entryBits) >>> 3] |= masked[i] << ((i * entryBits) & 7);
  return {
    secretKey: keys.secretKey,
    publicKey: keys.publicKey,
    tableId,
    candidateDigest: options.candidateDigest,
    entryCount: labels.length,
    entryBits,
    table,
  };
}
