import type { CellSummary, ResultRow } from '../../report/cell-results.js';
import { type BarDatum, barChartSpec } from '../../report/charts/bar-chart.js';
import type { ChartSpec } from '../../report/charts/chart-spec.js';
import { type CellAccumulator, type KindReporter, summarizeRows } from '../../report/kind-reporter.js';
import { frequencyStandardError, MomentsAccumulator } from '../../report/monte-carlo-error.js';
import type { SummaryValue } from '../../report/summary-table.js';

/** The value of `name` in the first row a cell gave (NaN before any), as the summaries' per-cell facts. */
function firstValues(names: readonly string[]) {
  const values = new Map<string, number>();
  return {
    add(row: ResultRow): void {
      if (values.size === 0) for (const name of names) values.set(name, Number(row[name]));
    },
    get: (name: string): number => values.get(name) ?? Number.NaN,
  };
}

/** A share of rows whose value is exactly 1 (NaN for no rows), one row at a time. */
function shareOfOnes() {
  let ones = 0;
  let count = 0;
  return {
    add(value: number): void {
      count += 1;
      if (value === 1) ones += 1;
    },
    value: (): number => (count === 0 ? Number.NaN : ones / count),
  };
}

/** cellLabel(summary, varying) names a cell by its varying settings ("unbalanced / theorem-1"). */
function cellLabel(summary: CellSummary, varying: string[]): string {
  const parts = varying.map((key) => String(summary.settings[key]));
  return parts.length > 0 ? parts.join(' / ') : summary.cell;
}

/** A bar of `value` with an error bar of ±2 standard errors (no error bar when standardError is undefined). */
function barWithError(category: string, series: string, value: number, standardError?: number): BarDatum {
  if (standardError === undefined) return { category, series, value };
  return { category, series, value, lower: value - 2 * standardError, upper: value + 2 * standardError };
}

const factNames = [
  'candidate_gap',
  'tolerance',
  'proposition1_flips',
  'theorem1_flips',
  'theorem1_best_effort',
  'theorem4_flips',
];

const facts = (first: (name: string) => number): Record<string, SummaryValue> => ({
  candidate_gap: first('candidate_gap'),
  tolerance: first('tolerance'),
  proposition1_flips: first('proposition1_flips'),
  theorem1_flips: first('theorem1_flips'),
  theorem1_best_effort: first('theorem1_best_effort') === 1 ? 'yes' : 'no',
  theorem4_flips: first('theorem4_flips'),
});

/**
 * respirAccumulator() summarises a respir cell one row at a time: pass and detection
 * shares with binomial standard errors, the vanilla flips' moments (reachable ones
 * only), the mean audit minority, and the cell's facts from its first row. O(1) per
 * row and in memory.
 */
export function respirAccumulator(): CellAccumulator {
  let replicates = 0;
  const first = firstValues([
    'pass_target',
    'flips',
    'best_effort',
    'manipulated_gap',
    'eq3_respir',
    'eq3_vanilla',
    ...factNames,
  ]);
  const passed = shareOfOnes();
  const detected = shareOfOnes();
  const vanillaDetected = shareOfOnes();
  const vanillaFlips = new MomentsAccumulator();
  const auditMinority = new MomentsAccumulator();
  return {
    add(row) {
      replicates += 1;
      first.add(row);
      passed.add(Number(row.passed));
      detected.add(Number(row.detected));
      vanillaDetected.add(Number(row.vanilla_detected));
      const flips = Number(row.vanilla_flips);
      if (flips >= 0) vanillaFlips.add(flips);
      auditMinority.add(Number(row.audit_minority));
    },
    finish() {
      const passRate = passed.value();
      const detection = detected.value();
      const vanillaDetection = vanillaDetected.value();
      const flips = vanillaFlips.moments();
      return {
        pass_rate: passRate,
        pass_rate_se: frequencyStandardError(passRate, replicates),
        pass_target: first.get('pass_target'),
        flips: first.get('flips'),
        best_effort: first.get('best_effort') === 1 ? 'yes' : 'no',
        manipulated_gap: first.get('manipulated_gap'),
        detection,
        detection_se: frequencyStandardError(detection, replicates),
        eq3_respir: first.get('eq3_respir'),
        vanilla_flips_mean: flips.mean,
        vanilla_flips_mean_se: flips.standardError,
        vanilla_detection: vanillaDetection,
        vanilla_detection_se: frequencyStandardError(vanillaDetection, replicates),
        eq3_vanilla: first.get('eq3_vanilla'),
        audit_minority_mean: auditMinority.moments().mean,
        ...facts(first.get),
      };
    },
  };
}

/**
 * respirMinimalFlipsAccumulator() summarises a respir-minimal-flips cell one row at a
 * time: the moments of the reachable minimal flips, the unreachable share, the mean
 * pass rate at the minimum, and the cell's facts from its first row. O(1) per row.
 */
