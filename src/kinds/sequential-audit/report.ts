import type { CellResults, CellSummary } from '../../report/cell-results.js';
import { sequentialAuditCharts } from './charts.js';
import { frequencyStandardError, sampleMoments } from '../../report/monte-carlo-error.js';
import type { KindReporter } from '../../report/kind-reporter.js';
import type { SummaryColumn, SummaryValue } from '../../report/summary-table.js';

const decisions = ['reject', 'accept', 'inconclusive'] as const;

const columns: SummaryColumn[] = [
  { name: 'oracle_gap', label: 'Oracle gap', type: 'number', digits: 4, description: 'hard-decision gap of the metric pool (mean over replicates; constant within a cell)' },
  { name: 'oracle_decision', label: 'Oracle', type: 'string', description: 'reject when the oracle gap exceeds the tolerance, else accept (most frequent over replicates)' },
  { name: 'decision_mode', label: 'Decision', type: 'string', description: 'most frequent sequential decision (ties: reject, accept, inconclusive order)' },
  ...decisions.flatMap((decision): SummaryColumn[] => [
    { name: `frequency_${decision}`, label: `Freq. ${decision}`, type: 'number', digits: 2, description: `fraction of replicates that ended ${decision}` },
    { name: `frequency_${decision}_se`, label: `SE freq. ${decision}`, type: 'number', digits: 3, description: 'binomial Monte Carlo standard error √(p(1−p)/n)' },
  ]),
  { name: 'queries_mean', label: 'Mean queries', type: 'number', digits: 1, description: 'mean queries to termination (or pool/budget exhaustion)' },
  { name: 'queries_std', label: 'Std queries', type: 'number', digits: 1, description: 'sample standard deviation of queries (n − 1)' },
  { name: 'queries_mean_se', label: 'SE mean queries', type: 'number', digits: 1, description: 'Monte Carlo standard error of the mean, std/√n' },
  { name: 'accuracy', label: 'Accuracy', type: 'number', digits: 2, description: 'fraction of replicates whose decision equals the oracle decision (inconclusive counts as wrong)' },
  { name: 'accuracy_se', label: 'SE accuracy', type: 'number', digits: 3, description: 'binomial Monte Carlo standard error' },
  { name: 'fixed_accuracy', label: 'Fixed accuracy', type: 'number', digits: 2, description: 'accuracy of the fixed-sample baseline on the first min(B, pool) rows' },
  { name: 'fixed_accuracy_se', label: 'SE fixed accuracy', type: 'number', digits: 3, description: 'binomial Monte Carlo standard error' },
  { name: 'fixed_samples_mean', label: 'Fixed samples', type: 'number', digits: 0, description: 'queries used by the fixed-sample baseline (mean over replicates)' },
  { name: 'pool_size', label: 'Pool size', type: 'number', digits: 0, description: "size of the metric's pool (mean over replicates)" },
  { name: 'proxy_gap', label: 'Proxy gap', type: 'number', digits: 4, description: 'score/logit mean gap for those access regimes (NaN for decision access)' },
  { name: 'statistic_mean', label: 'Mean final GLR', type: 'number', digits: 2, description: 'mean of the final signed GLR statistic' },
];

function mostFrequent(values: Array<string | null>, order: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const value of values) if (value !== null) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best: string | null = null;
  let bestCount = 0;
  const ranked = [...order, ...[...counts.keys()].filter((key) => !order.includes(key)).sort()];
  for (const key of ranked) {
    const count = counts.get(key) ?? 0;
    if (count > bestCount) {
      best = key;
      bestCount = count;
    }
  }
  return best;
}

function numbers(cell: CellResults, column: string): number[] {
  return cell.rows.map((row) => (typeof row[column] === 'number' ? (row[column] as number) : Number.NaN));
}

function texts(cell: CellResults, column: string): Array<string | null> {
  return cell.rows.map((row) => (row[column] === null || row[column] === undefined ? null : String(row[column])));
}

function meanOrNaN(values: number[]): number {
  return sampleMoments(values).mean;
}

