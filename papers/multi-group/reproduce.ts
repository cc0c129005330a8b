import { join } from 'node:path';
import { INTERSECTION_JOINER } from '../../src/audit/group-coder.js';
import { type BarDatum, barChartSpec } from '../../src/report/charts/bar-chart.js';
import { writeChart } from '../../src/report/charts/write-chart.js';
import { reportHtml } from '../../src/report/report-html.js';
import type { SummaryTable } from '../../src/report/summary-table.js';
import { writeTable } from '../../src/report/write-table.js';
import { writeFileAtomic } from '../../src/util/atomic-write.js';
import { type IntersectionPool, intersectionPools, type ModelSource } from './intersection-pools.js';
import {
  type BoundRow,
  boundRows,
  impactRatioRows,
  MULTI_GROUP_SETTINGS,
  oracleRows,
  type SequentialRow,
  sequentialRows,
} from './multi-group-analyses.js';
import { groupRatesTable, type ImpactRatioRow, impactRatioTable, oracleSummaryTable } from './multi-group-tables.js';

/** The sequential verdicts as a table. */
function sequentialTable(rows: readonly SequentialRow[]): SummaryTable {
  const s = MULTI_GROUP_SETTINGS;
  return {
    id: 'multi-group-sequential',
    title: 'Sequential verdicts of the anytime-valid K-group test',
    caption:
      `H0: max − min of the groups' rates ≤ ${s.tolerance}; ${s.replicates} seeded audits each, ` +
      `budget ${s.budget}, random order, after the 2% rule. Guarantee: ${rows[0]?.guarantee ?? ''}.`,
    columns: [
      { name: 'pool', label: 'Model (groups)', type: 'string' },
      { name: 'rate', label: 'Rate', type: 'string' },
      { name: 'groups', label: 'Groups', type: 'number' },
      { name: 'oracle', label: 'Oracle max − min', type: 'number', digits: 4 },
      { name: 'violation', label: 'Violation', type: 'number' },
      { name: 'compliant', label: 'Compliant', type: 'number' },
      { name: 'inconclusive', label: 'Inconclusive', type: 'number' },
      { name: 'mean_queries', label: 'Mean queries', type: 'number', digits: 1 },
    ],
    rows: rows.map((row) => ({
      pool: row.pool,
      rate: row.rate,
      groups: row.groups,
      oracle: row.oracleDifference,
      violation: row.reject,
      compliant: row.accept,
      inconclusive: row.inconclusive,
      mean_queries: row.meanQueries,
    })),
  };
}

/** Paper B's K-group flip counts as a table. */
function boundsTable(rows: readonly BoundRow[]): SummaryTable {
  const s = MULTI_GROUP_SETTINGS;
  return {
    id: 'multi-group-flip-bounds',
    title: "Paper B's flips for the multi-group gap and impact ratio",
    caption:
      `Candidate set C: the pool after the 2% rule; audit set S: half of each group; ε ` +
      `= ${1 - s.hideFraction}·(C's max − min); 1 − δ = ${s.passProbability}. Vanilla: Proposition 1 and the exact ` +
      `minimum; Theorems 1 and 4: flips sufficient under respir; exact: the fewest flips on C reaching Theorem ` +
      `4's target.`,
    columns: [
      { name: 'pool', label: 'Model (groups)', type: 'string' },
      { name: 'rate', label: 'Rate', type: 'string' },
      { name: 'form', label: 'Null', type: 'string' },
      { name: 'gap', label: 'C max − min', type: 'number', digits: 4 },
      { name: 'ratio', label: 'C min / max', type: 'number', digits: 4 },
      { name: 'threshold', label: 'ε or ρ', type: 'number', digits: 4 },
      { name: 'vanilla', label: 'Vanilla (Prop. 1)', type: 'number' },
      { name: 'exact_vanilla', label: 'Vanilla exact', type: 'number' },
      { name: 'theorem_1', label: 'Theorem 1', type: 'number' },
      { name: 'theorem_4', label: 'Theorem 4', type: 'number' },
      { name: 'exact_theorem_4', label: 'Theorem 4 exact', type: 'number' },
    ],
    rows: rows.map((row) => ({
      pool: row.pool,
      rate: row.rate,
      form: row.form,
      gap: row.candidateGap,
      ratio: row.candidateRatio,
      threshold: row.tolerance,
      vanilla: row.vanilla,
      exact_vanilla: row.exactVanilla,
      theorem_1: row.theorem1,
      theorem_4: row.theorem4,
      exact_theorem_4: row.exactTheorem4,
    })),
  };
}

