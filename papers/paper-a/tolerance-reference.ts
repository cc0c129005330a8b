import type { AuditPool } from '../../src/audit/pool.js';
import type { SummaryTable } from '../../src/report/summary-table.js';

/** The shift-equivalent operational tolerances of one pool and metric. */
export interface ToleranceReference {
  pool: string;
  metric: 'sp' | 'eo';
  rows: number;
  /** Kernel estimate of the pooled logit density at the decision threshold (logit 0). */
  thresholdDensity: number;
  /** Mean logistic slope E[σ'(Z)] = E[S(1 − S)] over the metric's pool. */
  meanSlope: number;
  /** δ / f_Z(0): the logit shift that moves a decision rate by δ. */
  logitTolerance: number;
  /** δ · E[σ'(Z)] / f_Z(0): the score-mean shift that the same logit shift causes. */
  scoreTolerance: number;
}

/**
 * toleranceReference(name, pool, metric, tolerance) computes the tolerances that are
 * equivalent to δ under a location shift of one group's logits: shifting logits by c
 * moves the decision rate by about c·f_Z(0) (f_Z the pooled logit density at the
 * threshold 0), the mean logit by c and the mean score by about c·E[σ'(Z)]. So a
 * decision gap δ corresponds to a logit gap δ/f_Z(0) and a score gap
 * δ·E[σ'(Z)]/f_Z(0). f_Z(0) is a Gaussian kernel estimate with Silverman's bandwidth
 * 0.9·min(sd, IQR/1.34)·n^(−1/5). These use the whole pool (oracle knowledge), so they
 * are a reference for the defaults, not the defaults. O(n log n). Null without logits.
 */
export function toleranceReference(
  name: string,
  pool: AuditPool,
  metric: 'sp' | 'eo',
  tolerance: number,
): ToleranceReference | null {
  if (pool.logit === null) return null;
  const values: number[] = [];
  for (let i = 0; i < pool.size; i++) if (metric === 'sp' || pool.label[i] === 1) values.push(pool.logit[i]);
  const n = values.length;
  if (n < 2) return null;
  const mean = values.reduce((sum, v) => sum + v, 0) / n;
  const sd = Math.sqrt(values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / (n - 1));
  const sorted = [...values].sort((a, b) => a - b);
  const iqr = sorted[Math.floor(0.75 * (n - 1))] - sorted[Math.floor(0.25 * (n - 1))];
  const spread = Math.min(sd, iqr > 0 ? iqr / 1.34 : sd);
  const bandwidth = 0.9 * spread * n ** -0.2;
  let density = 0;
  let slope = 0;
  for (const z of values) {
    density += Math.exp(-0.5 * (z / bandwidth) ** 2);
    const s = 1 / (1 + Math.exp(-z));
    slope += s * (1 - s);
  }
  density /= n * bandwidth * Math.sqrt(2 * Math.PI);
  slope /= n;
  return {
    pool: name,
    metric,
    rows: n,
    thresholdDensity: density,
    meanSlope: slope,
    logitTolerance: tolerance / density,
    scoreTolerance: (tolerance * slope) / density,
  };
}

/** toleranceReferenceTable(references, defaults) lays the references beside the defaults used. */
export function toleranceReferenceTable(
  references: ToleranceReference[],
  defaults: { score: number; logit: number },
  note?: string,
): SummaryTable {
  return {
    id: 'paper-a-tolerance-reference',
    title: 'Operational tolerances: the defaults beside their shift-equivalent values on each pool',
    caption:
      `Defaults: score ${defaults.score} (= δ), logit ${defaults.logit} (= δ / σ'(0) = 4δ). Shift-equivalent: ` +
      `the score/logit gap that a logit shift moving the decision rate by δ = 0.05 produces on this pool ` +
      `(docs/paper-a.md).` +
      (note ? ` ${note}` : ''),
    columns: [
      { name: 'pool', label: 'Pool', type: 'string' },
      { name: 'metric', label: 'Metric', type: 'string' },
      { name: 'rows', label: 'Rows', type: 'number', digits: 0 },
      {
        name: 'threshold_density',
        label: 'f_Z(0)',
        type: 'number',
        digits: 3,
        description: 'pooled logit density at the decision threshold',
      },
      {
        name: 'mean_slope',
        label: "E[σ'(Z)]",
        type: 'number',
        digits: 3,
        description: 'mean logistic slope over the pool',
      },
      { name: 'score_tolerance', label: 'Shift-equivalent score tol.', type: 'number', digits: 4 },
      { name: 'score_default', label: 'Default score tol.', type: 'number', digits: 4 },
      { name: 'logit_tolerance', label: 'Shift-equivalent logit tol.', type: 'number', digits: 3 },
      { name: 'logit_default', label: 'Default logit tol.', type: 'number', digits: 3 },
    ],
    rows: references.map((reference) => ({
      pool: reference.pool,
      metric: reference.metric.toUpperCase(),
      rows: reference.rows,
      threshold_density: reference.thresholdDensity,
      mean_slope: reference.meanSlope,
      score_tolerance: reference.scoreTolerance,
      score_default: defaults.score,
      logit_tolerance: reference.logitTolerance,
      logit_default: defaults.logit,
    })),
  };
}
