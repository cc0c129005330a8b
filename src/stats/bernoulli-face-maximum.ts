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
 * The iteration stops once the predicted error left in the maximum of f is below this
 * fraction of the number of observations (f itself is of order n, so this is about a
 * tenth of its last bit).
 */
const LIKELIHOOD_ACCURACY = 1e-17;

/**
 * bernoulliFaceArgmax(s1, f1, s2, f2, tolerance, start) returns the maximiser x of
 * f on [0, 1 - tolerance] by a safeguarded Halley iteration on f' from `start`
 * (a start, as a previous maximiser; anything outside the open interval, as -1, is replaced
 * by a guess made from the counts alone: the moment-matching point, then one Fisher-scoring
 * step), keeping a bracket [a, b] with f'(a) > 0 > f'(b) and bisecting whenever a step
 * leaves it. Interval ends are detected first: when s1 = 0 and f'(0) <= 0 the maximiser
 * is 0; when f2 = 0 and f'(1 - tolerance) >= 0 it is 1 - tolerance. Needs s1 + f1 > 0 and s2 + f2 > 0 and
 * 0 < tolerance < 1. Typically one step from the counts' guess; at most 200.
 */
export function bernoulliFaceArgmax(
  s1: number,
  f1: number,
  s2: number,
  f2: number,
  tolerance: number,
  start: number,
): number {
  scratch[FACE_S1] = s1;
  scratch[FACE_F1] = f1;
  scratch[FACE_S2] = s2;
  scratch[FACE_F2] = f2;
  scratch[FACE_TOLERANCE] = tolerance;
  scratch[FACE_X] = start;
  solveBernoulliFace(scratch);
  return scratch[FACE_X];
}

/**
 * The layout of a face problem held in a Float64Array (see solveBernoulliFace): counts,
 * tolerance, the maximiser (in: a start, or -1 for the counts' own; out: result) and the deficit (out).
 */
export const FACE_S1 = 0;
export const FACE_F1 = 1;
export const FACE_S2 = 2;
export const FACE_F2 = 3;
export const FACE_TOLERANCE = 4;
export const FACE_X = 5;
export const FACE_DEFICIT = 6;
/**
 * The deficit's four logarithms (out): log(s1 / (n1 x)), log(f1 / (n1 (1 - x))), then the same
 * for group 2 at x + tolerance; 0 where the count is 0.
 */
export const FACE_LOG_S1 = 7;
export const FACE_LOG_F1 = 8;
export const FACE_LOG_S2 = 9;
export const FACE_LOG_F2 = 10;
export const FACE_LENGTH = 11;

/** Scratch for the one-off form (module state is per thread; JavaScript runs one call at a time). */
const scratch = new Float64Array(FACE_LENGTH);

/**
 * solveBernoulliFace(face) solves the face problem held in `face` (layout FACE_*: counts
 * s1, f1, s2, f2, the tolerance, and at FACE_X a start, negative for the counts' own): it
 * writes the maximiser to face[FACE_X] (see bernoulliFaceArgmax) and its deficit
 * l(theta_hat) - f(x) to face[FACE_DEFICIT] (see bernoulliFaceDeficit). The streaming
 * form: the solver is too large for V8 to inline, and doubles passed to or returned from
 * a call that is not inlined are boxed on the heap, so only the array crosses the call
 * and a hot loop allocates nothing. O(1).
 */
export function solveBernoulliFace(face: Float64Array): void {
  solveBernoulliFaceArgmax(face);
  writeBernoulliFaceDeficit(face);
}

/**
 * solveBernoulliFaceArgmax(face) is the first half of solveBernoulliFace: it writes the
 * maximiser to face[FACE_X] (from the start there) and leaves face[FACE_DEFICIT]
 * as it was, for a caller that decides from the maximiser whether it needs the deficit. O(1).
 */
