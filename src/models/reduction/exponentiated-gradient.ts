import { inputError } from '../../util/errors.js';
import { bestMixture } from './best-mixture.js';
import {
  costSensitiveProblem,
  DEMOGRAPHIC_PARITY_CONSTRAINTS,
  demographicParityMoments,
  groupCounts,
} from './demographic-parity-moments.js';

/** Settings of the exponentiated-gradient reduction under demographic parity. */
export interface ExponentiatedGradientSettings {
  /**
   * epsilon: the bound on each constraint |E[h | A = a] - E[h]| (Fairlearn's
   * DemographicParity(difference_bound), default 0.01 there; paper A's presets use 0.01).
   */
  readonly differenceBound: number;
  /** The most best responses to compute (paper A: 10 Robust-DP, 2 Unstable-DP). */
  readonly maxIterations: number;
  /** B, the bound on the multipliers' l1 norm; default 1 / differenceBound (Agarwal et al.); Fairlearn's is 1 / eps. */
  readonly multiplierBound?: number;
  /** eta, the step of the theta updates; default 2 / B. */
  readonly stepSize?: number;
  /** Stop before maxIterations (but not before 5 iterations) once the duality gap estimate is at most this. */
  readonly gapTolerance?: number;
  /**
   * How the returned mixture weighs the best responses: 'average' (Algorithm 1's
   * Q-hat, the uniform average; the default) or 'linear-program' (Fairlearn's LP step
   * over the best responses found: bestMixture).
   */
  readonly mixture?: 'average' | 'linear-program';
}

/** One best response: the trained model and its 0/1 decisions on the training rows. */
export interface BestResponse<Model> {
  readonly model: Model;
  readonly trainingDecisions: Uint8Array;
}

/** What the reduction returns: the mixture Q over `models` and its trace. */
export interface ExponentiatedGradientResult<Model> {
  /** h_1 .. h_T, the best responses. */
  readonly models: Model[];
  /** Q's weight on each model (1 / T each for 'average'). */
  readonly weights: Float64Array;
  /** Mixture probability of a positive decision on each training row. */
  readonly trainingProbability: Float64Array;
  /** Per iteration: the multipliers lambda_t (4 each), the error and moments of h_t, the gap estimate. */
  readonly trace: Array<{ multipliers: number[]; error: number; moments: number[]; gap: number }>;
}

/**
 * exponentiatedGradient(label, group, settings, fitBestResponse) runs Algorithm 1
 * of Agarwal, Beygelzimer, Dudik, Langford and Wallach (2018), "A Reductions
 * Approach to Fair Classification", under demographic parity:
 *   theta_1 = 0; for t = 1, 2, ...:
 *     lambda_t,k = B exp(theta_k) / (1 + sum_k' exp(theta_k'))
 *     h_t = BEST_h(lambda_t)  (fitBestResponse on the cost-sensitive problem)
 *     Q_t = uniform mixture of h_1..h_t, lambdaBar_t = mean of lambda_1..lambda_t
 *     stop when the duality gap estimate is at most gapTolerance (t >= 5)
 *     theta_(t+1) = theta_t + eta (gamma(h_t) - epsilon)
 * With mixture 'linear-program' the returned weights instead solve Fairlearn's LP
 * over h_1..h_T (bestMixture). The gap estimate is the paper's nu_t, with min over h taken over the best
 * responses found so far (no extra oracle call). fitBestResponse(label, weight,
 * iteration) must train a classifier on the reduced labels with the given sample
 * weights. Runs maxIterations oracle calls at most, plus O(T * rows) bookkeeping.
 * Throws InputError for a differenceBound outside (0, 1), a multiplierBound that is not
 * positive, or fewer than one iteration.
 */
