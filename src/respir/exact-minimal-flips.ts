import { countGapExceedsTolerance } from '../stats/count-gap-comparison.js';
import { inputError } from '../util/errors.js';
import { validateCandidatePopulation } from './candidate-population.js';
import {
  type AuditOutcomeProbabilities,
  type BoundedProbability,
  createPassProbabilityEvaluator,
  type ExactAuditSetting,
  type PassProbabilityEvaluator,
} from './exact-pass-probability.js';
import {
  boundFromBindingSide,
  CLIMB_STEPS,
  certifyRectangles,
  climb,
  MinimalFlipsSearch,
  outcomeAt,
  type Point,
  ridgeSearch,
} from './minimal-flips-search.js';

/** What the exact minimum is asked for: the audit, C's positives before manipulation, and 1 − δ. */
export interface ExactMinimalFlipsSetting extends ExactAuditSetting {
  /** 1 − δ: the pass probability the provider wants. */
  passProbability: number;
}

/** Tuning of the search; the defaults suit paper B's sizes. */
export interface ExactMinimalFlipsOptions {
  /** Tail bound of every hypergeometric window (default 1e-13). */
  tailBound?: number;
  /**
   * Evaluations of the pass probability after which the search stops and reports a
   * bracket [lowerBound, upperBound] instead of the exact minimum (default 4000).
   */
  maxEvaluations?: number;
}

/** The provider's cheapest way to pass an oblivious audit with probability ≥ 1 − δ. */
export interface ExactMinimalFlips {
  /** The minimum number of output flips on C's metric rows; null when not certified or unreachable. */
  flips: number | null;
  /** Certified: every manipulation with fewer flips passes with probability < 1 − δ. Null when unreachable. */
  lowerBound: number | null;
  /** Certified: a manipulation with this many flips passes with probability ≥ 1 − δ. Null when unreachable. */
  upperBound: number | null;
  /** lowerBound === upperBound. */
  exact: boolean;
  /** False when no manipulation reaches 1 − δ (a group is too often absent from S). */
  reachable: boolean;
  /** |d_C| ≤ ε already (compared exactly on counts): nothing to hide, 0 flips. */
  withinTolerance: boolean;
  /** C's positives per group before manipulation, P₀ and P₁. */
  originalPositives: [number, number];
  /** The strongest adversary's positives after its upperBound flips, P₀' and P₁'. */
  positives: [number, number];
  /** P₀' − P₀ and P₁' − P₁: net flips per group (positive: 0→1 flips). */
  changes: [number, number];
  /** The exact pass probability at `positives`, with its enclosure. */
  passProbability: BoundedProbability;
  /** The pass probability without manipulation. */
  honestPassProbability: BoundedProbability;
  /**
   * P(both groups have a metric row in S): what making all outputs equal reaches, the
   * most any manipulation can (undefined when |d_C| ≤ ε, where it is not computed).
   */
  maximumPassProbability?: BoundedProbability;
  /** Pass probabilities computed. */
  evaluations: number;
}

/**
 * exactMinimalFlipsWithEvaluator(evaluator, positives, passProbability, maxEvaluations)
 * is exactMinimalFlips on a prepared evaluator (the same audit, several candidate sets
 * or targets); see exactMinimalFlips for the method, whose steps are the functions of
 * minimal-flips-search.ts over one MinimalFlipsSearch. Inputs are trusted.
 */
