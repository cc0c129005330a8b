import type { GroupRateOracle } from '../../src/audit/group-oracle.js';
import type { GroupMetric } from '../../src/audit/metric.js';
import type { SummaryTable } from '../../src/report/summary-table.js';

/** One pool × metric's oracle: the metric's rates (two for eodds), and its difference and ratio. */
export interface OracleRow {
  readonly pool: string;
  readonly metric: GroupMetric;
  readonly groups: number;
  readonly difference: number;
  readonly ratio: number;
  readonly rates: readonly GroupRateOracle[];
}

const METRIC_WORDS: Readonly<Record<GroupMetric, string>> = {
  sp: 'statistical parity (selection rate)',
  eo: 'equal opportunity (true-positive rate)',
  pe: 'predictive equality (false-positive rate)',
  eodds: 'equalized odds (TPR and FPR)',
};

/** The oracle's aggregations, one row per pool and metric. */
export function oracleSummaryTable(rows: readonly OracleRow[]): SummaryTable {
  return {
    id: 'multi-group-oracle',
    title: 'Oracle differences and ratios over all groups',
    caption:
      "Difference: max − min of the groups' rates (Fairlearn's difference(method='between_groups')); ratio: min " +
      '/ max (ratio()); equalized odds: the larger TPR/FPR difference and the smaller ratio ' +
      '(equalized_odds_difference, equalized_odds_ratio).',
    columns: [
      { name: 'pool', label: 'Model (groups)', type: 'string' },
      { name: 'metric', label: 'Metric', type: 'string' },
      { name: 'groups', label: 'Groups', type: 'number' },
      { name: 'difference', label: 'Difference (max − min)', type: 'number', digits: 4 },
      { name: 'ratio', label: 'Ratio (min / max)', type: 'number', digits: 4 },
    ],
    rows: rows.map((row) => ({
      pool: row.pool,
      metric: METRIC_WORDS[row.metric],
      groups: row.groups,
      difference: row.difference,
      ratio: row.ratio,
    })),
  };
}

/** Every group's rate and impact ratio, one row per pool × rate × group. */
export function groupRatesTable(rows: readonly OracleRow[]): SummaryTable {
  const out: Array<Record<string, string | number | null>> = [];
  for (const row of rows) {
    if (row.metric === 'eodds') continue;
    for (const group of row.rates[0].groups) {
      out.push({
        pool: row.pool,
        metric: row.metric,
        group: group.name,
        rows: group.rows,
        positives: group.positives,
        rate: group.rate,
        impact_ratio: group.impactRatio,
      });
    }
  }
  return {
    id: 'multi-group-rates',
    title: "Each group's rate and impact ratio",
    caption: "Impact ratio: the group's rate divided by the highest group's rate (sp: selection; eo: TPR; pe: FPR).",
    columns: [
      { name: 'pool', label: 'Model (groups)', type: 'string' },
      { name: 'metric', label: 'Metric', type: 'string' },
      { name: 'group', label: 'Group', type: 'string' },
      { name: 'rows', label: 'Rows', type: 'number' },
      { name: 'positives', label: 'Decision 1', type: 'number' },
      { name: 'rate', label: 'Rate', type: 'number', digits: 4 },
      { name: 'impact_ratio', label: 'Impact ratio', type: 'number', digits: 4 },
    ],
    rows: out,
  };
}

/** One pool's Local Law 144 style table: selection rates and impact ratios after the 2% rule. */
export interface ImpactRatioRow {
  readonly pool: string;
  readonly oracle: GroupRateOracle;
  readonly rule: string;
  readonly excluded: readonly { readonly name: string; readonly rows: number }[];
}

/** The Local Law 144 style impact-ratio table: one row per pool × category, excluded categories named. */
export function impactRatioTable(rows: readonly ImpactRatioRow[]): SummaryTable {
  const out: Array<Record<string, string | number | null>> = [];
  for (const row of rows) {
    for (const group of row.oracle.groups) {
      out.push({
        pool: row.pool,
        category: group.name,
        applicants: group.rows,
        selected: group.positives,
        selection_rate: group.rate,
        impact_ratio: group.impactRatio,
        four_fifths: group.impactRatio === null ? '' : group.impactRatio < 0.8 ? 'below 0.8' : 'meets',
      });
    }
    for (const group of row.excluded) {
      out.push({
        pool: row.pool,
        category: group.name,
        applicants: group.rows,
        selected: null,
        selection_rate: null,
        impact_ratio: null,
        four_fifths: `excluded: ${row.rule}`,
      });
    }
  }
  return {
    id: 'multi-group-impact-ratios',
    title: 'Impact ratios per category (NYC Local Law 144 style)',
    caption:
      'Selection rate of each category (race × sex for Adult, race for COMPAS) and its impact ratio: the ' +
      "category's rate over the highest category's. Categories under 2% of the rows are excluded, as the law allows, " +
      'and listed.',
    columns: [
      { name: 'pool', label: 'Model (categories)', type: 'string' },
      { name: 'category', label: 'Category', type: 'string' },
      { name: 'applicants', label: 'Rows', type: 'number' },
      { name: 'selected', label: 'Selected', type: 'number' },
      { name: 'selection_rate', label: 'Selection rate', type: 'number', digits: 4 },
      { name: 'impact_ratio', label: 'Impact ratio', type: 'number', digits: 4 },
      { name: 'four_fifths', label: 'Four-fifths rule', type: 'string', wrap: true },
    ],
    rows: out,
  };
}
