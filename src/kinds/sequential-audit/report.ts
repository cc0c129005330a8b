import type { CellResults, CellSummary, ResultRow } from '../../report/cell-results.js';
import { type CellAccumulator, type KindReporter, summarizeRows } from '../../report/kind-reporter.js';
import { frequencyStandardError, MomentsAccumulator } from '../../report/monte-carlo-error.js';
import type { SummaryColumn, SummaryValue } from '../../report/summary-table.js';
import { sequentialAuditCharts } from './charts.js';

const decisions = ['reject', 'accept', 'inconclusive'] as const;

const columns: SummaryColumn[] = [
  {
    name: 'oracle_gap',
    label: 'Oracle gap',
    type: 'number',
    digits: 4,
    description: 'hard-decision gap of the metric pool (mean over replicates; constant within a cell)',
  },
  {
    name: 'oracle_decision',
    label: 'Oracle',
    type: 'string',
    description: 'reject when the oracle gap exceeds the tolerance, else accept (most frequent over replicates)',
  },
  {
    name: 'decision_mode',
    label: 'Decision',
    type: 'string',
    description: 'most frequent sequential decision (ties: reject, accept, inconclusive order)',
  },
  ...decisions.flatMap((decision): SummaryColumn[] => [
    {
      name: `frequency_${decision}`,
      label: `Freq. ${decision}`,
      type: 'number',
      digits: 2,
      description: `fraction of replicates that ended ${decision}`,
    },
    {
      name: `frequency_${decision}_se`,
      label: `SE freq. ${decision}`,
      type: 'number',
      digits: 3,
      description: 'binomial Monte Carlo standard error √(p(1−p)/n)',
    },
  ]),
  {
    name: 'queries_mean',
    label: 'Mean queries',
    type: 'number',
    digits: 1,
    description: 'mean queries to termination (or pool/budget exhaustion)',
  },
  {
    name: 'queries_std',
    label: 'Std queries',
    type: 'number',
    digits: 1,
    description: 'sample standard deviation of queries (n − 1)',
  },
  {
    name: 'queries_mean_se',
    label: 'SE mean queries',
    type: 'number',
    digits: 1,
    description: 'Monte Carlo standard error of the mean, std/√n',
  },
  {
    name: 'accuracy',
    label: 'Accuracy',
    type: 'number',
    digits: 2,
    description: 'fraction of replicates whose decision equals the oracle decision (inconclusive counts as wrong)',
  },
  {
    name: 'accuracy_se',
    label: 'SE accuracy',
    type: 'number',
    digits: 3,
    description: 'binomial Monte Carlo standard error',
  },
  {
    name: 'fixed_accuracy',
    label: 'Fixed accuracy',
    type: 'number',
    digits: 2,
    description: 'accuracy of the fixed-sample baseline on the first min(B, pool) rows',
  },
  {
    name: 'fixed_accuracy_se',
    label: 'SE fixed accuracy',
    type: 'number',
    digits: 3,
    description: 'binomial Monte Carlo standard error',
  },
  {
    name: 'fixed_samples_mean',
    label: 'Fixed samples',
    type: 'number',
    digits: 0,
    description: 'queries used by the fixed-sample baseline (mean over replicates)',
  },
  {
    name: 'pool_size',
    label: 'Pool size',
    type: 'number',
    digits: 0,
    description: "size of the metric's pool (mean over replicates)",
  },
  {
    name: 'proxy_gap',
    label: 'Proxy gap',
    type: 'number',
    digits: 4,
    description: 'score/logit mean gap for those access regimes (NaN for decision access)',
  },
  {
    name: 'statistic_mean',
    label: 'Mean final GLR',
    type: 'number',
    digits: 2,
    description: 'mean of the final signed GLR statistic',
  },
];

