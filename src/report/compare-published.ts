import { type CellSummary, findCells } from './cell-results.js';
import type { KindReporter } from './kind-reporter.js';
import { type PublishedCell, type PublishedFile, rowText } from './published.js';
import type { SummaryTable, SummaryValue } from './summary-table.js';

/** The verdict on one published cell. */
export type ComparisonStatus = 'within' | 'outside' | 'missing' | 'unmapped';

/** One line of the comparison: the published and the reproduced value and the verdict. */
export interface ComparisonRow {
  id: string;
  table: string;
  row: string;
  column: string;
  kind: string;
  statistic: string | null;
  published: number | string;
  /** The printed ± (std or se), when the paper gives one. */
  publishedSpread: number | null;
  reproduced: number | string | null;
  /** reproduced − published (numbers only). */
  difference: number | null;
  /** The allowed |difference| (numbers only). */
  tolerance: number | null;
  status: ComparisonStatus;
  regression: boolean;
  /** Why a cell is missing or unmapped, or how its tolerance was formed. */
  note: string;
}

/** Options of comparePublished. */
export interface ComparisonOptions {
  /** Standard errors allowed for mean and frequency cells (default 3). */
  sigmas?: number;
}

/**
 * cellsForExperiment(files, experiment) lists the published cells reproduced by a
 * results folder of that experiment, in file and cell order. O(cells).
 */
export function cellsForExperiment(files: PublishedFile[], experiment: string): PublishedCell[] {
  return files.flatMap((file) => file.cells.filter((cell) => cell.experiment === experiment));
}

/**
 * comparisonTolerance(cell, reproduced, replicates, seReproduced, sigmas) is the
 * allowed |reproduced − published| of a numeric cell (docs/report.md):
 * mean: σ·√(SE_rep² + SE_pub²) + rounding; frequency: σ·√(p̄(1−p̄)(1/n_rep + 1/n_pub))
 * + rounding with p̄ pooled; analytic and derived: rounding (1e-9 relative if none);
 * timing: relativeTolerance·|published|. An explicit `tolerance` or
 * `relativeTolerance` wins. Returns NaN with a reason when no standard error is known.
 * O(1).
 */
export function comparisonTolerance(
  cell: PublishedCell,
  reproduced: number,
  replicates: number,
  seReproduced: number,
  sigmas: number,
): { tolerance: number; how: string } {
  const published = cell.value as number;
  const rounding = cell.rounding ?? 0;
  if (cell.tolerance !== undefined) return { tolerance: cell.tolerance, how: 'stated tolerance' };
  if (cell.relativeTolerance !== undefined) {
    return { tolerance: cell.relativeTolerance * Math.abs(published), how: `${cell.relativeTolerance} × |published|` };
  }
  const publishedRuns = cell.replicates ?? replicates;
  if (cell.kind === 'mean') {
    let sePublished = cell.se ?? (cell.std !== undefined ? cell.std / Math.sqrt(publishedRuns) : Number.NaN);
    let seRep = seReproduced;
    if (!Number.isFinite(sePublished) && Number.isFinite(seRep))
      sePublished = seRep * Math.sqrt(replicates / publishedRuns);
    if (!Number.isFinite(seRep) && Number.isFinite(sePublished))
      seRep = sePublished * Math.sqrt(publishedRuns / replicates);
    if (!Number.isFinite(seRep) || !Number.isFinite(sePublished))
      return { tolerance: Number.NaN, how: 'no standard error known on either side' };
    const combined = Math.sqrt(seRep * seRep + sePublished * sePublished);
    return {
      tolerance: sigmas * combined + rounding,
      how:
        `${sigmas}·√(SE_rep²+SE_pub²) = ${sigmas}·${combined.toPrecision(3)}` +
        (rounding ? ` + rounding ${rounding}` : ''),
    };
  }
  if (cell.kind === 'frequency') {
    const pooled = (reproduced * replicates + published * publishedRuns) / (replicates + publishedRuns);
    const se = Math.sqrt(Math.max(0, pooled * (1 - pooled)) * (1 / replicates + 1 / publishedRuns));
    return {
      tolerance: sigmas * se + rounding,
      how: `${sigmas}·pooled binomial SE ${se.toPrecision(3)}` + (rounding ? ` + rounding ${rounding}` : ''),
    };
  }
  if (cell.kind === 'timing') return { tolerance: Number.NaN, how: 'timing cell without a tolerance' };
  return rounding > 0
    ? { tolerance: rounding, how: `rounding ${rounding}` }
    : { tolerance: 1e-9 * Math.max(1, Math.abs(published)), how: 'exact' };
}

function normalizeLabel(value: unknown): string {
  return String(value).trim().toLowerCase();
}

/**
 * comparePublished(cells, summaries, kind, options) compares each published cell
 * with the summary value its `where` and statistic select. A cell with no `where` or
 * no statistic the kind knows is 'unmapped'; one whose `where` matches no cell (or
 * several), or whose value is missing or NaN, is 'missing'. O(cells × summaries).
 */
