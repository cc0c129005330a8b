import type { Argv, CommandModule } from 'yargs';
import { type ComparisonRow, regressionFailures } from '../../report/compare-published.js';
import type { PaperLayoutParts } from '../../report/paper-layout.js';
import {
  type CellStatus,
  countStatuses,
  countsSentence,
  genericCellStatuses,
} from '../../report/reproduction-status.js';
import { paperFolder, summarize } from '../../report/write-report.js';
import { inputError } from '../../util/errors.js';
import { publishedOption, resultsFolderPositional } from '../common-options.js';
import { type CompareRunsArguments, compareRunsHandler, wantsRunComparison } from './compare-runs.js';

interface CompareArguments extends CompareRunsArguments {
  published?: string;
  sigmas: number;
}

function shortNumber(value: number | string | null): string {
  if (value === null) return '-';
  if (typeof value === 'string') return value;
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(4)));
}

function printRows(rows: ComparisonRow[], statuses: ReadonlyMap<string, CellStatus>, explained: boolean): void {
  const lines = rows.map((row) => [
    row.id,
    row.statistic ?? '-',
    shortNumber(row.published) + (row.publishedSpread === null ? '' : ` ± ${shortNumber(row.publishedSpread)}`),
    shortNumber(row.reproduced),
    shortNumber(row.difference),
    shortNumber(row.tolerance),
    (statuses.get(row.id)?.status ?? row.status) + (row.regression ? ' [regression]' : ''),
  ]);
  const header = ['cell', 'statistic', 'published', 'reproduced', 'difference', 'tolerance', 'status'];
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i].length)));
  const format = (line: string[]) =>
    line
      .map((text, i) => text.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  console.log(format(header));
  for (const line of lines) console.log(format(line));
  // A paper layout's reasons are printed by printReasons; without one, the notes say why.
  const unexplained = explained ? [] : rows.filter((row) => row.status === 'missing' || row.status === 'unmapped');
  if (unexplained.length > 0) console.log('');
  for (const row of unexplained) console.log(`${row.id}: ${row.status}: ${row.note}`);
}

/**
 * printReasons(statuses) prints why the cells that differ are different, one line each,
 * and one line per shared reason of the cells that are not reproduced or are synthetic,
 * naming how many cells and the tables it covers (a missing dataset's reason once,
 * not once per cell).
 */
function printReasons(statuses: readonly CellStatus[]): void {
  const lines: string[] = [];
  const shared = new Map<string, CellStatus[]>();
  for (const cell of statuses) {
    if (cell.why === '') continue;
    if (cell.status === 'differs' || cell.status === 'within training variability') {
      lines.push(`${cell.id}: ${cell.status}: ${cell.why}`);
      continue;
    }
    const key = `${cell.status}: ${cell.why}`;
    shared.set(key, [...(shared.get(key) ?? []), cell]);
  }
  for (const [reason, cells] of shared) {
    const tables = [...new Set(cells.map((cell) => cell.table))].join(', ');
    lines.push(cells.length === 1 ? `${cells[0].id}: ${reason}` : `${cells.length} cells of ${tables}: ${reason}`);
  }
  if (lines.length > 0) console.log('');
  for (const line of lines) console.log(line);
}

/**
 * `fairaudit compare RESULTS_DIR`: per published cell, reproduced value, difference and
 * whether it is within tolerance; exit 1 when a regression cell is not.
 * `fairaudit compare BASE HEAD` (or `HEAD --baseline NAME`): run against run, every
 * summary statistic tested, Holm across the comparison (compare-runs.ts).
 */
