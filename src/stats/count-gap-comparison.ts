import type { FixedSampleDecision } from './fixed-sample-decision.js';

/** A tolerance as the exact fraction numerator / denominator (denominator a power of ten). */
export interface DecimalFraction {
  readonly numerator: bigint;
  readonly denominator: bigint;
}

/**
 * decimalFraction(value) is the exact fraction of the decimal that `value` prints as in
 * JavaScript (the shortest decimal that rounds to it): 0.05 -> 5/100, 0.3 -> 3/10,
 * 1e-7 -> 1/10^7, 2.5 -> 25/10. This is the number a user means by "0.05": the double
 * 0.05 itself is 0.05000000000000000277..., and the double 0.3 is 0.29999999999999998889...,
 * so comparing a gap with the double would put a gap of exactly 3/10 above a tolerance of
 * 0.3. Needs a finite value >= 0 (callers validate tolerances first). O(digits).
 */
export function decimalFraction(value: number): DecimalFraction {
  const text = String(value);
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(text);
  if (match === null) throw new Error(`decimalFraction needs a finite number >= 0, got ${text}`);
  const fraction = match[2] ?? '';
  const exponent = Number(match[3] ?? '0') - fraction.length;
  const digits = BigInt(match[1] + fraction);
  return exponent >= 0
    ? { numerator: digits * 10n ** BigInt(exponent), denominator: 1n }
    : { numerator: digits, denominator: 10n ** BigInt(-exponent) };
}

let cachedTolerance = Number.NaN;
let cachedFraction: DecimalFraction = { numerator: 0n, denominator: 1n };
let cachedNumerator = 0;
let cachedDenominator = 1;

/** Below this every integer product is exact in a double. */
const EXACT_LIMIT = 2 ** 53;

/**
 * countGapExceedsTolerance(countA, positivesA, countB, positivesB, tolerance) decides
 * exactly whether |positivesB/countB - positivesA/countA| > tolerance, the tolerance
 * taken as the decimal it prints as (see decimalFraction): with tolerance = p/q it
 * compares the integers |positivesB countA - positivesA countB| q and p countA countB.
 * In doubles when every product stays below 2^53 (integer products below 2^53 are
 * exact, so no rounding happens at all), in BigInt otherwise. A gap of exactly the
 * tolerance (e.g. 8/20 - 7/20 at 0.05, whose double difference is 0.05000000000000004)
 * does not exceed it. Counts must be integers >= 0 with positives <= count; a group
 * without observations has no gap: false. O(1) (O(digits) on a new tolerance).
 */
export function countGapExceedsTolerance(
  countA: number,
  positivesA: number,
  countB: number,
  positivesB: number,
  tolerance: number,
): boolean {
  if (countA === 0 || countB === 0) return false;
  if (tolerance !== cachedTolerance) {
    cachedFraction = decimalFraction(tolerance);
    cachedTolerance = tolerance;
    cachedNumerator = Number(cachedFraction.numerator);
    cachedDenominator = Number(cachedFraction.denominator);
  }
  const both = countA * countB;
  const scale = Math.max(cachedNumerator, cachedDenominator);
  if (both * scale < EXACT_LIMIT && cachedNumerator < EXACT_LIMIT && cachedDenominator < EXACT_LIMIT) {
    // |pB nA - pA nB| <= nA nB, and p, q <= scale: every product below is below 2^53.
    const difference = Math.abs(positivesB * countA - positivesA * countB);
    return difference * cachedDenominator > cachedNumerator * both;
  }
  const a = BigInt(countA);
  const b = BigInt(countB);
  let difference = BigInt(positivesB) * a - BigInt(positivesA) * b;
  if (difference < 0n) difference = -difference;
  return difference * cachedFraction.denominator > cachedFraction.numerator * a * b;
}

/**
 * countGapDecision(countA, positivesA, countB, positivesB, tolerance) is the plug-in
 * decision on counts (the oracle and the fixed-sample baseline of paper A section 5.4
 * with hard decisions): reject when the gap exceeds the tolerance exactly (see
 * countGapExceedsTolerance), accept otherwise; inconclusive when a group has no
 * observation, since the gap is then undefined and nothing was measured (no verdict
 * without evidence: an empty group never passes an audit). O(1).
 * @param countA rows of group a
 * @param positivesA rows of group a decided 1
 * @param countB rows of group b
 * @param positivesB rows of group b decided 1
 * @param tolerance δ, compared as the decimal it prints as
 * @returns reject when the rates' gap exceeds δ exactly, else accept
 * @example
 * countGapDecision(100, 40, 100, 45, 0.05); // 'accept': a gap of exactly 0.05
 */
export function countGapDecision(
  countA: number,
  positivesA: number,
  countB: number,
  positivesB: number,
  tolerance: number,
): FixedSampleDecision {
  if (countA === 0 || countB === 0) return 'inconclusive';
  return countGapExceedsTolerance(countA, positivesA, countB, positivesB, tolerance) ? 'reject' : 'accept';
}

/** The last tolerance size compareCountDifference converted, and its fraction. */
let signedTolerance = Number.NaN;
let signedFraction: DecimalFraction = { numerator: 0n, denominator: 1n };

/**
 * compareCountDifference(countA, positivesA, countB, positivesB, tolerance) returns the
 * sign (-1, 0 or 1) of positivesB/countB - positivesA/countA - tolerance, exactly: the
 * tolerance is the decimal it prints as (decimalFraction; any sign), and with tolerance =
 * s p/q it compares the integers (positivesB countA - positivesA countB) q and s p countA
 * countB, in doubles while every product stays below 2^53 and in BigInt otherwise. The
 * signed companion of countGapExceedsTolerance, for one-sided comparisons such as "is the
 * smallest possible rate of b more than the tolerance above the largest possible rate of
 * a" (the deterministic part of the betting test). Counts are integers >= 0 with
 * countA, countB >= 1 (positives need not be <= count). O(1) (O(digits) on a new tolerance).
 */
export function compareCountDifference(
  countA: number,
  positivesA: number,
  countB: number,
  positivesB: number,
  tolerance: number,
): -1 | 0 | 1 {
  const negative = tolerance < 0;
  const size = negative ? -tolerance : tolerance;
  if (size !== signedTolerance) {
    signedFraction = decimalFraction(size);
    signedTolerance = size;
  }
  const p = Number(signedFraction.numerator);
  const q = Number(signedFraction.denominator);
  const both = countA * countB;
  const largest = Math.max(positivesB * countA, positivesA * countB, both);
  if (largest * Math.max(p, q, 1) < EXACT_LIMIT && p < EXACT_LIMIT && q < EXACT_LIMIT) {
    const left = (positivesB * countA - positivesA * countB) * q;
    const right = (negative ? -p : p) * both;
    return left > right ? 1 : left < right ? -1 : 0;
  }
  const a = BigInt(countA);
  const b = BigInt(countB);
  const left = (BigInt(positivesB) * a - BigInt(positivesA) * b) * signedFraction.denominator;
  const right = (negative ? -signedFraction.numerator : signedFraction.numerator) * a * b;
  return left > right ? 1 : left < right ? -1 : 0;
}