export function comparePublished(
  cells: PublishedCell[],
  summaries: CellSummary[],
  kind: KindReporter,
  options: ComparisonOptions = {},
): ComparisonRow[] {
  const sigmas = options.sigmas ?? 3;
  return cells.map((cell) => {
    const statistic =
      cell.statistic ?? (cell.quantity ? kind.statisticFor?.(cell.quantity, cell.labels) : undefined) ?? null;
    const base = {
      id: cell.id,
      table: cell.table,
      row: rowText(cell.row),
      column: cell.column,
      kind: cell.kind,
      statistic,
      published: cell.value,
      publishedSpread: cell.se ?? cell.std ?? null,
      regression: cell.regression === true,
    };
    const empty = { reproduced: null, difference: null, tolerance: null };
    if (cell.where === undefined)
      return { ...base, ...empty, status: 'unmapped' as const, note: 'no "where" selecting a cell' };
    if (statistic === null)
      return {
        ...base,
        ...empty,
        status: 'unmapped' as const,
        note: `kind ${kind.name} has no statistic for quantity ${JSON.stringify(cell.quantity ?? null)}`,
      };
    const matches = findCells(summaries, cell.where);
    if (matches.length !== 1) {
      return {
        ...base,
        ...empty,
        status: 'missing' as const,
        note: `${matches.length} reproduced cells match ${JSON.stringify(cell.where)}`,
      };
    }
    const summary = matches[0];
    const reproduced = summary.values[statistic];
    if (
      reproduced === undefined ||
      reproduced === null ||
      (typeof reproduced === 'number' && Number.isNaN(reproduced))
    ) {
      return {
        ...base,
        ...empty,
        status: 'missing' as const,
        note: `no value for ${statistic} in cell ${summary.cell}`,
      };
    }
    if (typeof cell.value === 'string') {
      const within = normalizeLabel(reproduced) === normalizeLabel(cell.value);
      return {
        ...base,
        reproduced,
        difference: null,
        tolerance: null,
        status: within ? ('within' as const) : ('outside' as const),
        note: 'labels compared ignoring case',
      };
    }
    const value = Number(reproduced);
    const difference = value - cell.value;
    const se = summary.values[`${statistic}_se`];
    const { tolerance, how } = comparisonTolerance(
      cell,
      value,
      summary.replicates,
      typeof se === 'number' ? se : Number.NaN,
      sigmas,
    );
    const within = Number.isFinite(tolerance) && Math.abs(difference) <= tolerance;
    return {
      ...base,
      reproduced: value,
      difference,
      tolerance: Number.isFinite(tolerance) ? tolerance : null,
      status: within ? ('within' as const) : ('outside' as const),
      note: how,
    };
  });
}

/** regressionFailures(rows) lists regression cells that are outside tolerance or missing. */
export function regressionFailures(rows: ComparisonRow[]): ComparisonRow[] {
  return rows.filter(
    (row) => row.regression && (row.status === 'outside' || row.status === 'missing' || row.status === 'unmapped'),
  );
}

/**
 * comparisonRecord(row) is one comparison row as the table writers take it: the
 * columns of comparisonTable (id, table, row, column, statistic, published,
 * published_spread, reproduced to 6 significant digits, difference, tolerance,
 * status, regression, note). Paper layouts add their own columns to it. O(1).
 */
export function comparisonRecord(row: ComparisonRow): Record<string, SummaryValue> {
  const text = (value: number | string | null): SummaryValue => (value === null ? null : String(value));
  return {
    id: row.id,
    table: row.table,
    row: row.row,
    column: row.column,
    statistic: row.statistic,
    published: text(row.published),
    published_spread: row.publishedSpread,
    reproduced:
      typeof row.reproduced === 'number' ? String(Number(row.reproduced.toPrecision(6))) : text(row.reproduced),
    difference: row.difference,
    tolerance: row.tolerance,
    status: row.status,
    regression: row.regression ? 'yes' : 'no',
    note: row.note,
  };
}

/**
 * comparisonTable(rows, experiment, reasons) lays the comparison out as a SummaryTable
 * for the writers; with `reasons` (by cell id), a wrapped Why column says why each
 * cell that is not reproduced is not.
 */
export function comparisonTable(
  rows: ComparisonRow[],
  experiment: string,
  reasons?: Record<string, string>,
): SummaryTable {
  const table = genericComparisonTable(rows, experiment);
  if (reasons === undefined) return table;
  return {
    ...table,
    columns: [...table.columns, { name: 'why', label: 'Why', type: 'string', wrap: true }],
    rows: table.rows.map((row) => ({ ...row, why: reasons[String(row.id)] ?? '' })),
  };
}

function genericComparisonTable(rows: ComparisonRow[], experiment: string): SummaryTable {
  return {
    id: 'comparison',
    title: `Comparison with published numbers (${experiment})`,
    caption:
      'Per published cell: the reproduced value, the difference and whether it lies within the Monte Carlo ' +
      'tolerance (docs/report.md).',
    columns: [
      { name: 'id', label: 'Cell', type: 'string' },
      { name: 'table', label: 'Table', type: 'string' },
      { name: 'row', label: 'Row', type: 'string' },
      { name: 'column', label: 'Column', type: 'string' },
      { name: 'statistic', label: 'Statistic', type: 'string' },
      { name: 'published', label: 'Published', type: 'string' },
      { name: 'published_spread', label: 'Published ±', type: 'number', digits: 3 },
      { name: 'reproduced', label: 'Reproduced', type: 'string' },
      { name: 'difference', label: 'Difference', type: 'number', digits: 4 },
      { name: 'tolerance', label: 'Tolerance', type: 'number', digits: 4 },
      { name: 'status', label: 'Status', type: 'string' },
      { name: 'regression', label: 'Regression check', type: 'string' },
      { name: 'note', label: 'How', type: 'string' },
    ],
    rows: rows.map(comparisonRecord),
  };
}