export function exponentiatedGradient<Model>(
  label: Uint8Array,
  group: Uint8Array,
  settings: ExponentiatedGradientSettings,
  fitBestResponse: (label: Uint8Array, weight: Float64Array, iteration: number) => BestResponse<Model>,
): ExponentiatedGradientResult<Model> {
  const epsilon = settings.differenceBound;
  if (!(epsilon > 0 && epsilon < 1)) {
    throw inputError({
      where: 'exponentiatedGradient: differenceBound',
      expected: 'a number in (0, 1)',
      found: epsilon,
    });
  }
  if (
    settings.multiplierBound !== undefined &&
    !(settings.multiplierBound > 0 && Number.isFinite(settings.multiplierBound))
  ) {
    throw inputError({
      where: 'exponentiatedGradient: multiplierBound',
      expected: 'a positive number',
      found: settings.multiplierBound,
    });
  }
  if (!(Number.isInteger(settings.maxIterations) && settings.maxIterations >= 1)) {
    throw inputError({
      where: 'exponentiatedGradient: maxIterations',
      expected: 'an integer >= 1',
      found: settings.maxIterations,
    });
  }
  const bound = settings.multiplierBound ?? 1 / epsilon;
  const eta = settings.stepSize ?? 2 / bound;
  const gapTolerance = settings.gapTolerance ?? 0;
  const counts = groupCounts(group);
  const n = counts.total;
  const theta = new Float64Array(DEMOGRAPHIC_PARITY_CONSTRAINTS);
  const multiplierSum = new Float64Array(DEMOGRAPHIC_PARITY_CONSTRAINTS);
  const decisionsOf: Uint8Array[] = [];
  const models: Model[] = [];
  const errors: number[] = [];
  const momentsOf: Float64Array[] = [];
  const trace: ExponentiatedGradientResult<Model>['trace'] = [];
  const lagrangian = (error: number, moments: ArrayLike<number>, multipliers: ArrayLike<number>) => {
    let value = error;
    for (let k = 0; k < DEMOGRAPHIC_PARITY_CONSTRAINTS; k++) value += multipliers[k] * (moments[k] - epsilon);
    return value;
  };
  for (let t = 1; t <= settings.maxIterations; t++) {
    let exponentSum = 1;
    for (let k = 0; k < theta.length; k++) exponentSum += Math.exp(theta[k]);
    const multipliers = new Float64Array(DEMOGRAPHIC_PARITY_CONSTRAINTS);
    for (let k = 0; k < theta.length; k++) {
      multipliers[k] = (bound * Math.exp(theta[k])) / exponentSum;
      multiplierSum[k] += multipliers[k];
    }
    const problem = costSensitiveProblem(label, group, counts, multipliers);
    const response = fitBestResponse(problem.label, problem.weight, t);
    const decisions = response.trainingDecisions;
    let mistakes = 0;
    for (let i = 0; i < n; i++) if (decisions[i] !== label[i]) mistakes++;
    decisionsOf.push(decisions);
    const error = mistakes / n;
    const moments = demographicParityMoments(decisions, group, counts);
    models.push(response.model);
    errors.push(error);
    momentsOf.push(moments);

    // Duality gap of (Q_t, lambdaBar_t): the lambda player's and the h player's regrets.
    const averageMultipliers = multiplierSum.map((sum) => sum / t);
    const mixtureError = errors.reduce((sum, e) => sum + e, 0) / t;
    const mixtureMoments = new Float64Array(DEMOGRAPHIC_PARITY_CONSTRAINTS);
    for (const m of momentsOf) for (let k = 0; k < m.length; k++) mixtureMoments[k] += m[k] / t;
    const atAverage = lagrangian(mixtureError, mixtureMoments, averageMultipliers);
    let worstViolation = 0;
    for (let k = 0; k < mixtureMoments.length; k++)
      worstViolation = Math.max(worstViolation, mixtureMoments[k] - epsilon);
    const bestForLambda = mixtureError + bound * worstViolation;
    let bestForH = Number.POSITIVE_INFINITY;
    for (let s = 0; s < t; s++) bestForH = Math.min(bestForH, lagrangian(errors[s], momentsOf[s], averageMultipliers));
    const gap = Math.max(bestForLambda - atAverage, atAverage - bestForH);
    trace.push({ multipliers: Array.from(multipliers), error, moments: Array.from(moments), gap });
    if (t >= 5 && gap <= gapTolerance) break;
    for (let k = 0; k < theta.length; k++) theta[k] += eta * (moments[k] - epsilon);
  }
  const weights =
    settings.mixture === 'linear-program'
      ? bestMixture(errors, momentsOf, bound, epsilon)
      : new Float64Array(models.length).fill(1 / models.length);
  const trainingProbability = new Float64Array(n);
  decisionsOf.forEach((decisions, t) => {
    if (weights[t] === 0) return;
    for (let i = 0; i < n; i++) trainingProbability[i] += weights[t] * decisions[i];
  });
  return { models, weights, trainingProbability, trace };
}