/**
 * summarizeSequentialAuditCell(cell) computes paper A's per-cell statistics
 * (Tables 2–5): decision frequencies with binomial standard errors, mean and sample
 * standard deviation of queries with the standard error of the mean, accuracy
 * against the oracle decision (inconclusive counts as wrong, as in Table 4), and the
 * fixed-sample baseline's accuracy and sample count. O(replicates).
 */
export function summarizeSequentialAuditCell(cell: CellResults): Record<string, SummaryValue> {
  const n = cell.rows.length;
  const decided = texts(cell, 'decision');
  const oracle = texts(cell, 'oracle_decision');
  const fixed = texts(cell, 'fixed_decision');
  const values: Record<string, SummaryValue> = {};
  values.oracle_gap = meanOrNaN(numbers(cell, 'oracle_gap'));
  values.oracle_decision = mostFrequent(oracle, ['reject', 'accept']);
  values.decision_mode = mostFrequent(decided, decisions);
  for (const decision of decisions) {
    const frequency = n === 0 ? Number.NaN : decided.filter((value) => value === decision).length / n;
    values[`frequency_${decision}`] = frequency;
    values[`frequency_${decision}_se`] = frequencyStandardError(frequency, n);
  }
  const queries = sampleMoments(numbers(cell, 'queries'));
  values.queries_mean = queries.mean;
  values.queries_std = queries.standardDeviation;
  values.queries_mean_se = queries.standardError;
  const accuracy = n === 0 ? Number.NaN : decided.filter((value, i) => value !== null && value === oracle[i]).length / n;
  values.accuracy = accuracy;
  values.accuracy_se = frequencyStandardError(accuracy, n);
  const fixedAccuracy = n === 0 ? Number.NaN : fixed.filter((value, i) => value !== null && value === oracle[i]).length / n;
  values.fixed_accuracy = fixedAccuracy;
  values.fixed_accuracy_se = frequencyStandardError(fixedAccuracy, n);
  values.fixed_samples_mean = meanOrNaN(numbers(cell, 'fixed_samples'));
  values.pool_size = meanOrNaN(numbers(cell, 'pool_size'));
  values.proxy_gap = meanOrNaN(numbers(cell, 'proxy_gap'));
  values.statistic_mean = meanOrNaN(numbers(cell, 'statistic'));
  return values;
}

const quantityColumns: Record<string, string> = {
  'mean-queries': 'queries_mean',
  'std-queries': 'queries_std',
  'oracle-gap': 'oracle_gap',
  'oracle-decision': 'oracle_decision',
  decision: 'decision_mode',
  'reject-frequency': 'frequency_reject',
  'accept-frequency': 'frequency_accept',
  'inconclusive-frequency': 'frequency_inconclusive',
  accuracy: 'accuracy',
  'fixed-samples': 'fixed_samples_mean',
  'pool-size': 'pool_size',
};

/**
 * sequentialAuditStatistic(quantity, labels) maps the quantity names of
 * papers/paper-a/published.json to summary columns; "accuracy" of the fixed
 * method reads the fixed-sample baseline (Table 4's "Fixed" rows).
 */
export function sequentialAuditStatistic(quantity: string, labels: Record<string, string>): string | undefined {
  const isFixed = labels.method?.toLowerCase() === 'fixed';
  if (quantity === 'accuracy' && isFixed) return 'fixed_accuracy';
  if (quantity === 'mean-queries' && isFixed) return 'fixed_samples_mean';
  return quantityColumns[quantity];
}

/** The report kind of paper A's sequential GLR audits (outcome columns: docs/contracts.md). */
export const sequentialAuditReporter: KindReporter = {
  name: 'sequential-audit',
  description: 'Sequential GLR fairness audits: decisions, queries to termination, accuracy against the oracle, fixed-sample baseline.',
  outcomeColumns: ['decision', 'queries', 'statistic', 'oracle_gap', 'oracle_decision', 'fixed_decision', 'fixed_samples', 'pool_size', 'proxy_gap'],
  summaryColumns: columns,
  summarizeCell: summarizeSequentialAuditCell,
  statisticFor: sequentialAuditStatistic,
  charts: (summaries: CellSummary[], varyingSettings: string[], experiment: string) =>
    sequentialAuditCharts(summaries, varyingSettings, experiment),
};