function mostFrequent(counts: ReadonlyMap<string, number>, order: readonly string[]): string | null {
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

function numberOf(row: ResultRow, column: string): number {
  return typeof row[column] === 'number' ? (row[column] as number) : Number.NaN;
}

function textOf(row: ResultRow, column: string): string | null {
  return row[column] === null || row[column] === undefined ? null : String(row[column]);
}

function increment(counts: Map<string, number>, value: string | null): void {
  if (value !== null) counts.set(value, (counts.get(value) ?? 0) + 1);
}

const momentColumns = ['oracle_gap', 'queries', 'fixed_samples', 'pool_size', 'proxy_gap', 'statistic'] as const;

/**
 * sequentialAuditAccumulator() summarises a cell one row at a time with paper A's
 * per-cell statistics (Tables 2–5): decision frequencies with binomial standard
 * errors, mean and sample standard deviation of queries with the standard error of the
 * mean, accuracy against the oracle decision (inconclusive counts as wrong, as in
 * Table 4), and the fixed-sample baseline's accuracy and sample count. O(1) per row
 * and in memory.
 */
export function sequentialAuditAccumulator(): CellAccumulator {
  let n = 0;
  let correct = 0;
  let fixedCorrect = 0;
  const decided = new Map<string, number>();
  const oracle = new Map<string, number>();
  const moments = Object.fromEntries(momentColumns.map((column) => [column, new MomentsAccumulator()])) as Record<
    (typeof momentColumns)[number],
    MomentsAccumulator
  >;
  return {
    add(row) {
      n += 1;
      const decision = textOf(row, 'decision');
      const oracleDecision = textOf(row, 'oracle_decision');
      const fixed = textOf(row, 'fixed_decision');
      increment(decided, decision);
      increment(oracle, oracleDecision);
      if (decision !== null && decision === oracleDecision) correct += 1;
      if (fixed !== null && fixed === oracleDecision) fixedCorrect += 1;
      for (const column of momentColumns) moments[column].add(numberOf(row, column));
    },
    finish() {
      const values: Record<string, SummaryValue> = {};
      values.oracle_gap = moments.oracle_gap.moments().mean;
      values.oracle_decision = mostFrequent(oracle, ['reject', 'accept']);
      values.decision_mode = mostFrequent(decided, decisions);
      for (const decision of decisions) {
        const frequency = n === 0 ? Number.NaN : (decided.get(decision) ?? 0) / n;
        values[`frequency_${decision}`] = frequency;
        values[`frequency_${decision}_se`] = frequencyStandardError(frequency, n);
      }
      const queries = moments.queries.moments();
      values.queries_mean = queries.mean;
      values.queries_std = queries.standardDeviation;
      values.queries_mean_se = queries.standardError;
      const accuracy = n === 0 ? Number.NaN : correct / n;
      values.accuracy = accuracy;
      values.accuracy_se = frequencyStandardError(accuracy, n);
      const fixedAccuracy = n === 0 ? Number.NaN : fixedCorrect / n;
      values.fixed_accuracy = fixedAccuracy;
      values.fixed_accuracy_se = frequencyStandardError(fixedAccuracy, n);
      values.fixed_samples_mean = moments.fixed_samples.moments().mean;
      values.pool_size = moments.pool_size.moments().mean;
      values.proxy_gap = moments.proxy_gap.moments().mean;
      values.statistic_mean = moments.statistic.moments().mean;
      return values;
    },
  };
}

/** summarizeSequentialAuditCell(cell) is sequentialAuditAccumulator's summary of the cell's rows. O(replicates). */
export function summarizeSequentialAuditCell(cell: CellResults): Record<string, SummaryValue> {
  return summarizeRows(sequentialAuditAccumulator(), cell.rows);
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
  description:
    'Sequential GLR fairness audits: decisions, queries to termination, accuracy against the oracle, ' +
    'fixed-sample baseline.',
  outcomeColumns: [
    'decision',
    'queries',
    'statistic',
    'oracle_gap',
    'oracle_decision',
    'fixed_decision',
    'fixed_samples',
    'pool_size',
    'proxy_gap',
  ],
  summaryColumns: columns,
  summarizeCell: summarizeSequentialAuditCell,
  accumulateCell: sequentialAuditAccumulator,
  statisticFor: sequentialAuditStatistic,
  charts: (summaries: CellSummary[], varyingSettings: string[], experiment: string) =>
    sequentialAuditCharts(summaries, varyingSettings, experiment),
};