export const compareCommand: CommandModule<object, CompareArguments> = {
  command: 'compare <results> [head]',
  describe:
    'Compare a results folder with the published numbers, or BASE with HEAD run against run (exit 1 on a ' +
    'regression, 2 on bad input)',
  builder: (yargs: Argv) =>
    yargs
      .positional('results', resultsFolderPositional)
      .option('published', publishedOption)
      .option('sigmas', {
        type: 'number',
        default: 3,
        describe: 'Monte Carlo standard errors allowed for mean and frequency cells',
      })
      .option('json', {
        type: 'boolean',
        default: false,
        describe: 'print the comparison rows as JSON',
      })
      .positional('head', {
        type: 'string',
        describe: 'a second results folder (or tree): compare <results> (the base) with it, run against run',
      })
      .option('alpha', {
        type: 'number',
        describe: 'run against run: suite-level false-alarm rate, Holm across every test (default 0.01)',
      })
      .option('margin', {
        type: 'number',
        describe:
          'run against run: the largest change that counts as none (TOST; absolute for frequencies, relative for ' +
          'means); statistics not shown within it are regressions',
      })
      .option('out', { type: 'string', describe: 'run against run: write the table, chart and report.html here' })
      .option('baseline', { type: 'string', describe: 'compare <results> (the head) with the saved baseline NAME' })
      .option('save-baseline', { type: 'string', describe: 'save the head (or <results> alone) as baseline NAME' })
      .option('baselines', {
        type: 'string',
        describe: 'folder of saved baselines (default results/baselines)',
      }) as unknown as Argv<CompareArguments>,
  handler: async (args) => {
    if (wantsRunComparison(args)) return compareRunsHandler(args);
    if (!(args.sigmas > 0)) throw inputError({ where: '--sigmas', expected: 'a positive number', found: args.sigmas });
    const folder = paperFolder(args.results);
    const run: {
      results: { experiment: string };
      comparison: ComparisonRow[];
      unassignedPublishedCells: number;
      paper: PaperLayoutParts | null;
    } =
      folder === null
        ? await summarize(args.results, { publishedFolder: args.published, sigmas: args.sigmas })
        : (() => {
            // A paper-level reproduction folder (results/paper-b): its recorded cells against the published ones.
            const compared = folder.layout.compare(args.results, folder.options);
            return {
              results: { experiment: compared.experiment },
              comparison: compared.comparison,
              unassignedPublishedCells: 0,
              paper: {
                notices: compared.notices,
                tables: [],
                statuses: compared.statuses,
                ...(compared.reasons === undefined ? {} : { reasons: compared.reasons }),
              },
            };
          })();
    const failures = regressionFailures(run.comparison);
    const statuses = run.paper?.statuses ?? genericCellStatuses(run.comparison, run.paper?.reasons);
    const statusById = new Map(statuses.map((cell) => [cell.id, cell]));
    const counts = countStatuses(statuses);
    if (args.json) {
      const reasons = run.paper?.reasons ?? {};
      const rows = run.comparison.map((row) => ({
        ...row,
        ...(statusById.has(row.id) ? { verdict: statusById.get(row.id)?.status } : {}),
        ...(reasons[row.id] === undefined ? {} : { reason: reasons[row.id] }),
      }));
      console.log(
        JSON.stringify(
          {
            experiment: run.results.experiment,
            counts,
            countsSentence: countsSentence(counts),
            notices: run.paper?.notices ?? [],
            cells: statuses,
            rows,
            regressionFailures: failures.map((row) => row.id),
          },
          null,
          2,
        ),
      );
    } else if (run.comparison.length === 0) {
      for (const notice of run.paper?.notices ?? []) console.log(`note: ${notice}`);
      console.log(`compare: no published cells name the experiment "${run.results.experiment}"; nothing to compare.`);
      if (run.unassignedPublishedCells > 0)
        console.log(`  (${run.unassignedPublishedCells} published cells name no experiment; see docs/report.md)`);
    } else {
      for (const notice of run.paper?.notices ?? []) console.log(`note: ${notice}`);
      printRows(run.comparison, statusById, run.paper?.statuses !== undefined);
      if (run.paper?.statuses !== undefined) printReasons(statuses);
      console.log(
        `compare: ${run.results.experiment}: ${countsSentence(counts)}; ${failures.length} regression check(s) failing`,
      );
    }
    // A gate must not pass when nothing was checked: no published cell for this experiment
    // (a results.arrow of another experiment in a paper folder once passed this way), or
    // cells of which none could be compared.
    const compared = run.comparison.filter((row) => row.status === 'within' || row.status === 'outside').length;
    if (compared === 0) {
      const listed = run.comparison.length;
      throw inputError({
        where: `compare ${args.results}`,
        expected: `published cells of the experiment "${run.results.experiment}" that can be compared with its results`,
        found:
          listed === 0
            ? 'no published cell naming that experiment: nothing was compared'
            : `${listed} published cell(s), none comparable ` +
              `(${run.comparison.map((row) => `${row.id}: ${row.status}`).join('; ')})`,
      });
    }
    if (failures.length > 0) {
      process.stderr.write(
        `fairaudit compare: regression cells out of tolerance or ` +
          `missing: ${failures.map((row) => row.id).join(', ')}\n`,
      );
      process.exitCode = 1;
    }
  },
};
