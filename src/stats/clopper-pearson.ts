import { regularizedIncompleteBeta } from './regularized-incomplete-beta.js';

/** P(Bin(trials, p) <= successes). */
function binomialAtMost(successes: number, trials: number, p: number): number {
  if (successes >= trials) return 1;
  return regularizedIncompleteBeta(1 - p, trials - successes, successes + 1);
}

/**
 * clopperPearsonUpper(successes, trials, confidence) is the one-sided Clopper-Pearson
 * upper confidence bound for a binomial probability: the p with P(Bin(trials, p) <=
 * successes) = 1 - confidence (1 when successes = trials), i.e. the `confidence` quantile of
 * Beta(successes + 1, trials - successes) (Clopper & Pearson 1934; scipy.stats.beta.ppf).
 * Exact coverage >= confidence for every p. Bisection to 1e-15, O(60 incomplete-beta
 * evaluations). Kernel: no validation (integers 0 <= successes <= trials, trials >= 1,
 * confidence in (0, 1)).
 * @param successes observed successes, 0 to trials
 * @param trials the trials, at least 1
 * @param confidence the one-sided confidence, in (0, 1)
 * @returns the exact upper confidence bound of the success probability
 * @example
 * clopperPearsonUpper(5, 100, 0.975); // about 0.113
 */
export function clopperPearsonUpper(successes: number, trials: number, confidence: number): number {
  if (successes >= trials) return 1;
  const target = 1 - confidence;
  let low = successes / trials;
  let high = 1;
  for (let i = 0; i < 200 && high - low > 1e-15; i++) {
    const middle = 0.5 * (low + high);
    if (binomialAtMost(successes, trials, middle) > target) low = middle;
    else high = middle;
  }
  return high;
}

/**
 * clopperPearsonLower(successes, trials, confidence) is the one-sided lower bound: the p
 * with P(Bin(trials, p) >= successes) = 1 - confidence (0 when successes = 0). Same method.
 * @param successes observed successes, 0 to trials
 * @param trials the trials, at least 1
 * @param confidence the one-sided confidence, in (0, 1)
 * @returns the exact lower confidence bound of the success probability
 * @example
 * clopperPearsonLower(5, 100, 0.975); // about 0.0164
 */
export function clopperPearsonLower(successes: number, trials: number, confidence: number): number {
  if (successes <= 0) return 0;
  return 1 - clopperPearsonUpper(trials - successes, trials, confidence);
}

/**
 * largestCountBelow(trials, limit, confidence) is the largest number of successes whose
 * Clopper-Pearson upper bound at `confidence` is <= limit (-1 when even 0 successes give a
 * larger bound): an error rate estimated from `trials` runs is certified at most `limit`
 * exactly when its count is at most this. Binary search, O(log trials) bounds.
 */
export function largestCountBelow(trials: number, limit: number, confidence: number): number {
  if (clopperPearsonUpper(0, trials, confidence) > limit) return -1;
  let low = 0;
  let high = trials;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (clopperPearsonUpper(middle, trials, confidence) <= limit) low = middle;
    else high = middle - 1;
  }
  return low;
}
