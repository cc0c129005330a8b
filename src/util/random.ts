import { hash } from 'node:crypto';
import seedrandom from 'seedrandom';

/**
 * A source of uniform numbers in [0, 1). Every Monte Carlo draw in fairaudit comes
 * from one of these, passed in as an argument: never the unseeded global generator, never a
 * module-level generator (it would be shared across worker threads).
 */
export type Random = () => number;

/** Alea's multiplier, and 2^-32, its scale from 32-bit integers to [0, 1). */
export const ALEA_MULTIPLIER = 2091639;
export const ALEA_SCALE = 2.3283064365386963e-10;

/**
 * createRandom(seed) returns a seeded generator: seedrandom's Alea (fast, 2^116 period,
 * identical streams on every platform for the same seed string). seedrandom seeds it; the
 * steps are then taken here on a Float64Array of its state (s0, s1, s2, c), Alea's own
 * arithmetic (t = 2091639 s0 + 2^-32 c, then c = t | 0 and the draw t - c; since 0 <= t < 2^31 the carry is
 * taken as Math.floor(t), which keeps it a double and is quicker), so the stream is
 * seedrandom's to the bit (test/util/random.test.ts) while a hot loop can inline the step
 * and no double is boxed on object fields.
 * @param seed any string or number; the same seed gives the same sequence
 * @returns a generator of uniform numbers in [0, 1)
 * @example
 * const random = createRandom('replicate-1');
 * const u = random();
 */
export function createRandom(seed: string | number): Random {
  const seeded = seedrandom.alea(String(seed), { state: true }).state();
  const state = new Float64Array(4);
  state[0] = seeded.s0;
  state[1] = seeded.s1;
  state[2] = seeded.s2;
  state[3] = seeded.c;
  const random: AleaRandom = () => {
    const t = ALEA_MULTIPLIER * state[0] + state[3] * ALEA_SCALE;
    state[0] = state[1];
    state[1] = state[2];
    const carry = Math.floor(t);
    state[3] = carry;
    const draw = t - carry;
    state[2] = draw;
    return draw;
  };
  random.aleaState = state;
  return random;
}

/** A generator of createRandom, carrying its state (s0, s1, s2, c) for loops that take its steps inline. */
type AleaRandom = Random & { aleaState?: Float64Array };

/**
 * aleaStateOf(random) is the Float64Array state (s0, s1, s2, c) of a generator made by
 * createRandom, or null for any other Random. A hot loop may take the generator's steps
 * itself (createRandom's arithmetic on locals, written back before it returns): the draws
 * are those random() would give, to the bit. O(1).
 */
export function aleaStateOf(random: Random): Float64Array | null {
  return (random as AleaRandom).aleaState ?? null;
}

/**
 * deriveSeed(...parts) hashes its coordinates (master seed, a cell's canonical key,
 * a replicate index, ...) into a seed string, so a replicate's stream never depends
 * on run order, thread count or sharding (benchopt's rule).
 * Runs in O(total length of parts).
 * @param parts the coordinates of what is seeded (experiment seed, cell key, replicate)
 * @returns a seed string that depends on the parts and their order only
 * @example
 * const random = createRandom(deriveSeed('20260629', 'pool=compliant', 3));
 */
export function deriveSeed(...parts: Array<string | number>): string {
  // One message of length-prefixed parts, hashed in one call (the bytes a streaming hash of the parts would see).
  let message = '';
  for (const part of parts) {
    const text = String(part);
    message += `${text.length}:${text};`;
  }
  return hash('sha256', message, 'hex').slice(0, 32);
}

/** randomInt(random, n) draws an integer uniformly from 0..n-1. */
export function randomInt(random: Random, n: number): number {
  return Math.floor(random() * n);
}

/**
 * partialShuffleStep(values, position, random) performs step `position` of a
 * Fisher-Yates shuffle drawn from the front: it swaps values[position] with values[j]
 * for j uniform in [position, length) (one draw of `random`) and returns j. After steps
 * 0..k-1 the first k entries are a uniform sample without replacement, in uniformly
 * random order, whatever the starting arrangement. The one partial shuffle of
 * fairaudit: audit orders, audit sets and index samplers all take their steps here.
 * O(1). Kernel: no validation.
 */
export function partialShuffleStep(values: Int32Array, position: number, random: Random): number {
  const partner = position + Math.floor(random() * (values.length - position));
  const held = values[partner];
  values[partner] = values[position];
  values[position] = held;
  return partner;
}

/**
 * partialShuffle(values, count, random) takes steps 0..count-1 of partialShuffleStep and
 * returns values.subarray(0, count): a uniform sample of `count` entries without
 * replacement, in random order. O(count). Kernel: count ≤ length is trusted.
 */
export function partialShuffle(values: Int32Array, count: number, random: Random): Int32Array {
  for (let i = 0; i < count; i++) partialShuffleStep(values, i, random);
  return values.subarray(0, count);
}

/**
 * shuffleInPlace(random, array) applies a Fisher-Yates shuffle: every permutation
 * equally likely. O(length). Returns the same array.
 */
export function shuffleInPlace<T extends { length: number; [index: number]: unknown }>(random: Random, array: T): T {
  for (let i = array.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const held = array[i];
    array[i] = array[j];
    array[j] = held;
  }
  return array;
}

/** standardNormal(random) draws one N(0, 1) value (Box-Muller, one of the pair). */
export function standardNormal(random: Random): number {
  let u = 0;
  while (u === 0) u = random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}
