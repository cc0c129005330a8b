import type { CellSummary, SettingValue } from '../../../src/report/cell-results.js';
import type { SummaryColumn, SummaryTable, SummaryValue } from '../../../src/report/summary-table.js';
import { ERROR_CONTROL_TESTS } from './settings.js';

/** What the table says of each pool: its label, and what data it stands on. */
export interface StudyPoolLabel {
  readonly name: string;
  readonly label: string;
  readonly data: string;
}

const columns: SummaryColumn[] = [
  { name: 'pool', label: 'Pool', type: 'string' },
  { name: 'data', label: 'Data', type: 'string' },
  { name: 'metric', label: 'Metric', type: 'string' },
  { name: 'access', label: 'Access', type: 'string' },
  { name: 'test', label: 'Test', type: 'string' },
  {
    name: 'controls',
    label: 'Controls',
    type: 'string',
    description:
      'what the test guarantees: α and β for calibrated-glr (Monte Carlo, for these group sizes) and betting ' +
      "(any stopping time); nothing for paper A's Wald thresholds",
  },
  {
    name: 'tolerance',
    label: 'Tolerance',
    type: 'number',
    digits: 3,
    description: 'the tolerance the test tests its gap against: δ (decisions), scoreTolerance or logitTolerance',
  },
  {
    name: 'worst_false_violation',
    label: 'Worst false violation',
    type: 'number',
    digits: 3,
    description:
      "largest P(reject) over the compliant gaps (0, half the tolerance, the tolerance, and the pool's own gap " +
      'when compliant)',
  },
  {
    name: 'worst_false_violation_se',
    label: '± SE',
    type: 'number',
    digits: 3,
    description: 'its binomial Monte Carlo standard error',
  },
  { name: 'worst_at_gap', label: 'at gap', type: 'number', digits: 4, description: 'the true gap where it is largest' },
  {
    name: 'false_compliance_at_tolerance',
    label: 'False compliance at δ',
    type: 'number',
    digits: 3,
    description:
      'P(accept) with |gap| moved to the tolerance (the boundary, where both error bounds apply; the nearest gap ' +
      'by counts at or beyond it); blank should the moved pool be compliant',
  },
  {
    name: 'false_compliance_at_tolerance_se',
    label: '± SE',
    type: 'number',
    digits: 3,
    description: 'its binomial Monte Carlo standard error',
  },
  {
    name: 'own_gap',
    label: "Pool's gap",
    type: 'number',
    digits: 4,
    description:
      "the pool's own gap (Table 1's for calibrated pools; the trained model's for real Adult pools; the proxy " +
      'gap for score and logit access)',
  },
  { name: 'own_truth', label: 'Truth', type: 'string', description: 'compliant or violating at its own gap' },
  {
    name: 'false_compliance_at_own_gap',
    label: "False compliance at pool's gap",
    type: 'number',
    digits: 3,
    description:
      "P(accept) at the pool's own gap when it violates the tolerance (empty when it is compliant: its " +
      'rejections count in the worst false violation)',
  },
  {
    name: 'reject_at_own_gap',
    label: "P(reject) at pool's gap",
    type: 'number',
    digits: 3,
    description: "P(reject) at the pool's own gap (the power when it violates)",
  },
  { name: 'inconclusive_at_own_gap', label: "P(inconclusive) at pool's gap", type: 'number', digits: 3 },
  { name: 'queries_at_own_gap', label: "Mean queries at pool's gap", type: 'number', digits: 0 },
  { name: 'queries_at_zero', label: 'Mean queries at gap 0', type: 'number', digits: 0 },
];

function toleranceOf(settings: Record<string, SettingValue>): number {
  const value =
    settings.access === 'score'
      ? settings.scoreTolerance
      : settings.access === 'logit'
        ? settings.logitTolerance
        : settings.tolerance;
  return typeof value === 'number' ? value : Number.NaN;
}

function number(value: SummaryValue | undefined): number {
  return typeof value === 'number' ? value : Number.NaN;
}

/** The cell's gap setting in tolerances, or null for the pool at its own gap (a NaN gap column). */
function gapOf(cell: CellSummary): number | null {
  const gap = cell.settings.gap;
  return typeof gap === 'number' && Number.isFinite(gap) ? gap : null;
}