export function respirMinimalFlipsAccumulator(): CellAccumulator {
  let count = 0;
  let unreachable = 0;
  const first = firstValues(['pass_target', 'exact_minimal_flips', 'exact_minimal_flips_certified', ...factNames]);
  const reachable = new MomentsAccumulator();
  const passRate = new MomentsAccumulator();
  return {
    add(row) {
      count += 1;
      first.add(row);
      const flips = Number(row.minimal_flips);
      if (flips >= 0) reachable.add(flips);
      else unreachable += 1;
      passRate.add(Number(row.minimal_flips_pass_rate));
    },
    finish() {
      const moments = reachable.moments();
      return {
        minimal_flips_mean: moments.mean,
        minimal_flips_mean_se: moments.standardError,
        minimal_flips_std: moments.standardDeviation,
        exact_minimal_flips: first.get('exact_minimal_flips'),
        exact_certified: first.get('exact_minimal_flips_certified') === 1 ? 'yes' : 'no',
        unreachable_share: count === 0 ? Number.NaN : unreachable / count,
        pass_rate_mean: passRate.moments().mean,
        pass_target: first.get('pass_target'),
        ...facts(first.get),
      };
    },
  };
}

const factColumns = [
  { name: 'candidate_gap', label: 'd_C,true', type: 'number' as const, digits: 4 },
  { name: 'tolerance', label: 'ε', type: 'number' as const, digits: 4 },
  {
    name: 'proposition1_flips',
    label: 'Prop. 1 flips',
    type: 'number' as const,
    description: 'Proposition 1 at the expected n_min.',
  },
  {
    name: 'theorem1_flips',
    label: 'Thm. 1 flips (sufficient)',
    type: 'number' as const,
    description: 'Theorem 1 at the expected n_min: flips that suffice, not the fewest needed.',
  },
  { name: 'theorem1_best_effort', label: 'Thm. 1 best effort', type: 'string' as const },
  {
    name: 'theorem4_flips',
    label: 'Thm. 4 flips (sufficient)',
    type: 'number' as const,
    description: 'Theorem 4 at the expected group counts: flips that suffice.',
  },
];

/** How the reporter summarises the `respir` kind: pass and detection rates beside the bounds. */
export const respirReporter: KindReporter = {
  name: 'respir',
  description:
    "respir vs vanilla audits under output flipping: simulated pass rate and canary detection beside paper B's bounds.",
  outcomeColumns: ['passed', 'detected', 'vanilla_flips', 'vanilla_detected', 'flips', 'theorem1_flips', 'eq3_respir'],
  summaryColumns: [
    {
      name: 'pass_rate',
      label: 'Pass rate',
      type: 'number',
      digits: 4,
      description: 'Share of audit sets passing after the respir manipulation.',
    },
    { name: 'pass_rate_se', label: 'SE pass rate', type: 'number', digits: 4 },
    { name: 'pass_target', label: '1 − δ', type: 'number', digits: 2 },
    { name: 'flips', label: 'respir flips', type: 'number', description: "The provider's flips on C." },
    { name: 'best_effort', label: 'Best effort', type: 'string' },
    { name: 'manipulated_gap', label: 'd_C after', type: 'number', digits: 4 },
    { name: 'detection', label: 'respir detection', type: 'number', digits: 4 },
    { name: 'detection_se', label: 'SE', type: 'number', digits: 4 },
    { name: 'eq3_respir', label: 'Eq. 3 (N)', type: 'number', digits: 4 },
    { name: 'vanilla_flips_mean', label: 'Vanilla flips (mean)', type: 'number', digits: 2 },
    { name: 'vanilla_flips_mean_se', label: 'SE', type: 'number', digits: 2 },
    { name: 'vanilla_detection', label: 'Vanilla detection', type: 'number', digits: 4 },
    { name: 'vanilla_detection_se', label: 'SE', type: 'number', digits: 4 },
    { name: 'eq3_vanilla', label: 'Eq. 3 (n)', type: 'number', digits: 4 },
    { name: 'audit_minority_mean', label: 'n_min (mean)', type: 'number', digits: 1 },
    ...factColumns,
  ],
  summarizeCell: (cell) => summarizeRows(respirAccumulator(), cell.rows),
  accumulateCell: respirAccumulator,
  charts(summaries, varying, experiment): ChartSpec[] {
    const pass: BarDatum[] = [];
    const detection: BarDatum[] = [];
    for (const summary of summaries) {
      const category = cellLabel(summary, varying);
      const v = summary.values;
      pass.push(barWithError(category, 'simulated pass rate', Number(v.pass_rate), Number(v.pass_rate_se)));
      pass.push({ category, series: '1 − δ (guarantee)', value: Number(v.pass_target) });
      for (const [series, value, se2] of [
        ['respir simulated', v.detection, v.detection_se],
        ['respir Eq. 3 (N)', v.eq3_respir, undefined],
        ['vanilla simulated', v.vanilla_detection, v.vanilla_detection_se],
        ['vanilla Eq. 3 (n, Prop. 1)', v.eq3_vanilla, undefined],
      ] as const) {
        detection.push(barWithError(category, series, Number(value), se2 === undefined ? undefined : Number(se2)));
      }
    }
    return [
      {
        id: `${experiment}-pass-rate`,
        title: 'Pass rate after the respir manipulation vs the 1 − δ guarantee',
        caption:
          'Bars: share of simulated audit sets with |d_S| ≤ ε (±2 SE); beside it the guarantee 1 − δ of Theorems ' +
          '2 and 4.',
        spec: barChartSpec(pass, {
          title: 'Pass rate',
          categoryTitle: 'Cell',
          valueTitle: 'Pass probability',
          seriesTitle: '',
          errorBars: true,
          valueDomain: [0, 1],
        }),
      },
      {
        id: `${experiment}-detection`,
        title: 'Canary detection: simulation vs Eq. 3',
        caption:
          'Simulated detection frequency (±2 SE) of the respir and vanilla manipulations beside Eq. 3 over N and ' +
          'over n.',
        spec: barChartSpec(detection, {
          title: 'Detection',
          categoryTitle: 'Cell',
          valueTitle: 'P(manipulation detected)',
          seriesTitle: '',
          errorBars: true,
          valueDomain: [0, 1],
        }),
      },
    ];
  },
};

