import { createHash } from 'node:crypto';
import { VOPRF_SUITE } from './voprf-suite.js';

/** Domain separation of the label-table commitment. */
const COMMITMENT_DOMAIN = 'fairaudit/pir/voprf-commitment/v1';

/** What one audit's commitment of the label transfer covers. */
export interface VoprfCommitmentInput {
  readonly candidateDigest: Uint8Array;
  readonly publicKey: Uint8Array;
  readonly tableId: Uint8Array;
  readonly entryCount: number;
  readonly entryBits: number;
  /** The masked table T as served. */
  readonly table: Uint8Array;
  /** The auditor's fresh nonce for this audit (32 bytes from node:crypto). */
  readonly auditorNonce: Uint8Array;
  /** Evaluations the provider grants this audit (|S| + k). */
  readonly evaluationBudget: number;
}

/**
 * voprfCommitment(input) is the audit's commitment, hex: SHA-256 over the domain string,
 * the suite name, the candidate digest, pk, the table id, N (u32 LE), the bits per label
 * (u8), SHA-256(T), the auditor's nonce and the evaluation budget (u32 LE). Anyone holding
 * a transcript recomputes it: it names one table under one key for one audit. O(|T|).
 * @param input what the commitment covers
 * @returns 64 hex digits
 * @example voprfCommitment({ candidateDigest, publicKey, tableId, entryCount, entryBits: 1, table, auditorNonce,
 * evaluationBudget: 1010 })
 */
export function voprfCommitment(input: VoprfCommitmentInput): string {
  const sizes = new Uint8Array(9);
  const view = new DataView(sizes.buffer);
  view.setUint32(0, input.entryCount, true);
  view.setUint8(4, input.entryBits);
  view.setUint32(5, input.evaluationBudget, true);
  return createHash('sha256')
    .update(COMMITMENT_DOMAIN)
    .update(`\0${VOPRF_SUITE}\0`)
    .update(input.candidateDigest)
    .update(input.publicKey)
    .update(input.tableId)
    .update(sizes.subarray(0, 5))
    .update(createHash('sha256').update(input.table).digest())
    .update(input.auditorNonce)
    .update(sizes.subarray(5))
    .digest('hex');
}
