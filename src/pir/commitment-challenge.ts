import { createHash } from 'node:crypto';
import { bindingBytes, type CommitmentBinding } from './commitment-binding.js';
import { expandSeed } from './expand-seed.js';
import { CHALLENGE_ROWS, type PirParameters } from './parameters.js';

/** Domain separation of the Fiat-Shamir hash (v2: bound to an audit) and of the challenge's AES-CTR stream. */
const DOMAIN = 'fairaudit/pir/commitment/v1';
const BOUND_DOMAIN = 'fairaudit/pir/commitment/v2';
const CHALLENGE_STREAM = 1;

/**
 * commitmentChallenge(parameters, seed, hint, binding?) is paper B Figure 3's
 * C ← Hash(A, H): SHA-256 over the parameters, the seed of A (A is a function of it), H
 * and, for an audit, the binding (candidate-list digest, auditor nonce, provider share:
 * commitment-binding.ts), whose first 16 bytes key an AES-128-CTR stream cut into the
 * bits of C ∈ {0,1}^{λ×ℓ}, λ = 128 (row-major bytes 0/1). Both sides derive it; neither
 * chooses it (Fiat-Shamir, VeriSimplePIR §2.2). Without a binding (benchmarks, tests of
 * the scheme) the hash is Figure 3's alone. O(ℓn + λℓ).
 */
export function commitmentChallenge(
  parameters: PirParameters,
  seed: Uint8Array,
  hint: Uint32Array,
  binding?: CommitmentBinding,
): Uint8Array {
  const { rows, columns, plaintextModulus, lweDimension, entryCount, entryBits } = parameters;
  const hash = createHash('sha256');
  hash.update(binding === undefined ? DOMAIN : BOUND_DOMAIN);
  if (binding !== undefined) hash.update(bindingBytes(binding));
  hash.update(JSON.stringify([rows, columns, plaintextModulus, lweDimension, entryCount, entryBits]));
  hash.update(seed);
  hash.update(new Uint8Array(hint.buffer, hint.byteOffset, hint.byteLength));
  const key = new Uint8Array(hash.digest().subarray(0, 16));
  const bitCount = CHALLENGE_ROWS * rows;
  const words = expandSeed(key, Math.ceil(bitCount / 32), CHALLENGE_STREAM);
  const challenge = new Uint8Array(bitCount);
  for (let i = 0; i < bitCount; i++) challenge[i] = (words[i >>> 5] >>> (i & 31)) & 1;
  return challenge;
}
