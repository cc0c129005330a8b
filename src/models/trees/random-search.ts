import { createRandom, deriveSeed, type Random, shuffleInPlace } from '../../util/random.js';
import {
  boostedLogits,
  type FeatureMatrix,
  fitGradientBoosting,
  type GradientBoostingModel,
  type GradientBoostingSettings,
} from './gradient-boosting.js';

/** The hyperparameters the search tunes (paper B section 5). */
export interface TunedHyperparameters {
  readonly learningRate: number;
  readonly maxLeafNodes: number;
  readonly maxIterations: number;
}

/**
 * Where the search draws from: learning rate log-uniform on [low, high], max leaf
 * nodes and iterations uniform integers on [low, high) (scipy's loguniform and
 * randint conventions).
 */
export interface SearchSpace {
  readonly learningRate: readonly [number, number];
  readonly maxLeafNodes: readonly [number, number];
  readonly maxIterations: readonly [number, number];
}

/** drawCandidates(random, draws, space) draws `draws` hyperparameter settings. O(draws). */
export function drawCandidates(random: Random, draws: number, space: SearchSpace): TunedHyperparameters[] {
  const candidates: TunedHyperparameters[] = [];
  const [lowRate, highRate] = space.learningRate;
  for (let k = 0; k < draws; k++) {
    const learningRate = Math.exp(Math.log(lowRate) + random() * (Math.log(highRate) - Math.log(lowRate)));
    const maxLeafNodes = space.maxLeafNodes[0] + Math.floor(random() * (space.maxLeafNodes[1] - space.maxLeafNodes[0]));
    const maxIterations =
      space.maxIterations[0] + Math.floor(random() * (space.maxIterations[1] - space.maxIterations[0]));
    candidates.push({ learningRate, maxLeafNodes, maxIterations });
  }
  return candidates;
}

/**
 * stratifiedFolds(label, rows, folds, random) deals the rows into `folds` parts with
 * (up to one row) the same label balance: each class is shuffled with `random` and
 * dealt round-robin. Returns each fold's rows, ascending. O(rows log rows).
 */
export function stratifiedFolds(label: Uint8Array, rows: Int32Array, folds: number, random: Random): Int32Array[] {
  const parts: number[][] = Array.from({ length: folds }, () => []);
  let next = 0;
  for (const value of [0, 1]) {
    const members: number[] = [];
    for (let i = 0; i < rows.length; i++) if (label[rows[i]] === value) members.push(rows[i]);
    shuffleInPlace(random, members);
    for (const row of members) {
      parts[next].push(row);
      next = (next + 1) % folds;
    }
  }
  return parts.map((part) => Int32Array.from(part.sort((x, y) => x - y)));
}

/** accuracyOf(logits, label, rows): the share of rows where [logit >= 0] equals the label. */
function accuracyOf(logits: Float64Array, label: Uint8Array, rows: Int32Array): number {
  let correct = 0;
  for (let i = 0; i < rows.length; i++) if ((logits[i] >= 0 ? 1 : 0) === label[rows[i]]) correct++;
  return correct / Math.max(1, rows.length);
}

/** One candidate's cross-validated accuracy. */
export interface CandidateScore {
  readonly hyperparameters: TunedHyperparameters;
  readonly foldAccuracies: number[];
  readonly meanAccuracy: number;
  /** Trees actually grown per fold (early stopping may stop before maxIterations). */
  readonly foldIterations: number[];
}

/** What randomSearch returns: every candidate's score, the winner, the refitted model. */
export interface RandomSearchResult {
  readonly candidates: CandidateScore[];
  readonly best: CandidateScore;
  readonly model: GradientBoostingModel;
}

export interface RandomSearchSettings {
  readonly draws: number;
  readonly folds: number;
  readonly space: SearchSpace;
  /** Everything not tuned (min leaf size, L2, bins, early stopping). */
  readonly base: GradientBoostingSettings;
}

/** One (draw, fold) fit of a search: what it trains on and how it is seeded. */
export interface FoldFit {
  readonly hyperparameters: TunedHyperparameters;
  readonly draw: number;
  readonly fold: number;
  readonly fitRows: Int32Array;
  readonly heldRows: Int32Array;
}

