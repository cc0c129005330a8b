import { type AuditOutcomes, operatingPoint } from '../../audit/operating-characteristics.js';
import type { CellResults, CellSummary, SettingValue } from '../../report/cell-results.js';
import type { KindReporter } from '../../report/kind-reporter.js';
import type { SummaryColumn, SummaryValue } from '../../report/summary-table.js';
import { operatingCharacteristicCharts } from './charts.js';

const decisions = ['reject', 'accept', 'inconclusive'] as const;

const columns: SummaryColumn[] = [
  {
    name: 'test_name',
    label: 'Test',
    type: 'string',
    description: 'the sequential test of the cell (the test setting, or the GLR its thresholds name)',
  },
  {
    name: 'true_gap',
    label: 'True gap',
    type: 'number',
    digits: 4,
    description: "the moved pool's signed gap of what the test tests (constant within a cell)",
  },
  {
    name: 'truth',
    label: 'Truth',
    type: 'string',
    description: 'compliant, violating or boundary (|true gap| against the tolerance of the test)',
  },
  ...decisions.flatMap((decision): SummaryColumn[] => [
    {
      name: `p_${decision}`,
      label: `P(${decision})`,
      type: 'number',
      digits: 4,
      description: `fraction of replicates that ended ${decision}`,
    },
    {
      name: `p_${decision}_se`,
      label: `SE P(${decision})`,
      type: 'number',
      digits: 4,
      description: 'binomial Monte Carlo standard error √(p(1−p)/n)',
    },
  ]),
  {
    name: 'false_violation',
    label: 'False violation',
    type: 'number',
    digits: 4,
    description: 'P(reject) on a compliant or boundary pool (NaN on a violating one)',
  },
  {
    name: 'false_compliance',
    label: 'False compliance',
    type: 'number',
    digits: 4,
    description: 'P(accept) on a violating or boundary pool (NaN on a compliant one)',
  },
  {
    name: 'queries_mean',
    label: 'Mean queries',
    type: 'number',
    digits: 1,
    description: 'mean queries to termination (or pool/budget exhaustion)',
  },
  {
    name: 'queries_mean_se',
    label: 'SE mean queries',
    type: 'number',
    digits: 1,
    description: 'Monte Carlo standard error of the mean, sample sd/√n',
  },
  ...(['p10', 'p25', 'p50', 'p75', 'p90'] as const).map(
    (q): SummaryColumn => ({
      name: `queries_${q}`,
      label: `Queries ${q}`,
      type: 'number',
      digits: 0,
      description: `${q.slice(1)}% quantile of the queries (linear interpolation)`,
    }),
  ),
];

/** testNameOf(settings): the test a cell ran, from its (flattened) settings: `test`, or the GLR its thresholds name. */
export function testNameOf(settings: Record<string, SettingValue>): string {
  if (typeof settings.test === 'string') return settings.test;
  const thresholds = settings.thresholds;
  const given = thresholds !== undefined || settings.thresholds_upper !== undefined;
  if (!given || thresholds === 'wald') return 'wald-glr';
  return thresholds === 'calibrated' ? 'calibrated-glr' : 'given-thresholds';
}

/**
 * summarizeOperatingCharacteristicCell(cell) estimates the cell's operating point
 * (operatingPoint, src/audit/operating-characteristics.ts): P(reject), P(accept),
 * P(inconclusive) with binomial standard errors, the error that matters for the pool's
 * truth (false violation on compliant pools, false compliance on violating ones, both at
 * the boundary), and the query distribution (mean with its standard error, quantiles).
 * O(replicates log replicates).
 */
export function summarizeOperatingCharacteristicCell(cell: CellResults): Record<string, SummaryValue> {
  const outcomes: AuditOutcomes = { reject: 0, accept: 0, inconclusive: 0, queries: [] };
  for (const row of cell.rows) {
    const decision = row.decision as (typeof decisions)[number];
    if (decisions.includes(decision)) outcomes[decision]++;
    outcomes.queries.push(Number(row.queries));
  }
  const values: Record<string, SummaryValue> = { test_name: testNameOf(cell.settings) };
  const first = cell.rows[0];
  values.true_gap = first === undefined ? Number.NaN : Number(first.true_gap);
  values.truth = first === undefined ? null : String(first.truth);
  if (outcomes.queries.length === 0) return values;
  const point = operatingPoint(outcomes);
  values.p_reject = point.rejectRate;
  values.p_reject_se = point.rejectStandardError;
  values.p_accept = point.acceptRate;
  values.p_accept_se = point.acceptStandardError;
  values.p_inconclusive = point.inconclusiveRate;
  values.p_inconclusive_se = point.inconclusiveStandardError;
  values.false_violation = values.truth === 'violating' ? Number.NaN : point.rejectRate;
  values.false_compliance = values.truth === 'compliant' ? Number.NaN : point.acceptRate;
  values.queries_mean = point.meanQueries;
  values.queries_mean_se = point.meanQueriesStandardError;
  for (const [name, value] of Object.entries(point.queryQuantiles)) values[`queries_${name}`] = value;
  return values;
}

/** The report kind of operating characteristics (outcome columns: docs/error-control.md). */
export const operatingCharacteristicReporter: KindReporter = {
  name: 'operating-characteristic',
  description:
    'Operating characteristics of a sequential test: P(reject), P(accept), P(inconclusive) and the queries over ' +
    'true gaps, with Monte Carlo errors.',
  outcomeColumns: ['decision', 'queries', 'true_gap', 'truth'],
  summaryColumns: columns,
  summarizeCell: summarizeOperatingCharacteristicCell,
  charts: (summaries: CellSummary[], varyingSettings: string[], experiment: string) =>
    operatingCharacteristicCharts(summaries, varyingSettings, experiment),
};
