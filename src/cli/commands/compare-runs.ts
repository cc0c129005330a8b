import { performance } from 'node:perf_hooks';
import { baselineFolder, DEFAULT_BASELINES_FOLDER, saveBaseline } from '../../report/run-comparison/baselines.js';
import { compareRuns, DEFAULT_COMPARISON_ALPHA, type RunComparison } from '../../report/run-comparison/compare-runs.js';
import { pairRunTrees } from '../../report/run-comparison/run-tree.js';
import { writeComparison } from '../../report/run-comparison/write-comparison.js';
import { inputError } from '../../util/errors.js';

/** The flags of `fairaudit compare` that the run-against-run mode reads. */
export interface CompareRunsArguments {
  results: string;
  head?: string;
  baseline?: string;
  saveBaseline?: string;
  baselines?: string;
  alpha?: number;
  margin?: number;
  out?: string;
  json: boolean;
}

/** Whether the flags ask for a run-against-run comparison (or only to save a baseline). */
export function wantsRunComparison(args: CompareRunsArguments): boolean {
  return args.head !== undefined || args.baseline !== undefined || args.saveBaseline !== undefined;
}

function printComparison(comparison: RunComparison, seconds: number, notes: string[]): void {
  for (const note of notes) console.log(`note: ${note}`);
  for (const run of comparison.runs) {
    const state = run.identical ? 'identical' : run.samePlan ? 'same plan' : 'different plans';
    console.log(`${run.name}: ${state}, ${run.sharedCells} shared cells`);
    for (const change of run.configChanges) console.log(`  config: ${change}`);
    if (run.onlyInBase.length > 0) console.log(`  cells only in base: ${run.onlyInBase.join(', ')}`);
    if (run.onlyInHead.length > 0) console.log(`  cells only in head: ${run.onlyInHead.join(', ')}`);
  }
  for (const s of comparison.statistics.filter((statistic) => statistic.changed || statistic.equivalent === false)) {
    const number = (value: number) => String(Number(value.toPrecision(4)));
    console.log(
      `  ${s.run} ${s.cell} ${s.statistic}: ${number(s.base)} -> ${number(s.head)}, ` +
        `difference ${number(s.result.difference)} [${number(s.low)}, ${number(s.high)}], Holm ` +
        `p ${number(s.adjustedPValue)} (${s.result.test})${s.changed ? '' : ': not shown within the margin'}`,
    );
  }
  console.log(`compare: ${comparison.summary} (${seconds.toFixed(2)} s)`);
}

/**
 * The run-against-run mode of `fairaudit compare BASE HEAD` (or HEAD --baseline NAME):
 * pairs the runs of the two folders or trees, compares them (compareRuns), prints the
 * verdict and the changed statistics (or JSON), writes the table, chart and report.html
 * with --out, and sets exit code 1 on a regression. --save-baseline NAME keeps the head
 * (or the only folder given) as a baseline. Bad input throws InputError (exit 2).
 */
export async function compareRunsHandler(args: CompareRunsArguments): Promise<void> {
  const started = performance.now();
  const alpha = args.alpha ?? DEFAULT_COMPARISON_ALPHA;
  if (!(alpha > 0 && alpha < 1)) throw inputError({ where: '--alpha', expected: 'a number in (0, 1)', found: alpha });
  if (args.margin !== undefined && !(args.margin > 0))
    throw inputError({ where: '--margin', expected: 'a positive number', found: args.margin });
  const store = args.baselines ?? DEFAULT_BASELINES_FOLDER;
  if (args.baseline !== undefined && args.head !== undefined)
    throw inputError({ where: '--baseline', expected: 'either BASE HEAD or HEAD --baseline NAME', found: 'both' });
  const base = args.baseline !== undefined ? baselineFolder(store, args.baseline, true) : args.results;
  const head = args.baseline !== undefined ? args.results : args.head;
  if (head === undefined) {
    const saved = saveBaseline(args.results, store, args.saveBaseline as string);
    console.log(`compare: saved ${args.results} as baseline ${args.saveBaseline} (${saved})`);
    return;
  }
  const tree = pairRunTrees(base, head);
  const comparison = await compareRuns(tree.pairs, { alpha, margin: args.margin });
  const notes = [
    ...tree.onlyInBase.map((run) => `run only in base: ${run}`),
    ...tree.onlyInHead.map((run) => `run only in head: ${run}`),
  ];
  if (args.out !== undefined) await writeComparison(args.out, comparison);
  if (args.json) console.log(JSON.stringify({ ...comparison, notes }, (_k, v) => (v === Infinity ? 'Infinity' : v)));
  else printComparison(comparison, (performance.now() - started) / 1000, notes);
  if (args.saveBaseline !== undefined) saveBaseline(head, store, args.saveBaseline);
  if (comparison.verdict === 'regression') process.exitCode = 1;
}