export function solveBernoulliFaceArgmax(face: Float64Array): void {
  const s1 = face[FACE_S1];
  const f1 = face[FACE_F1];
  const s2 = face[FACE_S2];
  const f2 = face[FACE_F2];
  const tolerance = face[FACE_TOLERANCE];
  const start = face[FACE_X];
  const width = 1 - tolerance;
  let x = start;
  if (s1 === 0 && -f1 + s2 / tolerance - (f2 > 0 ? f2 / width : 0) <= 0) {
    x = 0;
  } else if (f2 === 0 && (s1 > 0 ? s1 / width : 0) - f1 / tolerance + s2 >= 0) {
    x = width;
  } else {
    let low = 0;
    let high = width;
    if (!(x > 0 && x < width)) {
      // The moment-matching point m = p / n, then one Fisher-scoring step from it: the rates' weighted mean, each
      // group weighted by its count over its Bernoulli variance at m. The variances are taken times n^2, which
      // cancels, so the guess costs one division. From it one Halley step nearly always meets the accuracy below.
      const n1 = s1 + f1;
      const n2 = s2 + f2;
      const n = n1 + n2;
      const p = s1 + s2 - n2 * tolerance;
      x = 0.5 * width;
      if (p > 0 && p < width * n) {
        const v1 = p * (n - p);
        const v2 = (p + tolerance * n) * (width * n - p);
        const scored = (s1 * v2 + (s2 - n2 * tolerance) * v1) / (n1 * v2 + n2 * v1);
        x = scored > 0 && scored < width ? scored : p / n;
      }
    }
    const scale = LIKELIHOOD_ACCURACY * (s1 + f1 + s2 + f2);
    for (let iteration = 0; iteration < 200; iteration++) {
      const inverseA = 1 / x;
      const inverseB = 1 / (1 - x);
      const inverseC = 1 / (x + tolerance);
      const inverseD = 1 / (width - x);
      const termA = s1 * inverseA;
      const termB = f1 * inverseB;
      const termC = s2 * inverseC;
      const termD = f2 * inverseD;
      const slope = termA - termB + termC - termD;
      if (slope > 0) low = x;
      else if (slope < 0) high = x;
      else break;
      const curvatureA = termA * inverseA;
      const curvatureB = termB * inverseB;
      const curvatureC = termC * inverseC;
      const curvatureD = termD * inverseD;
      const curvature = curvatureA + curvatureB + curvatureC + curvatureD;
      // The third derivative of f: 2 (s1/x^3 - f1/(1-x)^3 + s2/(x+t)^3 - f2/(1-t-x)^3).
      const third = 2 * (curvatureA * inverseA - curvatureB * inverseB + curvatureC * inverseC - curvatureD * inverseD);
      // Halley's step (cubic convergence); Newton's if its denominator is not positive.
      const denominator = 2 * curvature * curvature - slope * third;
      const step = denominator > 0 ? (2 * slope * curvature) / denominator : slope / curvature;
      const next = x + step;
      if (next > low && next < high) {
        // After a Halley step h the error in x is about h^3 / w^2 (w: distance to the
        // nearest singularity), so the error in f is about curvature h^6 / (2 w^4).
        const nearest = Math.min(x, width - x);
        const squared = step * step;
        const nearestSquared = nearest * nearest;
        x = next;
        if (curvature * squared * squared * squared <= scale * nearestSquared * nearestSquared) break;
      } else {
        const middle = 0.5 * (low + high);
        if (middle === low || middle === high) break;
        x = middle;
      }
    }
  }
  face[FACE_X] = x;
}

/**
 * writeBernoulliFaceDeficit(face) writes to face[FACE_DEFICIT] the deficit of the point
 * at face[FACE_X] (the second half of solveBernoulliFace; four logarithms, kept at
 * FACE_LOG_*). O(1).
 */
export function writeBernoulliFaceDeficit(face: Float64Array): void {
  const s1 = face[FACE_S1];
  const f1 = face[FACE_F1];
  const s2 = face[FACE_S2];
  const f2 = face[FACE_F2];
  const tolerance = face[FACE_TOLERANCE];
  const x = face[FACE_X];
  // The deficit as in bernoulliFaceDeficit, written out so that no double crosses a call.
  const n1 = s1 + f1;
  const n2 = s2 + f2;
  let deficit = 0;
  let logS1 = 0;
  let logF1 = 0;
  let logS2 = 0;
  let logF2 = 0;
  if (s1 > 0) {
    logS1 = Math.log(s1 / (n1 * x));
    deficit += s1 * logS1;
  }
  if (f1 > 0) {
    logF1 = Math.log(f1 / (n1 * (1 - x)));
    deficit += f1 * logF1;
  }
  if (s2 > 0) {
    logS2 = Math.log(s2 / (n2 * (x + tolerance)));
    deficit += s2 * logS2;
  }
  if (f2 > 0) {
    logF2 = Math.log(f2 / (n2 * (1 - tolerance - x)));
    deficit += f2 * logF2;
  }
  face[FACE_DEFICIT] = deficit;
  face[FACE_LOG_S1] = logS1;
  face[FACE_LOG_F1] = logF1;
  face[FACE_LOG_S2] = logS2;
  face[FACE_LOG_F2] = logF2;
}

/**
 * bernoulliFaceDeficit(s1, f1, s2, f2, tolerance, x) is l(theta_hat) - f(x): the
 * log-likelihood lost by moving from the empirical rates to the face point
 * (x, x + tolerance), written as a sum of Kullback-Leibler terms
 *   s log(s / (n theta)) + f log(f / (n (1 - theta)))   for each group,
 * which needs four logarithms in all (none for the empirical rates) and keeps its
 * precision when the deficit is small. 0 log 0 = 0. O(1).
 */
export function bernoulliFaceDeficit(
  s1: number,
  f1: number,
  s2: number,
  f2: number,
  tolerance: number,
  x: number,
): number {
  const n1 = s1 + f1;
  const n2 = s2 + f2;
  let value = 0;
  if (s1 > 0) value += s1 * Math.log(s1 / (n1 * x));
  if (f1 > 0) value += f1 * Math.log(f1 / (n1 * (1 - x)));
  if (s2 > 0) value += s2 * Math.log(s2 / (n2 * (x + tolerance)));
  if (f2 > 0) value += f2 * Math.log(f2 / (n2 * (1 - tolerance - x)));
  return value;
}
