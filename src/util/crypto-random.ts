import { randomBytes } from 'node:crypto';
import type { Random } from './random.js';

const WORDS_PER_REFILL = 512;

/**
 * createCryptoRandom() returns a `Random` whose numbers come from node:crypto: 53
 * uniformly random bits per number, drawn in refills of 4 KiB. It is for every choice
 * a model provider must not predict (the audit set S, the canaries, their positions),
 * never for a Monte Carlo simulation (it cannot be replayed). `Math.floor(u · n)` on
 * its output is uniform on 0..n-1 to within n / 2^53.
 */
export function createCryptoRandom(): Random {
  let words: Uint32Array = new Uint32Array(0);
  let next = 0;
  return () => {
    if (next + 2 > words.length) {
      const bytes = randomBytes(WORDS_PER_REFILL * 8);
      words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
      next = 0;
    }
    const high = words[next++] >>> 5; // 27 bits
    const low = words[next++] >>> 6; // 26 bits
    return (high * 67_108_864 + low) / 9_007_199_254_740_992;
  };
}