/**
 * scoreFoldFit(data, label, base, seed, fit) fits boosted trees with the fit's
 * hyperparameters on its fitRows and returns the accuracy on its heldRows and the
 * number of trees grown. Its random source derives from (seed, draw, fold), so the
 * result does not depend on which thread runs it.
 */
export function scoreFoldFit(
  data: FeatureMatrix,
  label: Uint8Array,
  base: GradientBoostingSettings,
  seed: string,
  fit: FoldFit,
): { accuracy: number; iterations: number } {
  const model = fitGradientBoosting(
    data,
    label,
    fit.fitRows,
    { ...base, ...fit.hyperparameters },
    createRandom(deriveSeed(seed, 'fit', fit.draw, fit.fold)),
  );
  return {
    accuracy: accuracyOf(boostedLogits(model, data, fit.heldRows), label, fit.heldRows),
    iterations: model.trees.length,
  };
}

/** Runs a search's fold fits, possibly on several threads; results in the fits' order. */
export type FoldFitRunner = (
  fits: readonly FoldFit[],
  onDone: () => void,
) => Promise<Array<{ accuracy: number; iterations: number }>>;

/**
 * randomSearch(data, label, rows, settings, seed, onProgress, runFits) tunes boosted
 * trees as scikit-learn's RandomizedSearchCV does: draws `draws` hyperparameter
 * settings, scores each by the mean accuracy over `folds` stratified folds (fit on
 * the other folds, score on the held-out one), then refits the best (ties: the
 * earlier draw) on all rows. All randomness derives from `seed`; `runFits` (default:
 * one after the other in this thread) may spread the draws * folds fits over worker
 * threads without changing the result. Runs draws * folds + 1 fits.
 */
export async function randomSearch(
  data: FeatureMatrix,
  label: Uint8Array,
  rows: Int32Array,
  settings: RandomSearchSettings,
  seed: string,
  onProgress?: (done: number, total: number) => void,
  runFits?: FoldFitRunner,
): Promise<RandomSearchResult> {
  const candidates = drawCandidates(createRandom(deriveSeed(seed, 'candidates')), settings.draws, settings.space);
  const folds = stratifiedFolds(label, rows, settings.folds, createRandom(deriveSeed(seed, 'folds')));
  const total = settings.draws * settings.folds + 1;
  let done = 0;
  const fitRowsOf = folds.map((held) => {
    const heldSet = new Set(held);
    return Int32Array.from(Array.from(rows).filter((row) => !heldSet.has(row)));
  });
  const fits: FoldFit[] = [];
  candidates.forEach((hyperparameters, draw) => {
    folds.forEach((heldRows, fold) => {
      fits.push({ hyperparameters, draw, fold, fitRows: fitRowsOf[fold], heldRows });
    });
  });
  const progress = () => onProgress?.(++done, total);
  const outcomes = runFits
    ? await runFits(fits, progress)
    : fits.map((fit) => {
        const outcome = scoreFoldFit(data, label, settings.base, seed, fit);
        progress();
        return outcome;
      });
  const scores: CandidateScore[] = candidates.map((hyperparameters, draw) => {
    const mine = outcomes.slice(draw * settings.folds, (draw + 1) * settings.folds);
    const foldAccuracies = mine.map((outcome) => outcome.accuracy);
    const foldIterations = mine.map((outcome) => outcome.iterations);
    const meanAccuracy = foldAccuracies.reduce((sum, a) => sum + a, 0) / foldAccuracies.length;
    return { hyperparameters, foldAccuracies, meanAccuracy, foldIterations };
  });
  let best = scores[0];
  for (const score of scores) if (score.meanAccuracy > best.meanAccuracy) best = score;
  const model = fitGradientBoosting(
    data,
    label,
    rows,
    { ...settings.base, ...best.hyperparameters },
    createRandom(deriveSeed(seed, 'refit')),
  );
  progress();
  return { candidates: scores, best, model };
}