export function exactMinimalFlipsWithEvaluator(
  evaluator: PassProbabilityEvaluator,
  positives: readonly [number, number],
  passProbability: number,
  maxEvaluations = 4000,
): ExactMinimalFlips {
  const { population, tolerance } = evaluator.setting;
  const [eligible0, eligible1] = population.eligibleSizes;
  const [start0, start1] = positives;
  const startEvaluations = evaluator.evaluations;
  const computed = new Map<number, AuditOutcomeProbabilities>();
  const honest = outcomeAt(evaluator, computed, start0, start1).pass;
  const result = (fields: Partial<ExactMinimalFlips>, point: Point = { u: start0, v: start1 }): ExactMinimalFlips => ({
    flips: null,
    lowerBound: null,
    upperBound: null,
    exact: false,
    reachable: true,
    withinTolerance: false,
    originalPositives: [start0, start1],
    positives: [point.u, point.v],
    changes: [point.u - start0, point.v - start1],
    passProbability: outcomeAt(evaluator, computed, point.u, point.v).pass,
    honestPassProbability: honest,
    ...fields,
    evaluations: evaluator.evaluations - startEvaluations,
  });
  if (!countGapExceedsTolerance(eligible0, start0, eligible1, start1, tolerance)) {
    return result({ flips: 0, lowerBound: 0, upperBound: 0, exact: true, withinTolerance: true });
  }
  // All outputs equal (every 1 flipped to 0, or every 0 to 1) makes d_S = 0 on every S:
  // the best any manipulation can do is P(both groups have a metric row in S).
  const search = new MinimalFlipsSearch(
    evaluator,
    positives,
    passProbability,
    maxEvaluations,
    computed,
    startEvaluations,
  );
  const maximumPassProbability = search.allZero;
  if (honest.lower >= passProbability)
    return result({ flips: 0, lowerBound: 0, upperBound: 0, exact: true, maximumPassProbability });
  if (maximumPassProbability.lower < passProbability) return result({ reachable: false, maximumPassProbability });
  // Upper bound: the cheaper all-equal corner passes (the all-zero one was checked above;
  // the all-one corner has the same law by symmetry). 1. The lower bound from the binding side.
  boundFromBindingSide(search);
  // 2. The nearest points of S_A usually pass (there P(d_S < −ε) is negligible): then the
  // bound is attained and the minimum is certified.
  for (const tie of search.ties) search.consider(tie.u, tie.v);
  if (search.upper !== search.lower) {
    // 3. Otherwise both sides bind (ε small against the sampling noise): the adversary
    // also lowers the variance by moving both rates toward 0 or 1. A passing point lies in
    // the band {A ≥ 1 − δ} ∩ {B ≥ 1 − δ}; its distance is a sharper certified bound. Then
    // search for a passing point toward the corners, descend ring by ring, and certify
    // rings from the bound up while the budget lasts.
    climb(search);
    if (search.upper > search.lower + CLIMB_STEPS) ridgeSearch(search);
    if (search.upper > search.lower) certifyRectangles(search);
  }
  const exact = search.lower === search.upper;
  return result(
    {
      flips: exact ? search.upper : null,
      lowerBound: search.lower,
      upperBound: search.upper,
      exact,
      maximumPassProbability,
    },
    search.toOriginal(search.best.u, search.best.v),
  );
}

/**
 * exactMinimalFlips(setting, options) is the fewest output flips on C's metric rows with
 * which a provider passes paper B's oblivious audit (S ⊂ C drawn as `design` says,
 * unseen by the provider; pass iff both groups are in S and |d_S| ≤ ε, compared exactly
 * on counts) with probability at least 1 − δ, against the strongest adversary: any
 * (P₀', P₁') with |P₀' − P₀| + |P₁' − P₁| flips, in either group and either direction,
 * chosen to maximise the pass probability. Proposition 1 and Theorems 1-4 are
 * sufficient conditions; this is the exact cost they bound.
 *
 * Method. The pass probability π(P₀', P₁') is computed exactly (createPassProbabilityEvaluator:
 * hypergeometric sums with provable tail bounds, enclosure ±(dropped mass + 1e-10); a
 * point counts as passing only when its lower end reaches 1 − δ, as failing only when
 * its upper end falls short). π ≤ A = P(d_S ≤ ε) and π ≤ B = P(d_S ≥ −ε), and A, B are
 * monotone in each coordinate (hypergeometric counts are stochastically increasing in
 * the positives). So the ℓ1 distance to {A ≥ 1 − δ} is a certified lower bound; it is
 * found by branch and bound over P₁' with bisection over P₀'. When one of its nearest
 * points passes, that is the minimum (the usual case: B ≈ 1 there). Otherwise a
 * search along the line toward the all-0 and all-1 corners (both rates toward an
 * extreme: less sampling variance) gives a passing point (upper bound), and rings of
 * growing ℓ1 radius inside {A ≥ 1 − δ} ∩ {B ≥ 1 − δ} are checked point by point (lower
 * bound) until they meet or `maxEvaluations` is spent: then the result is the certified
 * bracket [lowerBound, upperBound] with flips = null. |d_C| ≤ ε gives 0 flips
 * (withinTolerance). When even all outputs equal passes with probability below 1 − δ
 * (groups too often missing from S), reachable is false.
 *
 * Cost: the bound of step 1 takes O(log² N) evaluations in practice, each
 * O(Σ x₀-window sizes) (≈ 2·10⁵ steps at N = 13,500, n = 6,750). Throws InputError
 * on a bad setting (validateExactMinimalFlipsSetting).
 * @param setting the candidate population, |S|, the design, ε and 1 − δ
 * @param options the tail bound and the evaluation budget
 * @returns the minimal flips (or a certified bracket) and the pass probabilities
 * @example
 * const result = exactMinimalFlips({ population, auditSetSize: 500, design: 'uniform', tolerance: 0.05,
 * passProbability: 0.8 });
 */
