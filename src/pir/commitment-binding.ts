import { createHash } from 'node:crypto';
import { CANDIDATE_DIGEST_BYTES } from './candidate-digest.js';
import { SEED_BYTES } from './expand-seed.js';

/** Bytes of the auditor's nonce and of the provider's share of the public seeds. */
export const NONCE_BYTES = 32;

/**
 * What one audit's commitment is bound to: the candidate list in the agreed order
 * (candidateListDigest), a fresh nonce the auditor draws from node:crypto for this
 * audit, and a share the provider draws from node:crypto when it receives the nonce.
 */
export interface CommitmentBinding {
  readonly candidateDigest: Uint8Array;
  readonly auditorNonce: Uint8Array;
  readonly providerShare: Uint8Array;
}

/** Domain separation of the seed derivation. */
const SEED_DOMAIN = 'fairaudit/pir/public-seeds/v1';

/**
 * checkBinding(binding) throws Error unless the digest, the nonce and the share have
 * their sizes (32 bytes each): a caller bug, the protocol layer validates what it
 * receives first. O(1).
 */
function checkBinding(binding: CommitmentBinding): void {
  const sizes = [binding.candidateDigest.length, binding.auditorNonce.length, binding.providerShare.length];
  if (sizes[0] !== CANDIDATE_DIGEST_BYTES || sizes[1] !== NONCE_BYTES || sizes[2] !== NONCE_BYTES) {
    throw new Error(`commitment binding: expected 32-byte digest, nonce and share, found ${sizes.join(', ')} bytes`);
  }
}

/**
 * bindingBytes(binding) is the digest, nonce and share end to end (96 bytes): what the
 * Fiat-Shamir hash of the commitment covers beside the parameters, the seed of A and H. O(1).
 */
export function bindingBytes(binding: CommitmentBinding): Uint8Array {
  checkBinding(binding);
  const out = new Uint8Array(CANDIDATE_DIGEST_BYTES + 2 * NONCE_BYTES);
  out.set(binding.candidateDigest, 0);
  out.set(binding.auditorNonce, CANDIDATE_DIGEST_BYTES);
  out.set(binding.providerShare, CANDIDATE_DIGEST_BYTES + NONCE_BYTES);
  return out;
}

/**
 * publicSeeds(binding) derives the 16-byte seeds of the public matrices A (queries,
 * hint) and A_2 (the secret challenge) jointly: the first 16 bytes of
 * SHA-256(domain ‖ name ‖ provider share ‖ auditor nonce ‖ candidate digest), name "A" or
 * "A2". Neither side picks them: the auditor's fresh nonce makes them unpredictable to
 * the provider (no trapdoored A that would let it read queries), the provider's share
 * keeps the auditor from choosing them (SHA-256 as a random oracle). O(1).
 */
export function publicSeeds(binding: CommitmentBinding): { matrix: Uint8Array; challengeMatrix: Uint8Array } {
  const bytes = bindingBytes(binding);
  const derive = (name: string) => {
    const hash = createHash('sha256').update(SEED_DOMAIN).update(`${name}\0`);
    hash.update(bytes.subarray(CANDIDATE_DIGEST_BYTES + NONCE_BYTES));
    hash.update(bytes.subarray(CANDIDATE_DIGEST_BYTES, CANDIDATE_DIGEST_BYTES + NONCE_BYTES));
    hash.update(bytes.subarray(0, CANDIDATE_DIGEST_BYTES));
    return new Uint8Array(hash.digest().subarray(0, SEED_BYTES));
  };
  return { matrix: derive('A'), challengeMatrix: derive('A2') };
}
