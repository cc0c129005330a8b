import { randomBytes } from 'node:crypto';
import { ERROR_STANDARD_DEVIATION } from './parameters.js';

/** Support of the sampled error: |x| ≤ 12σ (the mass beyond is below 2^-100). */
const TAIL_CUT = Math.ceil(12 * ERROR_STANDARD_DEVIATION);
const RESOLUTION = 2 ** 48;

/** Cumulative table of the discrete Gaussian over [-TAIL_CUT, TAIL_CUT], scaled by 2^48. */
const cumulative: Float64Array = (() => {
  const weights = new Float64Array(2 * TAIL_CUT + 1);
  let total = 0;
  for (let x = -TAIL_CUT; x <= TAIL_CUT; x++) {
    const weight = Math.exp(-(x * x) / (2 * ERROR_STANDARD_DEVIATION * ERROR_STANDARD_DEVIATION));
    weights[x + TAIL_CUT] = weight;
    total += weight;
  }
  const table = new Float64Array(weights.length);
  let running = 0;
  for (let i = 0; i < weights.length; i++) {
    running += weights[i];
    table[i] = Math.round((running / total) * RESOLUTION);
  }
  table[table.length - 1] = RESOLUTION;
  return table;
})();

/**
 * sampleDiscreteGaussian(count) draws `count` independent errors from the discrete
 * Gaussian on Z with P(x) ∝ exp(-x²/(2σ²)), σ = 6.4, by inverting its cumulative
 * table with 48-bit uniforms from node:crypto (never a seeded generator: these are
 * LWE secrets). Values are returned as u32 words modulo 2^32 (negative x as 2^32 + x).
 * O(count · log σ).
 */
export function sampleDiscreteGaussian(count: number): Uint32Array {
  const random = randomBytes(count * 6);
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const uniform = random.readUIntLE(i * 6, 6);
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (uniform < cumulative[middle]) high = middle;
      else low = middle + 1;
    }
    out[i] = (low - TAIL_CUT) >>> 0;
  }
  return out;
}

/** sampleUniformWords(count) draws `count` uniform elements of Z_{2^32} from node:crypto. */
export function sampleUniformWords(count: number): Uint32Array {
  const words = new Uint32Array(count);
  new Uint8Array(words.buffer).set(randomBytes(count * 4));
  return words;
}
