import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { inputError } from '../util/errors.js';
import { parseJsonUntrusted } from '../util/parse-untrusted.js';
import { MAX_JSON_FILE_BYTES, readFileCapped } from '../util/read-capped.js';
import type { SettingValue } from './cell-results.js';

/**
 * What a published cell is, which decides how it is compared (docs/report.md):
 * - mean: a Monte Carlo mean (optionally with its printed std or se);
 * - frequency: a share of replicates;
 * - analytic: a number computed once (compared up to its rounding);
 * - modal-decision, label: a categorical entry ("reject"), compared ignoring case;
 * - derived: follows from another published cell (a label when text, else analytic);
 * - timing: a measured time or size, compared with a relative tolerance.
 */
export const publishedKinds = [
  'mean',
  'frequency',
  'analytic',
  'modal-decision',
  'label',
  'derived',
  'timing',
] as const;
export type PublishedKind = (typeof publishedKinds)[number];

/** One published number, citing where it is printed. */
export interface PublishedCell {
  /** Unique id across all published files ("table2/acs/robust-base/decision/queries"). */
  id: string;
  /** Where it is printed: "Table 2" or "Figure 1". */
  table: string;
  /** The row as printed: text, or labels by header ({"dataset": "ACS", "model": "Robust-Base"}). */
  row: string | Record<string, string>;
  column: string;
  kind: PublishedKind;
  /** A paper-neutral name of what is measured ("mean-queries", "reject-frequency"). */
  quantity?: string;
  /** The printed value: a number, or text for categorical kinds. */
  value: number | string;
  /** The printed ± as a standard deviation over replicates, or as a standard error. */
  std?: number;
  se?: number;
  /** Runs behind the published value (defaults to the file's `replicates`). */
  replicates?: number;
  /** Largest error the printing can hide: half a unit of the last digit (0.005 for "0.75"). */
  rounding?: number;
  /** An explicit absolute tolerance, overriding the kind's. */
  tolerance?: number;
  /** Allowed |diff| / |published| (required for kind timing; overrides otherwise). */
  relativeTolerance?: number;
  /** When true, `fairaudit compare` exits 1 if this cell is out of tolerance or missing. */
  regression?: boolean;
  /** results/<experiment> that reproduces it (defaults to the file's `experiment`). */
  experiment?: string;
  /** Settings selecting the summarised cell ({"dataset": "acs", "metric": "sp"}). */
  where?: Record<string, SettingValue>;
  /** The summary column compared; defaults to the experiment kind's mapping of `quantity`. */
  statistic?: string;
  /** Descriptive labels of the cell kept as written (metric, access, method, ...). */
  labels: Record<string, string>;
  cite?: string;
  note?: string;
}

/** A published-numbers file (papers/<paper>/published.json): one paper's numbers. */
export interface PublishedFile {
  /** The file it was read from. */
  path: string;
  /** Short paper id ("A") and title. */
  paper: string;
  title?: string;
  cells: PublishedCell[];
}

type Json = Record<string, unknown>;

const descriptiveKeys = ['metric', 'access', 'method', 'dataset', 'model', 'paper'];

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requireString(object: Json, key: string, where: string): string {
  const value = object[key];
  if (typeof value !== 'string' || value.length === 0)
    throw inputError({ where: `${where}.${key}`, expected: 'a non-empty string', found: value });
  return value;
}

