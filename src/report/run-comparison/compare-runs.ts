import { resultsArtifact } from '../../harness/run-record.js';
import { equivalenceTest } from '../../stats/two-sample/equivalence-test.js';
import { holmAdjustment } from '../../stats/two-sample/holm-adjustment.js';
import { differenceInterval } from '../../stats/two-sample/two-sample-difference.js';
import { canonicalJson } from '../../util/canonical-json.js';
import { describeFound, InputError } from '../../util/errors.js';
import { cellStatistics, type StatisticTest } from './cell-statistics.js';
import { readRunSamples } from './run-samples.js';

/** The suite-level false-alarm rate of a comparison unless --alpha says otherwise. */
export const DEFAULT_COMPARISON_ALPHA = 0.01;

/** Two runs of one experiment to compare, named by where they sit in their trees ("quickstart",
 * "paper-a/score-tolerance"). */
export interface RunPair {
  name: string;
  base: string;
  head: string;
}

/** How a comparison decides. */
export interface ComparisonOptions {
  /** Suite-level false-alarm rate: the chance that an unchanged suite is called changed (Holm across every test). */
  alpha?: number;
  /**
   * The largest change that counts as none (TOST): an absolute difference for
   * frequencies, a fraction of the base value for means. With a margin, a statistic not
   * shown within it is a regression too.
   */
  margin?: number;
}

/** One tested statistic of one cell in the comparison, with its interval and verdict. */
export interface ComparedStatistic extends StatisticTest {
  run: string;
  cell: string;
  /** Simultaneous interval of the difference: each at 1 − alpha/m (Bonferroni), m the tests of the suite. */
  low: number;
  high: number;
  adjustedPValue: number;
  changed: boolean;
  /** Holm-adjusted TOST p-value and whether the change is shown within the margin (null without --margin). */
  equivalenceAdjustedPValue: number | null;
  equivalent: boolean | null;
}

/** What comparing one pair of runs found about its plans. */
export interface ComparedRun {
  name: string;
  experiment: string;
  identical: boolean;
  samePlan: boolean;
  sharedCells: number;
  onlyInBase: string[];
  onlyInHead: string[];
  /** The config keys whose values differ ("settings.tolerance: 0.05 -> 0.055"). */
  configChanges: string[];
}

/** A whole comparison: the runs, every test, and the verdict in words. */
export interface RunComparison {
  alpha: number;
  margin: number | null;
  runs: ComparedRun[];
  statistics: ComparedStatistic[];
  verdict: 'identical' | 'no regression' | 'regression';
  /** One sentence saying what the verdict claims, with its false-alarm rate. */
  summary: string;
}

/** The config keys (settings, grid, seed, replicates) whose canonical values differ between two run records. */
function configChanges(base: Record<string, unknown>, head: Record<string, unknown>, prefix: string): string[] {
  const changes: string[] = [];
  for (const key of [...new Set([...Object.keys(base), ...Object.keys(head)])].sort()) {
    const before = base[key] === undefined ? 'absent' : canonicalJson(base[key]);
    const after = head[key] === undefined ? 'absent' : canonicalJson(head[key]);
    if (before !== after) changes.push(`${prefix}${key}: ${before} -> ${after}`);
  }
  return changes;
}

/** Compares one pair: identical bytes at once, else every statistic of the shared cells. */
async function comparePair(
  pair: RunPair,
): Promise<{ run: ComparedRun; tests: Array<StatisticTest & { cell: string }> }> {
  const base = await readRunSamples(pair.base);
  const head = await readRunSamples(pair.head);
  const [b, h] = [base.results.record, head.results.record];
  if (b.experiment !== h.experiment || b.kind !== h.kind) {
    throw new InputError(
      `${pair.head}: expected a run of the experiment in ${pair.base} (${b.experiment}, ${b.kind}), ` +
        `found ${describeFound(`${h.experiment}, ${h.kind}`)}`,
    );
  }
  const identical =
    b.plan.fingerprint === h.plan.fingerprint && resultsArtifact(b).sha256 === resultsArtifact(h).sha256;
  const onlyInBase = [...base.cells.keys()].filter((key) => !head.cells.has(key));
  const onlyInHead = [...head.cells.keys()].filter((key) => !base.cells.has(key));
  const run: ComparedRun = {
    name: pair.name,
    experiment: b.experiment,
    identical,
    samePlan: b.plan.fingerprint === h.plan.fingerprint,
    sharedCells: base.cells.size - onlyInBase.length,
    onlyInBase,
    onlyInHead,
    configChanges: [
      ...configChanges(b.config.settings, h.config.settings, 'settings.'),
      ...configChanges(b.config.grid, h.config.grid, 'grid.'),
      ...configChanges(
        { seed: b.config.seed, replicates: b.config.replicates },
        { seed: h.config.seed, replicates: h.config.replicates },
        '',
      ),
    ],
  };
  if (identical) return { run, tests: [] };
  const tests: Array<StatisticTest & { cell: string }> = [];
  for (const [cell, baseCell] of base.cells) {
    const headCell = head.cells.get(cell);
    if (headCell === undefined) continue;
    for (const test of cellStatistics(baseCell, headCell, base.outcomes)) tests.push({ ...test, cell });
  }
  return { run, tests };
}