/** How the reporter summarises `respir-minimal-flips`: the empirical flip cost beside Theorems 1 and 4. */
export const respirMinimalFlipsReporter: KindReporter = {
  name: 'respir-minimal-flips',
  description:
    'Empirical fewest flips on C passing a respir audit with probability 1 − δ, beside the exact minimum ' +
    '(strongest adversary) and the sufficient counts of Theorems 1 and 4.',
  outcomeColumns: [
    'minimal_flips',
    'minimal_flips_pass_rate',
    'exact_minimal_flips',
    'exact_minimal_flips_certified',
    'theorem1_flips',
    'theorem4_flips',
  ],
  summaryColumns: [
    { name: 'minimal_flips_mean', label: 'Empirical minimal flips', type: 'number', digits: 1 },
    {
      name: 'exact_minimal_flips',
      label: 'Exact minimum',
      type: 'number',
      description:
        'exactMinimalFlips: the fewest flips passing with probability ≥ 1 − δ against the strongest adversary ' +
        '(−1: unreachable).',
    },
    {
      name: 'exact_certified',
      label: 'Certified',
      type: 'string',
      description: 'yes: the certified minimum; no: the upper end of a certified bracket.',
    },
    { name: 'minimal_flips_mean_se', label: 'SE', type: 'number', digits: 2 },
    { name: 'minimal_flips_std', label: 'Std', type: 'number', digits: 2 },
    {
      name: 'unreachable_share',
      label: 'Unreachable',
      type: 'number',
      digits: 3,
      description: 'Share of replicates where no flip count passes with 1 − δ.',
    },
    { name: 'pass_rate_mean', label: 'Pass rate at minimum', type: 'number', digits: 4 },
    { name: 'pass_target', label: '1 − δ', type: 'number', digits: 2 },
    ...factColumns,
  ],
  summarizeCell: (cell) => summarizeRows(respirMinimalFlipsAccumulator(), cell.rows),
  accumulateCell: respirMinimalFlipsAccumulator,
  charts(summaries, varying, experiment): ChartSpec[] {
    const data: BarDatum[] = [];
    for (const summary of summaries) {
      const category = cellLabel(summary, varying);
      const v = summary.values;
      data.push(
        barWithError(category, 'simulated minimum', Number(v.minimal_flips_mean), Number(v.minimal_flips_mean_se)),
      );
      data.push({ category, series: 'exact minimum', value: Number(v.exact_minimal_flips) });
      data.push({ category, series: 'Theorem 4', value: Number(v.theorem4_flips) });
      data.push({ category, series: 'Theorem 1', value: Number(v.theorem1_flips) });
      data.push({ category, series: 'Proposition 1 (vanilla)', value: Number(v.proposition1_flips) });
    }
    return [
      {
        id: `${experiment}-flip-cost`,
        title: 'Flip cost: simulated and exact minimum vs the bounds',
        caption:
          'Fewest flips on C passing the respir audit with probability 1 − δ, estimated by bisection (mean ± 2 ' +
          'SE over replicates) and computed exactly against the strongest adversary, beside the sufficient counts of ' +
          'Theorems 1 and 4 and the vanilla Proposition 1.',
        spec: barChartSpec(data, {
          title: 'Flips',
          categoryTitle: 'Cell',
          valueTitle: 'Output flips',
          seriesTitle: '',
          errorBars: true,
        }),
      },
    ];
  },
};