/**
 * errorControlTable(summaries, pools) lays the operating-characteristic summaries of
 * the study out per pool, metric, access regime and test: the worst false-violation rate
 * over the compliant gaps with its standard error and where, the false-compliance rate
 * at the tolerance, the pool's own gap with the false-compliance rate there (when it
 * violates), P(reject) and P(inconclusive) there, and mean queries. O(cells).
 */
export function errorControlTable(summaries: readonly CellSummary[], pools: readonly StudyPoolLabel[]): SummaryTable {
  const groups = new Map<string, CellSummary[]>();
  for (const cell of summaries) {
    const key = [cell.settings.pool, cell.settings.metric, cell.settings.access, cell.values.test_name].join('\u0000');
    groups.set(key, [...(groups.get(key) ?? []), cell]);
  }
  const rows: Array<Record<string, SummaryValue>> = [];
  for (const pool of pools) {
    for (const metric of ['sp', 'eo']) {
      for (const access of ['decision', 'score', 'logit']) {
        for (const test of ERROR_CONTROL_TESTS) {
          const cells = groups.get([pool.name, metric, access, test].join('\u0000'));
          if (cells === undefined) continue;
          const compliant = cells.filter((cell) => cell.values.truth !== 'violating');
          let worst: CellSummary | undefined;
          for (const cell of compliant)
            if (worst === undefined || number(cell.values.p_reject) > number(worst.values.p_reject)) worst = cell;
          // The move to δ rounds outward (redecideToGap), so the pool is violating or on the
          // boundary; should it still be compliant, accepting it would be right: no cell.
          const atTolerance = cells.find((cell) => gapOf(cell) === 1);
          const atBoundary = atTolerance?.values.truth === 'compliant' ? undefined : atTolerance;
          const own = cells.find((cell) => gapOf(cell) === null);
          const zero = cells.find((cell) => gapOf(cell) === 0);
          const violating = own?.values.truth === 'violating';
          rows.push({
            pool: pool.label,
            data: pool.data,
            metric: metric.toUpperCase(),
            access,
            test,
            controls:
              test === 'wald-glr'
                ? 'none (operational thresholds)'
                : `P(reject) ≤ ${cells[0].settings.alpha}, P(accept) ≤ ${cells[0].settings.beta}`,
            tolerance: toleranceOf(cells[0].settings),
            worst_false_violation: worst === undefined ? null : number(worst.values.p_reject),
            worst_false_violation_se: worst === undefined ? null : number(worst.values.p_reject_se),
            worst_at_gap: worst === undefined ? null : number(worst.values.true_gap),
            false_compliance_at_tolerance: atBoundary === undefined ? null : number(atBoundary.values.p_accept),
            false_compliance_at_tolerance_se: atBoundary === undefined ? null : number(atBoundary.values.p_accept_se),
            own_gap: own === undefined ? null : number(own.values.true_gap),
            own_truth: own === undefined ? null : String(own.values.truth),
            false_compliance_at_own_gap: own !== undefined && violating ? number(own.values.p_accept) : null,
            reject_at_own_gap: own === undefined ? null : number(own.values.p_reject),
            inconclusive_at_own_gap: own === undefined ? null : number(own.values.p_inconclusive),
            queries_at_own_gap: own === undefined ? null : number(own.values.queries_mean),
            queries_at_zero: zero === undefined ? null : number(zero.values.queries_mean),
          });
        }
      }
    }
  }
  const replicates = Math.max(0, ...summaries.map((cell) => cell.replicates));
  return {
    id: 'error-control',
    title:
      "Error control: false violations, false compliance and queries of paper A's GLR, the calibrated GLR and " +
      'the betting test',
    caption:
      `Beyond paper A: error-controlled tests. Each pool is moved to gap 0, half the tolerance and the tolerance ` +
      `on the side of its own gap (re-deciding rows of group b for decisions, moving group b's scores or logits for ` +
      `the proxies), and audited at its own gap; ${replicates} replicates per point (Monte Carlo standard errors ` +
      `beside the rates). ` +
      "Paper A's test has no error guarantee; the calibrated GLR's thresholds are calibrated for each setting " +
      "(the reproduction's cheap calibration: conservative), the betting test is anytime-valid (with logits on a " +
      "declared range of the pools' logits). docs/error-control.md explains what each controls.",
    columns,
    rows,
  };
}