/** The impact ratios of one dataset's models as bars, the four-fifths line drawn. */
function impactRatioChart(rows: readonly ImpactRatioRow[], dataset: string) {
  const data: BarDatum[] = rows
    .filter((row) => row.pool.startsWith(`${dataset}/`))
    .flatMap((row) =>
      row.oracle.groups.map((group) => ({
        category: group.name.replaceAll(INTERSECTION_JOINER, ' / '),
        series: row.pool.split(' ')[0],
        value: group.impactRatio ?? 0,
      })),
    );
  const title = `Impact ratios per category, ${dataset === 'adult' ? 'Adult race × sex' : 'COMPAS race'}`;
  return {
    id: `multi-group-impact-ratios-${dataset}`,
    title,
    caption:
      "Each category's selection rate over the highest category's (Local Law 144); the dashed line is the " +
      'four-fifths rule.',
    spec: barChartSpec(data, {
      title,
      categoryTitle: 'Category',
      valueTitle: 'Impact ratio',
      seriesTitle: 'Model',
      valueDomain: [0, 1],
      reference: { value: MULTI_GROUP_SETTINGS.fourFifths, label: 'four-fifths' },
    }),
  };
}

/** The pools as CSV (one column per attribute, label, decision), for the Fairlearn side-by-side check. */
function poolCsv(entry: IntersectionPool): string {
  const { pool } = entry;
  const lines = [[...entry.attributes, 'label', 'decision'].join(',')];
  const names = pool.groupNames ?? [];
  for (let row = 0; row < pool.size; row++) {
    const parts = names[pool.group[row]].split(INTERSECTION_JOINER);
    lines.push([...parts, pool.label[row], pool.decision[row]].join(','));
  }
  return `${lines.join('\n')}\n`;
}

/** Options of runMultiGroup. */
export interface MultiGroupRunOptions {
  readonly outDirectory: string;
  readonly dataDirectory?: string;
  readonly threads?: number;
  readonly refreshModels?: boolean;
  readonly png?: boolean;
  readonly onProgress?: (stage: string) => void;
}

/**
 * runMultiGroup(sources, options) is `fairaudit reproduce multi-group`: the papers' own
 * models (sources: their presets) regrouped by Adult race × sex and COMPAS race
 * (intersectionPools); the oracle's differences and ratios and each group's rates; the
 * Local Law 144 style impact-ratio table; the K-group sequential verdicts; paper B's flip
 * counts; the pools as CSV and the oracle as JSON for scripts/peers/fairlearn_parity.py; a
 * chart per dataset and report.html. Returns the files written. Throws InputError when a
 * dataset is missing. Running time: seconds with a warm model cache, plus the audits.
 */
export async function runMultiGroup(sources: readonly ModelSource[], options: MultiGroupRunOptions) {
  const folder = options.outDirectory;
  const pools = await intersectionPools(sources, {
    dataDirectory: options.dataDirectory,
    threads: options.threads,
    refresh: options.refreshModels,
    onStage: options.onProgress,
  });
  options.onProgress?.('multi-group: oracle, impact ratios, sequential audits, flip bounds');
  const oracle = oracleRows(pools);
  const impact = impactRatioRows(pools);
  const sequential = sequentialRows(pools);
  const bounds = boundRows(pools);
  const tables = [
    oracleSummaryTable(oracle),
    impactRatioTable(impact),
    sequentialTable(sequential),
    boundsTable(bounds),
    groupRatesTable(oracle),
  ];
  const files = tables.flatMap((table) => writeTable(folder, table));
  for (const entry of pools) {
    const path = join(folder, 'pools', `${entry.id}.csv`);
    writeFileAtomic(path, poolCsv(entry));
    files.push(path);
  }
  const oraclePath = join(folder, 'oracle.json');
  const oracleJson = oracle.map((row) => ({
    pool: row.pool,
    file: `pools/${pools.find((entry) => entry.label === row.pool)?.id}.csv`,
    metric: row.metric,
    difference: row.difference,
    ratio: row.ratio,
  }));
  writeFileAtomic(oraclePath, `${JSON.stringify(oracleJson, null, 2)}\n`);
  files.push(oraclePath);
  const charts = [];
  for (const dataset of ['adult', 'compas']) {
    const written = await writeChart(folder, impactRatioChart(impact, dataset), options.png !== false);
    charts.push(written.rendered);
    files.push(...written.files);
  }
  const reportPath = join(folder, 'report.html');
  writeFileAtomic(
    reportPath,
    reportHtml({
      experiment: 'multi-group',
      kind: 'multi-group (K-group and intersectional audits)',
      kindDescription:
        "Both papers' methods beyond two groups: oracle differences and ratios over race × sex and race, impact " +
        "ratios, the anytime-valid K-group test and paper B's flip counts.",
      generatedAt: 'from its computations',
      provenance: pools.map((entry): [string, string] => [
        entry.label,
        `${entry.pool.size} rows, ${entry.pool.groupNames?.length} groups; ` +
          `model ${entry.cached ? 'read from the cache' : 'trained'}`,
      ]),
      config: MULTI_GROUP_SETTINGS,
      summary: tables[0],
      paperTables: tables.slice(1),
      charts,
      comparison: null,
      notices: [],
    }),
  );
  files.push(reportPath);
  return { files, reportPath, pools, sequential, bounds };
}