/** The margin of one statistic on its own scale: absolute for frequencies, relative to the base for means. */
function marginOf(test: StatisticTest, margin: number): number {
  return test.kind === 'frequency' || test.base === 0 ? margin : margin * Math.abs(test.base);
}

/**
 * compareRuns(pairs, options) compares each pair of runs of one experiment: when the
 * plan fingerprints and the results' SHA-256 agree the pair is identical at once
 * (nothing more read than the checksums need); otherwise every summary statistic of
 * every cell the two share is tested (cellStatistics: exact or score tests for
 * frequencies, paired or Welch t-tests for means), cells in one run only are listed.
 * Across the whole suite the tests are adjusted by Holm's method, so the chance that an
 * unchanged suite is called changed is at most `alpha`; with `margin`, the TOST p-values
 * are Holm-adjusted too and each statistic is shown unchanged (within the margin) or
 * not. Intervals are simultaneous (Bonferroni, 1 − alpha/m each). Throws InputError when
 * a pair is two different experiments or a folder is not a checked results folder.
 * O(rows of both runs).
 */
export async function compareRuns(pairs: readonly RunPair[], options: ComparisonOptions = {}): Promise<RunComparison> {
  const alpha = options.alpha ?? DEFAULT_COMPARISON_ALPHA;
  const margin = options.margin ?? null;
  const runs: ComparedRun[] = [];
  const tests: Array<StatisticTest & { cell: string; run: string }> = [];
  for (const pair of pairs) {
    const compared = await comparePair(pair);
    runs.push(compared.run);
    for (const test of compared.tests) tests.push({ ...test, run: pair.name });
  }
  const adjusted = holmAdjustment(tests.map((test) => test.result.pValue));
  const equivalence =
    margin === null ? null : holmAdjustment(tests.map((test) => equivalenceTest(test.result, marginOf(test, margin))));
  const confidence = 1 - alpha / Math.max(1, tests.length);
  const statistics: ComparedStatistic[] = tests.map((test, index) => {
    const [low, high] = differenceInterval(test.result, confidence);
    const equivalenceAdjustedPValue = equivalence === null ? null : equivalence[index];
    return {
      ...test,
      low,
      high,
      adjustedPValue: adjusted[index],
      changed: adjusted[index] <= alpha,
      equivalenceAdjustedPValue,
      equivalent: equivalenceAdjustedPValue === null ? null : equivalenceAdjustedPValue <= alpha,
    };
  });
  const changed = statistics.filter((statistic) => statistic.changed).length;
  const notShown = statistics.filter((statistic) => statistic.equivalent === false).length;
  const verdict = runs.every((run) => run.identical)
    ? 'identical'
    : changed > 0 || notShown > 0
      ? 'regression'
      : 'no regression';
  return { alpha, margin, runs, statistics, verdict, summary: summarySentence(verdict, alpha, margin, statistics) };
}

function summarySentence(
  verdict: RunComparison['verdict'],
  alpha: number,
  margin: number | null,
  statistics: ComparedStatistic[],
): string {
  if (verdict === 'identical') return 'identical: the same plans and byte-identical results.';
  const changed = statistics.filter((statistic) => statistic.changed).length;
  const level = `${alpha * 100}%`;
  const marginText =
    margin === null
      ? ''
      : ` With ` +
        `margin ${margin}: ${statistics.filter((s) => s.equivalent).length} of ${statistics.length} statistics shown ` +
        `unchanged (within the margin, TOST), ${statistics.filter((s) => s.equivalent === false).length} not shown.`;
  return (
    `${verdict}: ${changed} of ${statistics.length} statistics changed beyond Monte Carlo error ` +
    `(Holm over the whole comparison: an unchanged suite is called changed with probability at ` +
    `most ${level}).${marginText}`
  );
}