function optionalString(object: Json, key: string, where: string): string | undefined {
  const value = object[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw inputError({ where: `${where}.${key}`, expected: 'a string', found: value });
  return value;
}

function optionalNumber(
  object: Json,
  key: string,
  where: string,
  check: (value: number) => boolean,
  expected: string,
): number | undefined {
  const value = object[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || !check(value))
    throw inputError({ where: `${where}.${key}`, expected, found: value });
  return value;
}

const nonNegative = (n: number) => n >= 0;
const positiveInteger = (n: number) => Number.isInteger(n) && n > 0;

function parseRow(raw: unknown, where: string): string | Record<string, string> {
  if (typeof raw === 'string' && raw.length > 0) return raw;
  if (isObject(raw) && Object.values(raw).every((value) => typeof value === 'string'))
    return raw as Record<string, string>;
  throw inputError({ where, expected: 'the row as printed: a string or an object of strings', found: raw });
}

function parseCell(raw: unknown, where: string, defaults: { experiment?: string; replicates?: number }): PublishedCell {
  if (!isObject(raw)) throw inputError({ where, expected: 'an object describing one published cell', found: raw });
  const id = requireString(raw, 'id', where);
  const at = `${where} (${id})`;
  const kind = raw.kind;
  if (typeof kind !== 'string' || !(publishedKinds as readonly string[]).includes(kind)) {
    throw inputError({ where: `${at}.kind`, expected: `one of ${publishedKinds.join(', ')}`, found: kind });
  }
  const value = raw.value;
  const categorical = kind === 'modal-decision' || kind === 'label';
  const valueOk = categorical
    ? typeof value === 'string'
    : kind === 'derived'
      ? typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))
      : typeof value === 'number' && Number.isFinite(value);
  if (!valueOk)
    throw inputError({
      where: `${at}.value`,
      expected: categorical ? `a string (kind ${kind})` : 'a finite number',
      found: value,
    });
  const replicates =
    optionalNumber(raw, 'replicates', at, positiveInteger, 'a positive integer') ?? defaults.replicates;
  if ((kind === 'mean' || kind === 'frequency') && replicates === undefined) {
    throw inputError({
      where: `${at}.replicates`,
      expected: `the published run count (kind ${kind}; here or as the file's replicates)`,
      found: undefined,
    });
  }
  const relativeTolerance = optionalNumber(raw, 'relativeTolerance', at, nonNegative, 'a number ≥ 0');
  const tolerance = optionalNumber(raw, 'tolerance', at, nonNegative, 'a number ≥ 0');
  if (kind === 'timing' && relativeTolerance === undefined && tolerance === undefined) {
    throw inputError({
      where: `${at}.relativeTolerance`,
      expected: 'a relative (or absolute) tolerance for kind timing',
      found: undefined,
    });
  }
  if (raw.regression !== undefined && typeof raw.regression !== 'boolean') {
    throw inputError({ where: `${at}.regression`, expected: 'true or false', found: raw.regression });
  }
  const selector = raw.where;
  if (
    selector !== undefined &&
    (!isObject(selector) || Object.values(selector).some((v) => !['string', 'number', 'boolean'].includes(typeof v)))
  ) {
    throw inputError({
      where: `${at}.where`,
      expected: 'an object of setting names to strings, numbers or booleans',
      found: selector,
    });
  }
  const labels: Record<string, string> = {};
  for (const key of descriptiveKeys) if (typeof raw[key] === 'string') labels[key] = raw[key] as string;
  return {
    id,
    table: requireString(raw, 'table', at),
    row: parseRow(raw.row, `${at}.row`),
    column: requireString(raw, 'column', at),
    kind: kind as PublishedKind,
    quantity: optionalString(raw, 'quantity', at),
    value: value as number | string,
    std: optionalNumber(raw, 'std', at, nonNegative, 'a standard deviation ≥ 0'),
    se: optionalNumber(raw, 'se', at, nonNegative, 'a standard error ≥ 0'),
    replicates,
    rounding: optionalNumber(raw, 'rounding', at, nonNegative, 'a number ≥ 0 (half a unit of the last printed digit)'),
    tolerance,
    relativeTolerance,
    regression: raw.regression as boolean | undefined,
    experiment: optionalString(raw, 'experiment', at) ?? defaults.experiment,
    where: selector as Record<string, SettingValue> | undefined,
    statistic: optionalString(raw, 'statistic', at),
    labels,
    cite: optionalString(raw, 'cite', at),
    note: optionalString(raw, 'note', at),
  };
}

