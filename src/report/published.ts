import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { inputError } from '../util/errors.js';
import type { SettingValue } from './cell-results.js';

/**
 * How a published cell is compared with its reproduction (docs/report.md):
 * - mean: a Monte Carlo mean; tolerance sigmas·√(SE_reproduced² + SE_published²)
 *   plus half the stated rounding.
 * - frequency: a Monte Carlo frequency; pooled two-proportion standard error.
 * - analytic: an exact number printed with a stated rounding; |diff| ≤ rounding/2.
 * - label: a categorical entry ("reject"); equal ignoring case.
 * - timing: a measured time or size; |diff| ≤ relativeTolerance·|published|.
 */
export const comparisonRules = ['mean', 'frequency', 'analytic', 'label', 'timing'] as const;
export type ComparisonRule = (typeof comparisonRules)[number];

/** One published number, citing where it is printed. */
export interface PublishedCell {
  /** Unique id across all published files ("paper-a/table-2/acs/robust-base/decision/queries"). */
  id: string;
  /** Where it is printed: "Table 2", the row's and the column's text as in the paper. */
  table: string;
  row: string;
  column: string;
  /** results/<experiment> that reproduces it (defaults to the file's `experiment`). */
  experiment: string;
  /** Settings selecting the summarised cell ("dataset": "acs", "metric": "sp"). */
  where: Record<string, SettingValue>;
  /** The summary column compared ("queries_mean", "frequency_reject", "accuracy", ...). */
  statistic: string;
  /** The printed value: a number, or a label for rule "label". */
  value: number | string;
  /** The printed ± (if any) and what it is: a standard deviation (default) or an SE. */
  plusMinus?: number;
  plusMinusKind?: 'std' | 'se';
  /** Runs behind the published value (defaults to the file's `replicates`). */
  replicates?: number;
  rule: ComparisonRule;
  /** Unit of the last printed digit (0.01 for "0.75"); adds rounding/2 to the tolerance. */
  rounding?: number;
  /** An explicit absolute tolerance, overriding the rule's. */
  tolerance?: number;
  /** For rule "timing" (or to override any rule): allowed |diff| / |published|. */
  relativeTolerance?: number;
  /** When true, `fairaudit compare` exits 1 if this cell is out of tolerance or missing. */
  regression?: boolean;
  note?: string;
}

