import { createHash } from 'node:crypto';

/** Domain separation of the candidate-list digest. */
const DOMAIN = 'fairaudit/pir/candidates/v1';

/** Bytes of a candidate-list digest (SHA-256). */
export const CANDIDATE_DIGEST_BYTES = 32;

/**
 * candidateListDigest(ids, groups) is the SHA-256 of the candidate list in the agreed
 * order, as both sides hold it before the audit: the domain string, the count N (u32
 * little-endian), then per candidate its identifier (the pool's `id` column, or its row
 * number when the pool has none; i32 little-endian) and its group (one byte). It does
 * not cover labels or decisions (those are what the PIR commitment fixes). Two lists
 * give the same digest iff they hold the same identifiers and groups in the same order
 * (up to SHA-256 collisions). O(N).
 * @param ids the candidates' ids, or null for row numbers
 * @param groups each candidate's group
 * @returns the SHA-256 digest both parties bind the audit to
 * @example
 * const digest = candidateListDigest(null, pool.group);
 */
export function candidateListDigest(ids: ArrayLike<number> | null, groups: ArrayLike<number>): Uint8Array {
  const count = groups.length;
  const bytes = new Uint8Array(4 + count * 5);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, count, true);
  for (let i = 0; i < count; i++) {
    view.setInt32(4 + i * 5, ids === null ? i : ids[i], true);
    bytes[8 + i * 5] = groups[i];
  }
  return new Uint8Array(createHash('sha256').update(DOMAIN).update(bytes).digest());
}