/**
 * parsePublished(json, path) validates one published file's parsed JSON and fills
 * each cell's defaults (experiment, replicates) from the file's top level (or its
 * `settings.replicates`). Throws InputError naming the file, the cell and the key.
 * O(cells).
 */
export function parsePublished(json: unknown, path: string): PublishedFile {
  if (!isObject(json)) throw inputError({ where: path, expected: 'a JSON object with paper and cells', found: json });
  let paper: string;
  let title: string | undefined;
  if (isObject(json.paper)) {
    paper = requireString(json.paper, 'id', `${path}: paper`);
    title = optionalString(json.paper, 'title', `${path}: paper`);
  } else {
    paper = requireString(json, 'paper', path);
    title = optionalString(json, 'title', path);
  }
  const settings = isObject(json.settings) ? json.settings : {};
  const defaults = {
    experiment: optionalString(json, 'experiment', path),
    replicates:
      optionalNumber(json, 'replicates', path, positiveInteger, 'a positive integer') ??
      optionalNumber(settings, 'replicates', `${path}: settings`, positiveInteger, 'a positive integer'),
  };
  if (!Array.isArray(json.cells))
    throw inputError({ where: `${path}: cells`, expected: 'an array of published cells', found: json.cells });
  const cells = json.cells.map((cell, index) => parseCell(cell, `${path}: cells[${index}]`, defaults));
  const seen = new Set<string>();
  for (const cell of cells) {
    if (seen.has(cell.id)) throw inputError({ where: `${path}: cells`, expected: 'unique cell ids', found: cell.id });
    seen.add(cell.id);
  }
  return { path, paper, title, cells };
}

/** loadPublishedFile(path) reads and validates one published JSON file. */
export function loadPublishedFile(path: string): PublishedFile {
  const text = readFileCapped(path, MAX_JSON_FILE_BYTES, 'a readable published-numbers JSON file').toString('utf8');
  return parsePublished(parseJsonUntrusted(text, path), path);
}

/**
 * loadPublishedNumbers(path, where) reads published numbers from a folder of JSON
 * files or from one JSON file that the user named (the --published flag): throws
 * InputError naming `where` when the path does not exist.
 */
export function loadPublishedNumbers(path: string, where: string): PublishedFile[] {
  let isFolder: boolean;
  try {
    isFolder = statSync(path).isDirectory();
  } catch {
    throw inputError({ where, expected: 'a folder of published-number JSON files, or one such file', found: path });
  }
  return isFolder ? loadPublishedFolder(path) : [loadPublishedFile(path)];
}

/**
 * loadPublishedFolder(folder) reads every *.json file of a folder (sorted by name),
 * checking that cell ids are unique across files. A missing folder gives no files.
 */
export function loadPublishedFolder(folder: string): PublishedFile[] {
  let names: string[];
  try {
    if (!statSync(folder).isDirectory()) return [];
    names = readdirSync(folder)
      .filter((name) => name.endsWith('.json'))
      .sort();
  } catch {
    return [];
  }
  return loadPublishedFiles(names.map((name) => join(folder, name)));
}

/**
 * loadPublishedFiles(paths) reads the published-number files in the order given,
 * checking that cell ids are unique across them. Throws InputError naming the file.
 */
export function loadPublishedFiles(paths: readonly string[]): PublishedFile[] {
  const files = paths.map((path) => loadPublishedFile(path));
  const seen = new Map<string, string>();
  for (const file of files) {
    for (const cell of file.cells) {
      const earlier = seen.get(cell.id);
      if (earlier !== undefined)
        throw inputError({
          where: `${file.path}: cells (${cell.id})`,
          expected: `an id not already used in ${earlier}`,
          found: cell.id,
        });
      seen.set(cell.id, file.path);
    }
  }
  return files;
}

/** rowText(row) renders a printed row for tables: "ACS / Robust-Base". */
export function rowText(row: string | Record<string, string>): string {
  return typeof row === 'string' ? row : Object.values(row).join(' / ');
}
