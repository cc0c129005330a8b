import type { AuditPool } from '../audit/pool.js';
import type { TabularData } from '../data/tabular.js';
import { createRandom, deriveSeed } from '../util/random.js';
import type { MlpSettings } from './mlp/mlp-settings.js';
import type { MlpNetwork } from './mlp/network.js';
import { type SparseRows, toSparseRows } from './mlp/sparse-rows.js';
import { mlpLogits, trainMlp } from './mlp/train-mlp.js';
import { type ModelCard, poolFigures } from './model-card.js';
import { demographicParityMoments, groupCounts } from './reduction/demographic-parity-moments.js';
import { exponentiatedGradient } from './reduction/exponentiated-gradient.js';
import { clampedLogit, deployMixture, mixtureProbability } from './reduction/randomized-mixture.js';
import { poolFromLogits } from './scored-pool.js';

/**
 * How one MLP model is built: an MLP, optionally inside the exponentiated-gradient
 * reduction under demographic parity (paper A's four models are presets of this:
 * papers/paper-a/models.ts).
 */
export interface MlpModelSpec {
  readonly name: string;
  readonly mlp: MlpSettings;
  /** The exponentiated-gradient reduction under demographic parity, or null for a plain MLP. */
  readonly reduction: {
    /** epsilon, the bound on each |E[h | A = a] - E[h]| (Fairlearn's DemographicParity difference_bound). */
    readonly differenceBound: number;
    /** B, the bound on the multipliers (Fairlearn's ExponentiatedGradient sets B = 1/eps). */
    readonly multiplierBound: number;
    readonly maxIterations: number;
    readonly mixture: 'average' | 'linear-program';
  } | null;
}

/** A trained model's audit pool (its outputs on the held-out rows) and model card. */
export interface ScoredModel {
  readonly pool: AuditPool;
  readonly card: ModelCard;
}

function decisionsOf(network: MlpNetwork, input: SparseRows): Uint8Array {
  const logits = mlpLogits(network, input);
  const decisions = new Uint8Array(logits.length);
  for (let i = 0; i < logits.length; i++) decisions[i] = 1 / (1 + Math.exp(-logits[i])) >= 0.5 ? 1 : 0;
  return decisions;
}

/**
 * trainMlpModel(spec, datasetName, train, test, seed) trains an MLP model (paper A's
 * four are presets of it) on `train` and scores `test` into an audit pool.
 * - A plain MLP (reduction null): trainMlp with the spec's settings; the pool holds
 *   logit z, score sigmoid(z) and decision [score >= 0.5].
 * - With a reduction: exponentiatedGradient over MLPs trained on the cost-sensitive
 *   problems (sample weights), giving a mixture Q of best responses. The
 *   pool's score is Q's probability of a positive decision, its logit that score's
 *   logit (clamped to +-13.8), its decision a seeded per-instance draw from Q
 *   (deployMixture), so the randomized classifier becomes a fixed deployed model. The
 *   card's details also hold Q's training-set constraint values (trainingMixtureMoments)
 *   and SP gap (trainingStatisticalParityGap), what the reduction's guarantee bounds.
 * Every draw comes from seeds derived from `seed`. onEpoch(done, total), when given, counts
 * the MLP epochs trained of at most `total` (epochs, times maxIterations with a reduction,
 * which may stop early). Running time: one MLP training per reduction iteration (see trainMlp).
 */
export function trainMlpModel(
  spec: MlpModelSpec,
  datasetName: string,
  train: TabularData,
  test: TabularData,
  seed: string,
  onEpoch?: (done: number, total: number) => void,
): ScoredModel {
  const started = performance.now();
  const totalEpochs = spec.mlp.epochs * (spec.reduction === null ? 1 : spec.reduction.maxIterations);
  let epochsDone = 0;
  const epochDone = onEpoch === undefined ? undefined : () => onEpoch(++epochsDone, totalEpochs);
  const trainInput = toSparseRows(train.features, train.rows, train.columns);
  const testInput = toSparseRows(test.features, test.rows, test.columns);
  const source = `model:${datasetName}/${spec.name}`;
  let pool: AuditPool;
  let details: Record<string, unknown> = {};
  if (spec.reduction === null) {
    const { network, epochLosses } = trainMlp(
      trainInput,
      train.label,
      null,
      spec.mlp,
      createRandom(deriveSeed(seed, 'mlp')),
      'auto',
      epochDone,
    );
    pool = poolFromLogits(test, mlpLogits(network, testInput), source);
    details = { epochLosses: Array.from(epochLosses) };
  } else {
    const result = exponentiatedGradient(train.label, train.group, spec.reduction, (label, weight, iteration) => {
      const random = createRandom(deriveSeed(seed, 'best-response', iteration));
      const { network } = trainMlp(trainInput, label, weight, spec.mlp, random, 'auto', epochDone);
      return { model: network, trainingDecisions: decisionsOf(network, trainInput) };
    });
    const probability = mixtureProbability(
      result.models.map((network) => decisionsOf(network, testInput)),
      result.weights,
    );
    const decision = deployMixture(probability, test.rowIndex, deriveSeed(seed, 'deploy'));
    pool = {
      size: test.rows,
      group: test.group.slice(),
      label: test.label.slice(),
      decision,
      score: probability,
      logit: probability.map(clampedLogit),
      id: test.rowIndex.slice(),
      source,
    };
    // The randomized classifier Q on the training rows: its constraint values gamma_k(Q)
    // (what the reduction bounds) and its SP gap |E[Q | A = 0] - E[Q | A = 1]| = gamma_0 - gamma_2.
    const trainingMoments = demographicParityMoments(result.trainingProbability, train.group, groupCounts(train.group));
    details = {
      reductionIterations: result.models.length,
      mixtureWeights: Array.from(result.weights),
      reductionTrace: result.trace,
      trainingMixtureMoments: Array.from(trainingMoments),
      trainingStatisticalParityGap: Math.abs(trainingMoments[0] - trainingMoments[2]),
    };
  }
  const card: ModelCard = {
    model: spec.name,
    dataset: datasetName,
    settings: { mlp: spec.mlp, reduction: spec.reduction },
    seed,
    trainingRows: train.rows,
    ...poolFigures(pool),
    trainingSeconds: (performance.now() - started) / 1000,
    details,
  };
  return { pool, card };
}