export function exactMinimalFlips(
  setting: ExactMinimalFlipsSetting,
  options: ExactMinimalFlipsOptions = {},
): ExactMinimalFlips {
  validateExactMinimalFlipsSetting(setting, options);
  const evaluator = createPassProbabilityEvaluator(setting, options.tailBound);
  return exactMinimalFlipsWithEvaluator(
    evaluator,
    [setting.population.eligiblePositives[0], setting.population.eligiblePositives[1]],
    setting.passProbability,
    options.maxEvaluations,
  );
}

/**
 * validateExactMinimalFlipsSetting(setting, options, where) throws an InputError naming
 * the setting unless: C has both groups with metric rows (validateCandidatePopulation),
 * 2 ≤ n ≤ N, the design is uniform, proportional or balanced, 0 ≤ ε finite, 1 − δ in
 * (0, 1), the tail bound in (0, 1e-6] and maxEvaluations a positive integer. O(1).
 */
export function validateExactMinimalFlipsSetting(
  setting: ExactMinimalFlipsSetting,
  options: ExactMinimalFlipsOptions = {},
  where = 'exactMinimalFlips',
): void {
  validateCandidatePopulation(setting.population, `${where}: population`);
  const total = setting.population.groupSizes[0] + setting.population.groupSizes[1];
  if (!Number.isInteger(setting.auditSetSize) || setting.auditSetSize < 2 || setting.auditSetSize > total) {
    throw inputError({
      where: `${where}: auditSetSize`,
      expected: `an integer from 2 to the candidate set size ${total}`,
      found: setting.auditSetSize,
    });
  }
  if (!['uniform', 'proportional', 'balanced'].includes(setting.design)) {
    throw inputError({
      where: `${where}: design`,
      expected: 'uniform, proportional or balanced',
      found: setting.design,
    });
  }
  if (!(Number.isFinite(setting.tolerance) && setting.tolerance >= 0)) {
    throw inputError({ where: `${where}: tolerance`, expected: 'a finite tolerance ≥ 0', found: setting.tolerance });
  }
  if (!(setting.passProbability > 0 && setting.passProbability < 1)) {
    throw inputError({
      where: `${where}: passProbability`,
      expected: 'a probability strictly between 0 and 1',
      found: setting.passProbability,
    });
  }
  if (options.tailBound !== undefined && !(options.tailBound > 0 && options.tailBound <= 1e-6)) {
    throw inputError({ where: `${where}: tailBound`, expected: 'a tail bound in (0, 1e-6]', found: options.tailBound });
  }
  if (
    options.maxEvaluations !== undefined &&
    !(Number.isInteger(options.maxEvaluations) && options.maxEvaluations >= 1)
  ) {
    throw inputError({
      where: `${where}: maxEvaluations`,
      expected: 'a positive integer',
      found: options.maxEvaluations,
    });
  }
}
