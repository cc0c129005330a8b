/**
 * The one-dimensional boundary problem of paper A appendix A (eq. 27-30), written for
 * the face theta_2 = theta_1 + tolerance; the other face is the same problem with the
 * groups swapped. With x = theta_1 on [0, 1 - tolerance] the log-likelihood is
 *   f(x) = s1 log x + f1 log(1 - x) + s2 log(x + tolerance) + f2 log(1 - tolerance - x)
 * (s = successes, f = failures of each group; 0 log 0 = 0), strictly concave, so its
 * maximiser is an interval end or the single root of the decreasing derivative
 *   f'(x) = s1/x - f1/(1 - x) + s2/(x + tolerance) - f2/(1 - tolerance - x)   (eq. 30).
 * These are kernels: plain numbers in, no validation, no allocation.
 */

/**
 * The largest relative ratio between a Newton step and the distance to the nearest
 * singularity below which the last step is taken as final. After a step h the error in
 * x is at most h^2 / w (w = distance to the nearest singularity) and the error in f is
 * at most |f''| (h^2/w)^2 / 2; the stopping rule keeps that below 1e-17 of n.
 */
const LIKELIHOOD_ACCURACY = 1e-17;

/**
 * bernoulliFaceArgmax(s1, f1, s2, f2, tolerance, start) returns the maximiser x of
 * f on [0, 1 - tolerance] by a safeguarded Newton iteration on f' from `start`
 * (a warm start: the previous update's maximiser; anything outside the open interval
 * is replaced by a moment-matching guess), keeping a bracket [a, b] with f'(a) > 0 >
 * f'(b) and bisecting whenever a Newton step leaves it. Interval ends are detected
 * first: when s1 = 0 and f'(0) <= 0 the maximiser is 0; when f2 = 0 and
 * f'(1 - tolerance) >= 0 it is 1 - tolerance. Needs s1 + f1 > 0 and s2 + f2 > 0 and
 * 0 < tolerance < 1. Typically one or two steps from a warm start; at most 200.
 */
export function bernoulliFaceArgmax(
  s1: number,
  f1: number,
  s2: number,
  f2: number,
  tolerance: number,
  start: number,
): number {
  const width = 1 - tolerance;
  if (s1 === 0 && -f1 + s2 / tolerance - (f2 > 0 ? f2 / width : 0) <= 0) return 0;
  if (f2 === 0 && (s1 > 0 ? s1 / width : 0) - f1 / tolerance + s2 >= 0) return width;
  let low = 0;
  let high = width;
  let x = start;
  if (!(x > 0 && x < width)) {
    const n1 = s1 + f1;
    const n2 = s2 + f2;
    x = (s1 + s2 - n2 * tolerance) / (n1 + n2);
    if (!(x > 0 && x < width)) x = 0.5 * width;
  }
  const scale = LIKELIHOOD_ACCURACY * (s1 + f1 + s2 + f2);
  for (let iteration = 0; iteration < 200; iteration++) {
    const inverseA = 1 / x;
    const inverseB = 1 / (1 - x);
    const inverseC = 1 / (x + tolerance);
    const inverseD = 1 / (width - x);
    const slope = s1 * inverseA - f1 * inverseB + s2 * inverseC - f2 * inverseD;
    const curvature =
      s1 * inverseA * inverseA + f1 * inverseB * inverseB + s2 * inverseC * inverseC + f2 * inverseD * inverseD;
    if (slope > 0) low = x;
    else if (slope < 0) high = x;
    else return x;
    const step = slope / curvature;
    const next = x + step;
    if (next > low && next < high) {
      const nearest = Math.min(x, width - x);
      const squared = step * step;
      x = next;
      if (curvature * squared * squared <= scale * nearest * nearest) return x;
    } else {
      const middle = 0.5 * (low + high);
      if (middle === low || middle === high) return x;
      x = middle;
    }
  }
  return x;
}

/**
 * bernoulliFaceLogLikelihood(s1, f1, s2, f2, tolerance, x) is f(x) with 0 log 0 = 0
 * (a term whose count is 0 is skipped, so the interval ends are finite). O(1).
 */
export function bernoulliFaceLogLikelihood(
  s1: number,
  f1: number,
  s2: number,
  f2: number,
  tolerance: number,
  x: number,
): number {
  let value = 0;
  if (s1 > 0) value += s1 * Math.log(x);
  if (f1 > 0) value += f1 * Math.log(1 - x);
  if (s2 > 0) value += s2 * Math.log(x + tolerance);
  if (f2 > 0) value += f2 * Math.log(1 - tolerance - x);
  return value;
}
