import { bernoulliMaximumLogLikelihood } from '../../src/stats/bernoulli-glr.js';

/** f(x) of one face with 0 log 0 = 0 (see bernoulli-face-maximum.ts). */
function faceValue(s1: number, f1: number, s2: number, f2: number, tolerance: number, x: number): number {
  const term = (count: number, p: number) => (count > 0 ? count * Math.log(p) : 0);
  return term(s1, x) + term(f1, 1 - x) + term(s2, x + tolerance) + term(f2, 1 - tolerance - x);
}

/** The maximum of a face by plain bisection on the derivative's sign, then the ends compared. */
function faceMaximum(s1: number, f1: number, s2: number, f2: number, tolerance: number): number {
  const width = 1 - tolerance;
  const slope = (x: number) =>
    (s1 > 0 ? s1 / x : 0) -
    (f1 > 0 ? f1 / (1 - x) : 0) +
    (s2 > 0 ? s2 / (x + tolerance) : 0) -
    (f2 > 0 ? f2 / (width - x) : 0);
  let low = 0;
  let high = width;
  for (let i = 0; i < 400; i++) {
    const middle = 0.5 * (low + high);
    if (middle <= low || middle >= high) break;
    if (slope(middle) > 0) low = middle;
    else high = middle;
  }
  return Math.max(
    faceValue(s1, f1, s2, f2, tolerance, 0.5 * (low + high)),
    faceValue(s1, f1, s2, f2, tolerance, 0),
    faceValue(s1, f1, s2, f2, tolerance, width),
  );
}

/**
 * bernoulliGlrReference(countA, positivesA, countB, positivesB, tolerance) computes the
 * same signed statistic as bernoulliGlrKernel the slow, obvious way (both faces by
 * bisection to the last bit, ends compared), for tests. O(400) per face.
 */
export function bernoulliGlrReference(
  countA: number,
  positivesA: number,
  countB: number,
  positivesB: number,
  tolerance: number,
): number {
  const empirical =
    bernoulliMaximumLogLikelihood(positivesA, countA) + bernoulliMaximumLogLikelihood(positivesB, countB);
  const plusFace = faceMaximum(positivesA, countA - positivesA, positivesB, countB - positivesB, tolerance);
  const minusFace = faceMaximum(positivesB, countB - positivesB, positivesA, countA - positivesA, tolerance);
  const gap = positivesB / countB - positivesA / countA;
  if (Math.abs(gap) > tolerance) return empirical - Math.max(plusFace, minusFace);
  return Math.max(plusFace, minusFace) - empirical;
}
