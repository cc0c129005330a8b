import type { AuditPool } from '../audit/pool.js';

/** Decision rates of one protected group in a scored pool. */
export interface GroupRates {
  /** Rows of the group. */
  readonly rows: number;
  /** Rows of the group with label 1. */
  readonly positives: number;
  /** P(decision = 1 | group): the demographic-parity rate. */
  readonly positiveRate: number;
  /** P(decision = 1 | label = 1, group): the equal-opportunity rate (NaN without positives). */
  readonly truePositiveRate: number;
  /** P(decision = label | group). */
  readonly accuracy: number;
}

/**
 * What a model card says about a model: its quality and fairness on the audit pool,
 * how it was trained and how long that took.
 */
export interface ModelCard {
  readonly model: string;
  readonly dataset: string;
  /** The settings the model was trained with (the cache key's model part). */
  readonly settings: Record<string, unknown>;
  readonly seed: string;
  readonly trainingRows: number;
  readonly poolRows: number;
  readonly accuracy: number;
  readonly groups: { readonly a: GroupRates; readonly b: GroupRates };
  /** |P(D=1 | b) - P(D=1 | a)| on the pool. */
  readonly statisticalParityGap: number;
  /** |P(D=1 | Y=1, b) - P(D=1 | Y=1, a)| on the pool. */
  readonly equalOpportunityGap: number;
  /** Wall-clock seconds spent training (and scoring) this model. */
  readonly trainingSeconds: number;
  /** Anything else worth recording (the chosen hyperparameters, the reduction's trace). */
  readonly details?: Record<string, unknown>;
}

/** The fairness and quality figures of a pool, the measurable part of a model card. */
export type PoolFigures = Pick<
  ModelCard,
  'poolRows' | 'accuracy' | 'groups' | 'statisticalParityGap' | 'equalOpportunityGap'
>;

/**
 * poolFigures(pool) computes accuracy, per-group rates and the SP and EO gaps of a
 * pool's hard decisions (Hardt et al. 2016 for EO; SP as in paper A section 2).
 * O(rows).
 */
export function poolFigures(pool: AuditPool): PoolFigures {
  const rows = [0, 0];
  const positives = [0, 0];
  const decided = [0, 0];
  const decidedPositives = [0, 0];
  const correct = [0, 0];
  for (let i = 0; i < pool.size; i++) {
    const g = pool.group[i];
    rows[g]++;
    positives[g] += pool.label[i];
    decided[g] += pool.decision[i];
    decidedPositives[g] += pool.decision[i] & pool.label[i];
    if (pool.decision[i] === pool.label[i]) correct[g]++;
  }
  const rates = (g: number): GroupRates => ({
    rows: rows[g],
    positives: positives[g],
    positiveRate: rows[g] > 0 ? decided[g] / rows[g] : Number.NaN,
    truePositiveRate: positives[g] > 0 ? decidedPositives[g] / positives[g] : Number.NaN,
    accuracy: rows[g] > 0 ? correct[g] / rows[g] : Number.NaN,
  });
  const a = rates(0);
  const b = rates(1);
  return {
    poolRows: pool.size,
    accuracy: pool.size > 0 ? (correct[0] + correct[1]) / pool.size : Number.NaN,
    groups: { a, b },
    statisticalParityGap: Math.abs(b.positiveRate - a.positiveRate),
    equalOpportunityGap: Math.abs(b.truePositiveRate - a.truePositiveRate),
  };
}
