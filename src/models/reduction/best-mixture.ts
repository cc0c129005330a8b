/**
 * bestMixture(errors, moments, bound, tolerance) chooses mixture weights Q over T
 * classifiers (with training errors e_t and constraint moments gamma_t,k) minimising
 *   sum_t Q_t e_t + bound * max(0, max_k sum_t Q_t gamma_t,k - tolerance),
 * the linear program Fairlearn's ExponentiatedGradient solves over the best responses
 * found so far ("run_linprog_step"; Bird et al. 2020, the toolkit paper A cites
 * alongside Agarwal et al. 2018). Under demographic parity with two groups every
 * moment is a multiple of the single group difference Delta(Q), so for a fixed Delta
 * the program has two equality constraints and an optimum mixes at most two
 * classifiers; along each pair the objective is convex and piecewise linear in the
 * mixing weight, so checking its ends and breakpoints finds the exact minimum.
 * Returns weights summing to 1. O(T^2 * K^2).
 */
export function bestMixture(
  errors: readonly number[],
  moments: readonly ArrayLike<number>[],
  bound: number,
  tolerance: number,
): Float64Array {
  const count = errors.length;
  const constraints = moments[0]?.length ?? 0;
  const objective = (s: number, t: number, q: number) => {
    let worst = 0;
    for (let k = 0; k < constraints; k++) {
      worst = Math.max(worst, q * moments[s][k] + (1 - q) * moments[t][k] - tolerance);
    }
    return q * errors[s] + (1 - q) * errors[t] + bound * worst;
  };
  let best = { s: 0, t: 0, q: 1, value: objective(0, 0, 1) };
  const consider = (s: number, t: number, q: number) => {
    if (!(q >= 0 && q <= 1)) return;
    const value = objective(s, t, q);
    if (value < best.value - 1e-15) best = { s, t, q, value };
  };
  for (let s = 0; s < count; s++) {
    consider(s, s, 1);
    for (let t = s + 1; t < count; t++) {
      consider(s, t, 0);
      consider(s, t, 1);
      for (let k = 0; k < constraints; k++) {
        // gamma_k(q) = q a + (1 - q) b: where it meets the tolerance, and where it meets gamma_l.
        const a = moments[s][k];
        const b = moments[t][k];
        if (a !== b) consider(s, t, (tolerance - b) / (a - b));
        for (let l = k + 1; l < constraints; l++) {
          const slope = a - b - (moments[s][l] - moments[t][l]);
          if (slope !== 0) consider(s, t, (moments[t][l] - b) / slope);
        }
      }
    }
  }
  const weights = new Float64Array(count);
  weights[best.s] += best.q;
  weights[best.t] += 1 - best.q;
  return weights;
}