/** A file of experiments/published/: one paper's numbers. */
export interface PublishedFile {
  /** The file it was read from. */
  path: string;
  /** Short paper name ("A", "B") and a full citation. */
  paper: string;
  citation: string;
  /** The paper's text in the shared folder (shared/papers/...). */
  source?: string;
  cells: PublishedCell[];
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requireString(object: Json, key: string, where: string): string {
  const value = object[key];
  if (typeof value !== 'string' || value.length === 0) throw inputError({ where: `${where}.${key}`, expected: 'a non-empty string', found: value });
  return value;
}

function optionalNumber(object: Json, key: string, where: string, check: (value: number) => boolean, expected: string): number | undefined {
  const value = object[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || !check(value)) throw inputError({ where: `${where}.${key}`, expected, found: value });
  return value;
}

function parseCell(raw: unknown, where: string, defaults: { experiment?: string; replicates?: number }): PublishedCell {
  if (!isObject(raw)) throw inputError({ where, expected: 'an object describing one published cell', found: raw });
  const id = requireString(raw, 'id', where);
  const cellWhere = `${where} (${id})`;
  const experiment = raw.experiment === undefined ? defaults.experiment : raw.experiment;
  if (typeof experiment !== 'string' || experiment.length === 0) {
    throw inputError({ where: `${cellWhere}.experiment`, expected: "the results experiment name (here or as the file's experiment)", found: experiment });
  }
  const selector = raw.where;
  if (!isObject(selector) || Object.values(selector).some((value) => !['string', 'number', 'boolean'].includes(typeof value))) {
    throw inputError({ where: `${cellWhere}.where`, expected: 'an object of setting names to strings, numbers or booleans', found: selector });
  }
  const rule = raw.rule;
  if (typeof rule !== 'string' || !(comparisonRules as readonly string[]).includes(rule)) {
    throw inputError({ where: `${cellWhere}.rule`, expected: `one of ${comparisonRules.join(', ')}`, found: rule });
  }
  const value = raw.value;
  if (rule === 'label' ? typeof value !== 'string' : typeof value !== 'number' || !Number.isFinite(value)) {
    throw inputError({ where: `${cellWhere}.value`, expected: rule === 'label' ? 'a string (rule label)' : 'a finite number', found: value });
  }
  const plusMinusKind = raw.plusMinusKind;
  if (plusMinusKind !== undefined && plusMinusKind !== 'std' && plusMinusKind !== 'se') {
    throw inputError({ where: `${cellWhere}.plusMinusKind`, expected: '"std" or "se"', found: plusMinusKind });
  }
  const replicates = optionalNumber(raw, 'replicates', cellWhere, (n) => Number.isInteger(n) && n > 0, 'a positive integer') ?? defaults.replicates;
  if ((rule === 'mean' || rule === 'frequency') && replicates === undefined) {
    throw inputError({ where: `${cellWhere}.replicates`, expected: `the published run count (rule ${rule}; here or as the file's replicates)`, found: undefined });
  }
  const relativeTolerance = optionalNumber(raw, 'relativeTolerance', cellWhere, (n) => n >= 0, 'a number ≥ 0');
  if (rule === 'timing' && relativeTolerance === undefined && raw.tolerance === undefined) {
    throw inputError({ where: `${cellWhere}.relativeTolerance`, expected: 'a relative tolerance (rule timing)', found: undefined });
  }
  if (raw.regression !== undefined && typeof raw.regression !== 'boolean') {
    throw inputError({ where: `${cellWhere}.regression`, expected: 'true or false', found: raw.regression });
  }
  return {
    id,
    table: requireString(raw, 'table', cellWhere),
    row: requireString(raw, 'row', cellWhere),
    column: requireString(raw, 'column', cellWhere),
    experiment,
    where: selector as Record<string, SettingValue>,
    statistic: requireString(raw, 'statistic', cellWhere),
    value: value as number | string,
    plusMinus: optionalNumber(raw, 'plusMinus', cellWhere, (n) => n >= 0, 'a number ≥ 0'),
    plusMinusKind: plusMinusKind as 'std' | 'se' | undefined,
    replicates,
    rule: rule as ComparisonRule,
    rounding: optionalNumber(raw, 'rounding', cellWhere, (n) => n >= 0, 'a number ≥ 0 (unit of the last printed digit)'),
    tolerance: optionalNumber(raw, 'tolerance', cellWhere, (n) => n >= 0, 'a number ≥ 0'),
    relativeTolerance,
    regression: raw.regression as boolean | undefined,
    note: typeof raw.note === 'string' ? raw.note : undefined,
  };
}

/**
 * parsePublished(json, path) validates one published file's parsed JSON and fills
 * each cell's defaults (experiment, replicates) from the file. Throws InputError
 * naming the file, the cell id and the key. O(cells).
 */
export function parsePublished(json: unknown, path: string): PublishedFile {
  if (!isObject(json)) throw inputError({ where: path, expected: 'a JSON object with paper, citation and cells', found: json });
  const defaults = {
    experiment: typeof json.experiment === 'string' ? json.experiment : undefined,
    replicates: optionalNumber(json, 'replicates', path, (n) => Number.isInteger(n) && n > 0, 'a positive integer'),
  };
  if (!Array.isArray(json.cells)) throw inputError({ where: `${path}: cells`, expected: 'an array of published cells', found: json.cells });
  const cells = json.cells.map((cell, index) => parseCell(cell, `${path}: cells[${index}]`, defaults));
  const seen = new Set<string>();
  for (const cell of cells) {
    if (seen.has(cell.id)) throw inputError({ where: `${path}: cells`, expected: 'unique cell ids', found: cell.id });
    seen.add(cell.id);
  }
  return {
    path,
    paper: requireString(json, 'paper', path),
    citation: requireString(json, 'citation', path),
    source: typeof json.source === 'string' ? json.source : undefined,
    cells,
  };
}

/** loadPublishedFile(path) reads and validates one published JSON file. */
export function loadPublishedFile(path: string): PublishedFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw inputError({ where: path, expected: 'a readable published-numbers JSON file', found: 'no such file' });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw inputError({ where: path, expected: 'valid JSON', found: (error as Error).message });
  }
  return parsePublished(json, path);
}

/**
 * loadPublishedFolder(folder) reads every *.json file of a folder (sorted by name),
 * checking that cell ids are unique across files. A missing folder gives no files.
 */
export function loadPublishedFolder(folder: string): PublishedFile[] {
  let names: string[];
  try {
    if (!statSync(folder).isDirectory()) return [];
    names = readdirSync(folder).filter((name) => name.endsWith('.json')).sort();
  } catch {
    return [];
  }
  const files = names.map((name) => loadPublishedFile(join(folder, name)));
  const seen = new Map<string, string>();
  for (const file of files) {
    for (const cell of file.cells) {
      const earlier = seen.get(cell.id);
      if (earlier !== undefined) throw inputError({ where: `${file.path}: cells (${cell.id})`, expected: `an id not already used in ${earlier}`, found: cell.id });
      seen.set(cell.id, file.path);
    }
  }
  return files;
}
