import { createCipheriv } from 'node:crypto';

/** Bytes of a seed for the public matrix A (an AES-128 key). */
export const SEED_BYTES = 16;

/**
 * expandSeed(seed, wordCount, domain) stretches a 16-byte seed into `wordCount`
 * uniform u32 words (little-endian) with AES-128 in counter mode, a cryptographic
 * PRG: the key is the seed and the 16-byte initial counter block holds the domain
 * number, so different uses of one seed (A, the challenge C) give independent
 * streams. O(wordCount).
 */
export function expandSeed(seed: Uint8Array, wordCount: number, domain = 0): Uint32Array {
  if (seed.length !== SEED_BYTES) {
    throw new Error(`expandSeed: the seed must have ${SEED_BYTES} bytes, found ${seed.length}`);
  }
  const counter = Buffer.alloc(16);
  counter.writeUInt32BE(domain, 0);
  const cipher = createCipheriv('aes-128-ctr', seed, counter);
  const stream = cipher.update(Buffer.alloc(wordCount * 4));
  const words = new Uint32Array(wordCount);
  new Uint8Array(words.buffer).set(stream);
  return words;
}
