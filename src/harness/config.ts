import { dirname, resolve } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { canonicalJson } from '../util/canonical-json.js';
import { closestName } from '../util/closest-name.js';
import { describeFound, InputError } from '../util/errors.js';
import { yamlDocumentToData } from '../util/parse-untrusted.js';
import { assertKeyPathSafe, assertPrototypeSafe, withoutPrototypes } from '../util/prototype-safe.js';
import { MAX_CONFIG_BYTES, readFileCapped } from '../util/read-capped.js';
import { formatPath, type Infer, type Schema, SchemaViolation, schema, schemaAt, validate } from '../util/schema.js';
import type { KindRunner } from './kind-runner.js';
import { findKindRunner, kindRunners } from './kind-runners.js';

/** The keys every config has, whatever its kind; `settings` and `grid` are checked per kind. */
export const envelopeSchema = schema.object(
  {
    experiment: schema.string({
      // At most 100 characters: it names a folder (a 300-character name was ENAMETOOLONG).
      pattern: /^[a-z0-9][a-z0-9._-]{0,99}$/,
      patternText:
        'lower-case letters, digits, ".", "_" and "-", starting with a letter or digit, at most 100 characters',
      description: 'Name of the experiment; results go to results/<experiment>/.',
    }),
    kind: schema.string({ description: 'The experiment kind (see the kinds below).' }),
    description: schema.optional(schema.string({ description: 'What the experiment is for, in a sentence.' })),
    seed: schema.seed({ description: 'Master seed; replicate r of a cell gets deriveSeed(seed, cell key, r).' }),
    replicates: schema.integer({
      minimum: 1,
      maximum: 100_000_000,
      default: 20,
      description: 'Replicates per cell (paper A uses 20).',
    }),
    chunkSize: schema.integer({
      minimum: 1,
      maximum: 1_000_000,
      default: 100,
      description:
        'Replicates per chunk: the unit of work sent to a worker, checkpointed, and dealt to shards. Changes no ' +
        'result.',
    }),
    settings: schema.optional(
      schema.object(
        {},
        {
          open: true,
          description: "The kind's settings (see the kind's table below); any key may be varied in `grid`.",
        },
      ),
    ),
    grid: schema.optional(
      schema.object(
        {},
        {
          open: true,
          description:
            'Settings to vary: a setting key (dotted for nested keys, e.g. pool.synthetic.size) mapped to a list ' +
            'of values. Cells are all combinations. ' +
            '`zip` (or any key starting with `zip`, e.g. zip-tolerances) links settings that move together: a ' +
            'list of mappings of the same setting keys, ' +
            'one cell per mapping instead of their product (e.g. zip: [{tolerance: 0.02, scoreTolerance: 0.02}, ' +
            '{tolerance: 0.05, scoreTolerance: 0.05}]).',
        },
      ),
    ),
  },
  { description: 'An experiment config.' },
);

type Envelope = Infer<typeof envelopeSchema>;

/**
 * One axis of the grid: a setting path and its values, in the order listed. A linked
 * axis (grid.zip) sets several settings at once: `linked` lists them (sorted), each
 * value is a mapping of those keys, and `key` is the grid key it was written under.
 */
export interface GridAxis {
  key: string;
  values: unknown[];
  linked?: string[];
}

/** isLinkedAxisKey(key): a grid key whose values are mappings of several settings (zip, zip-...). */
export function isLinkedAxisKey(key: string): boolean {
  return key === 'zip' || key.startsWith('zip-') || key.startsWith('zip_');
}

/** A cell of the grid: its coordinates (grid key → value) and its full, validated settings. */
export interface ConfigCell {
  coordinates: Record<string, unknown>;
  settings: Record<string, unknown>;
}

/**
 * Grids of at most this many cells are validated whole when the config is loaded, and
 * their cells are listed by `plan` and in run.json. A larger grid is validated axis by
 * axis when loaded (each value of each axis, with the other axes at their first value)
 * and cell by cell when a run reaches it, so loading and planning stay O(grid axes).
 */
export const EAGER_CELL_LIMIT = 10_000;

/** The most cells a grid may have: chunk indices are 32-bit in checkpoints. */
export const MAX_GRID_CELLS = 0xffff_ffff;

/** A loaded, validated experiment config; its cells are made from the grid axes on demand. */
export interface ExperimentConfig {
  /** The file as the user named it, for messages. */
  file: string;
  /** Its folder: relative paths in the settings are resolved against it. */
  baseDirectory: string;
  experiment: string;
  kind: string;
  description?: string;
  seed: string;
  replicates: number;
  chunkSize: number;
  /** The settings block as given (after --set overrides), without defaults. */
  settings: Record<string, unknown>;
  /** Grid axes sorted by key, so the plan does not depend on the order of keys in the YAML. */
  grid: GridAxis[];
  /** The number of cells: the product of the axes' lengths (1 without a grid). */
  cellCount: number;
  /**
   * cellAt(index) is cell `index` (the last axis in key order varying fastest): its
   * coordinates and full settings, validated (defaults filled). O(axes + settings);
   * throws InputError, located at the grid value, for a combination the kind refuses
   * (only possible beyond EAGER_CELL_LIMIT cells: smaller grids are checked on load).
   */
  cellAt(index: number): ConfigCell;
  /**
   * Every cell, made on first use: O(cells) time and memory, for code that knows its
   * grid is small. Code that must scale uses cellCount and cellAt.
   */
  readonly cells: ConfigCell[];
}

/** A `--set key=value` override, parsed. */
export interface Override {
  /** The path in the config object, e.g. ["settings", "budget"] or ["grid", "tolerance"]. */
  path: string[];
  value: unknown;
  /** The flag as the user wrote it, for messages. */
  flag: string;
}

const ENVELOPE_KEYS = Object.keys(envelopeSchema.properties);

/**
 * parseOverride(text) reads one `--set key=value` flag. The value is read as YAML
 * (`2000` is a number, `[0.02, 0.05]` a list, `eo` a string). Keys: a top-level key
 * (`replicates=1000`), a setting (`budget=2000`, `pool.synthetic.size=5000`, or
 * `settings.budget=2000`), or a grid axis (`grid.tolerance=[0.02,0.05]`, whose key
 * after `grid.` may itself be dotted). Throws InputError naming the flag, also for a
 * key path or value holding `__proto__`, `constructor` or `prototype`, and for YAML
 * aliases that expand too far.
 */
export function parseOverride(text: string): Override {
  const flag = `--set ${text}`;
  const equals = text.indexOf('=');
  if (equals <= 0) {
    throw new InputError(`${flag}: expected key=value (e.g. --set budget=2000), found ${describeFound(text)}`);
  }
  const key = text.slice(0, equals).trim();
  const rawValue = text.slice(equals + 1);
  const parts = key.split('.');
  if (parts.some((part) => part === '')) {
    throw new InputError(`${flag}: expected a dotted key like budget or grid.tolerance, found ${describeFound(key)}`);
  }
  // `--set __proto__.outDirectory=DIR` once wrote into Object.prototype and redirected a run.
  assertKeyPathSafe(parts, flag);
  const document = parseDocument(rawValue, { prettyErrors: false });
  const firstError = document.errors[0];
  if (firstError) {
    throw new InputError(
      `${flag}: expected a YAML value, found ${describeFound(rawValue)} (${firstError.message.split('\n')[0]})`,
    );
  }
  const value = yamlDocumentToData(document, flag);
  let path: string[];
  if (parts[0] === 'grid') {
    path = parts.length === 1 ? ['grid'] : ['grid', parts.slice(1).join('.')];
  } else if (parts[0] === 'settings' || !ENVELOPE_KEYS.includes(parts[0])) {
    path = parts[0] === 'settings' ? parts : ['settings', ...parts];
  } else {
    path = parts;
  }
  return { path, value, flag };
}

/** Sets a key path in plain data (its keys were checked by assertKeyPathSafe), making mappings without prototypes on
 * the way. */
function setIn(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let current = target;
  for (let i = 0; i < path.length - 1; i++) {
    const next = Object.hasOwn(current, path[i]) ? current[path[i]] : undefined;
    if (typeof next !== 'object' || next === null || Array.isArray(next)) current[path[i]] = Object.create(null);
    current = current[path[i]] as Record<string, unknown>;
  }
  current[path[path.length - 1]] = value;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every settable key path of a settings schema, dotted (for "did you mean" on grid keys). */
function settingPaths(s: Schema, prefix = ''): string[] {
  if (s.type !== 'object') return [prefix];
  const paths: string[] = prefix === '' ? [] : [prefix];
  for (const [key, property] of Object.entries(s.properties)) {
    paths.push(...settingPaths(property, prefix === '' ? key : `${prefix}.${key}`));
  }
  return paths;
}

/** Where a key path of a config is, for messages: "file:line: key.path", or the --set flag that set it. */
interface Locator {
  error(path: readonly (string | number)[], expected: string, found: string): InputError;
}

/** The --set override that set a key path, if any. */
function overrideAt(overrides: readonly Override[], path: readonly (string | number)[]): Override | undefined {
  return overrides.find((o) => o.path.every((part, i) => path[i] === part));
}

/** Locates keys of a YAML file by line, or as the --set flag that set them. */
class YamlLocator implements Locator {
  private readonly lines = new LineCounter();
  private readonly document: ReturnType<typeof parseDocument>;
  constructor(
    private readonly file: string,
    text: string,
    private readonly overrides: readonly Override[],
  ) {
    this.document = parseDocument(text, { lineCounter: this.lines, uniqueKeys: true, prettyErrors: false });
  }

  /** The document as plain values; throws InputError naming the line of the first YAML error. */
  toJS(): unknown {
    const firstError = this.document.errors[0];
    if (firstError) {
      throw new InputError(
        `${this.file}:${this.lines.linePos(firstError.pos[0]).line}: expected valid YAML, ` +
          `found ${firstError.message.split('\n')[0]}`,
      );
    }
    // Without prototypes; __proto__, constructor and prototype refused; aliases capped (billion laughs).
    return yamlDocumentToData(this.document, this.file);
  }

  where(path: readonly (string | number)[]): string {
    const override = overrideAt(this.overrides, path);
    if (override) return `${override.flag}: ${formatPath(path)}`;
    for (let length = path.length; length >= 0; length--) {
      const node = this.document.getIn(path.slice(0, length), true) as { range?: [number, number, number] } | undefined;
      if (node && typeof node === 'object' && node.range) {
        // A key the file does not have, below one it has, was made by the --set flag whose path passes through it.
        const maker =
          length < path.length
            ? this.overrides.find(
                (o) => o.path.length > length && path.slice(0, length + 1).every((p, i) => o.path[i] === p),
              )
            : undefined;
        if (maker) return `${maker.flag}: ${formatPath(path)}`;
        return `${this.file}:${this.lines.linePos(node.range[0]).line}: ${formatPath(path)}`;
      }
    }
    return `${this.file}: ${formatPath(path)}`;
  }

  error(path: readonly (string | number)[], expected: string, found: string): InputError {
    return new InputError(`${this.where(path)}: expected ${expected}, found ${found}`);
  }
}

/** Locates keys of a config object built in code: "file: key.path", or the --set flag. */
function objectLocator(file: string, overrides: readonly Override[]): Locator {
  return {
    error(path, expected, found) {
      const override = overrideAt(overrides, path);
      const where = override ? `${override.flag}: ${formatPath(path)}` : `${file}: ${formatPath(path)}`;
      return new InputError(`${where}: expected ${expected}, found ${found}`);
    },
  };
}

/**
 * loadConfig(file, overrides) reads an experiment config: parses the YAML, applies
 * `--set` overrides, validates the envelope against envelopeSchema and every cell's
 * settings against its kind's schema (defaults filled in), and expands the grid.
 * Throws InputError naming the file and line (or the --set flag), the key path,
 * what was expected and what was found, with a "did you mean" for misspellings.
 * Runs in O(size of the file + cells × size of the settings).
 * @param file the YAML config
 * @param overrides --set overrides, applied before validation
 * @returns the validated experiment config
 * @example
 * const config = loadConfig('configs/quickstart.yaml');
 */
export function loadConfig(file: string, overrides: readonly Override[] = []): ExperimentConfig {
  return parseConfig(readConfigText(file), file, overrides);
}

/** The config file's text, at most MAX_CONFIG_BYTES (a 45 MB "config" is refused, not echoed). */
function readConfigText(file: string): string {
  return readFileCapped(file, MAX_CONFIG_BYTES, 'a readable YAML config file').toString('utf8');
}

/**
 * parseConfig(text, file, overrides) is loadConfig on YAML text already in hand;
 * `file` names it in messages and its folder resolves relative paths.
 */
export function parseConfig(text: string, file: string, overrides: readonly Override[] = []): ExperimentConfig {
  const locator = new YamlLocator(file, text, overrides);
  return buildConfig(locator.toJS() ?? {}, file, overrides, locator);
}

/**
 * readConfigObject(file) reads a YAML config as a plain object, unvalidated, for code
 * that builds an experiment on it (a reproduction fills in its pool files) and then
 * validates the result with configFromObject. Throws InputError for unreadable or
 * invalid YAML.
 */
export function readConfigObject(file: string): Record<string, unknown> {
  const raw = new YamlLocator(file, readConfigText(file), []).toJS() ?? {};
  if (!isMapping(raw))
    throw new InputError(
      `${file}: expected a YAML mapping of keys (experiment, kind, seed, ...), found ${describeFound(raw)}`,
    );
  return raw;
}

/**
 * configFromObject(raw, file, overrides) validates a config built in code, as a value
 * (never as YAML text), through the same path as a YAML file: `--set` overrides,
 * envelopeSchema, the kind's settings schema for every cell of the grid. `file` names
 * it in messages ("file: key.path") and in run.json; its folder resolves relative
 * paths unless `options.baseDirectory` names another (a results folder whose pool files
 * the config names relative to it). The object is copied without prototypes (`__proto__`, `constructor` and
 * `prototype` keys refused). Throws InputError like loadConfig.
 * @param raw the config as an object (a parsed YAML document)
 * @param file names the config in messages, and is where relative paths start
 * @param overrides --set overrides, applied before validation
 * @param options baseDirectory: where the config's relative paths start, when not the file's folder
 * @returns the validated experiment config
 * @example
 * const config = configFromObject({ experiment: 'coins', kind: 'coin', seed: 1, replicates: 100, settings: {} },
 * 'coins.yaml');
 */
export function configFromObject(
  raw: Record<string, unknown>,
  file: string,
  overrides: readonly Override[] = [],
  options: { baseDirectory?: string } = {},
): ExperimentConfig {
  assertPrototypeSafe(raw, file);
  const config = buildConfig(withoutPrototypes(structuredClone(raw)), file, overrides, objectLocator(file, overrides));
  return options.baseDirectory === undefined ? config : { ...config, baseDirectory: resolve(options.baseDirectory) };
}

/** The stages shared by YAML and objects: overrides → envelope → kind → grid → cells. */
function buildConfig(raw: unknown, file: string, overrides: readonly Override[], locator: Locator): ExperimentConfig {
  if (!isMapping(raw))
    throw locator.error([], 'a YAML mapping of keys (experiment, kind, seed, ...)', describeFound(raw));
  for (const override of overrides) setIn(raw, override.path, override.value);
  const envelope = validateEnvelope(raw, locator);
  const kind = kindOf(envelope.kind, locator);
  const settings = isMapping(raw.settings) ? raw.settings : {};
  const grid = readGrid(isMapping(raw.grid) ? raw.grid : {}, kind, locator);
  const cells = gridCells(settings, grid, kind, locator);
  const config: Omit<ExperimentConfig, 'cells'> = {
    file,
    baseDirectory: dirname(resolve(file)),
    experiment: envelope.experiment,
    kind: envelope.kind,
    ...(envelope.description === undefined ? {} : { description: envelope.description }),
    seed: envelope.seed,
    replicates: envelope.replicates,
    chunkSize: envelope.chunkSize,
    settings,
    grid,
    cellCount: cells.count,
    cellAt: cells.at,
  };
  let all: ConfigCell[] | undefined;
  return Object.defineProperty(config, 'cells', {
    enumerable: true,
    get: () => {
      all ??= Array.from({ length: cells.count }, (_, index) => cells.at(index));
      return all;
    },
  }) as ExperimentConfig;
}

function validateEnvelope(raw: Record<string, unknown>, locator: Locator): Envelope {
  try {
    return validate(raw, envelopeSchema);
  } catch (error) {
    // settings and grid are open mappings here (only their type is checked); their
    // contents are checked per kind below.
    if (!(error instanceof SchemaViolation)) throw error;
    throw locator.error(error.problem.path, error.problem.expected, error.problem.found);
  }
}

function kindOf(name: string, locator: Locator): KindRunner {
  const kind = findKindRunner(name);
  if (kind) return kind;
  const names = kindRunners().map((k) => k.name);
  const hint = closestName(name, names);
  throw locator.error(
    ['kind'],
    `one of the ` +
      `kinds ${names.map((n) => JSON.stringify(n)).join(', ')}${
        hint ? ` (did you ` + `mean ${JSON.stringify(hint)}?)` : ''
      }`,
    describeFound(name),
  );
}

function readGrid(rawGrid: Record<string, unknown>, kind: KindRunner, locator: Locator): GridAxis[] {
  const known = settingPaths(kind.settings);
  const axes: GridAxis[] = [];
  for (const [key, values] of Object.entries(rawGrid)) {
    if (isLinkedAxisKey(key)) {
      axes.push(readLinkedAxis(key, values, kind, known, locator));
      continue;
    }
    const keySchema = schemaAt(kind.settings, key.split('.'));
    if (!keySchema) {
      const hint = closestName(key, known);
      throw locator.error(
        ['grid', key],
        `a setting of ` +
          `kind ${kind.name}${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ` (one of ${known.join(', ')})`}`,
        `the unknown key ${JSON.stringify(key)}`,
      );
    }
    if (!Array.isArray(values) || values.length === 0) {
      throw locator.error(['grid', key], 'a non-empty list of values', describeFound(values));
    }
    const seen = new Map<string, number>();
    values.forEach((value, index) => {
      const text = canonicalJson(value);
      const earlier = seen.get(text);
      if (earlier !== undefined) {
        throw locator.error(
          ['grid', key, index],
          `values different from one another (the same as item ${earlier})`,
          describeFound(value),
        );
      }
      seen.set(text, index);
    });
    axes.push({ key, values });
  }
  const varied = new Map<string, string>();
  for (const axis of axes) {
    for (const setting of axis.linked ?? [axis.key]) {
      const other = varied.get(setting);
      if (other !== undefined) {
        throw locator.error(
          ['grid', axis.key],
          `each setting varied by one axis only`,
          `${setting} also in grid.${other}`,
        );
      }
      varied.set(setting, axis.key);
    }
  }
  return axes.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * readLinkedAxis(key, values, kind, known, locator) reads grid.zip: a non-empty list of
 * mappings with the same setting keys (each a setting of the kind), no two alike.
 * Throws InputError at grid.zip[index] naming what was expected and found.
 */
function readLinkedAxis(
  key: string,
  values: unknown,
  kind: KindRunner,
  known: readonly string[],
  locator: Locator,
): GridAxis {
  if (!Array.isArray(values) || values.length === 0) {
    throw locator.error(['grid', key], 'a non-empty list of mappings of setting keys to values', describeFound(values));
  }
  let linked: string[] | null = null;
  const seen = new Map<string, number>();
  values.forEach((value, index) => {
    if (!isMapping(value) || Object.keys(value).length === 0) {
      throw locator.error(['grid', key, index], 'a mapping of setting keys to values', describeFound(value));
    }
    const keys = Object.keys(value).sort();
    for (const setting of keys) {
      if (!schemaAt(kind.settings, setting.split('.'))) {
        const hint = closestName(setting, known);
        throw locator.error(
          ['grid', key, index, setting],
          `a setting of kind ${kind.name}${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ''}`,
          `the unknown key ${JSON.stringify(setting)}`,
        );
      }
    }
    if (linked === null) linked = keys;
    else if (keys.join('\u0000') !== linked.join('\u0000')) {
      throw locator.error(['grid', key, index], `the same keys as item 0 (${linked.join(', ')})`, keys.join(', '));
    }
    const text = canonicalJson(value);
    const earlier = seen.get(text);
    if (earlier !== undefined) {
      throw locator.error(
        ['grid', key, index],
        `values different from one another (the same as item ${earlier})`,
        describeFound(value),
      );
    }
    seen.set(text, index);
  });
  return { key, values, linked: linked ?? [] };
}

/** The cells of a grid, made from its axes on demand. */
interface GridCells {
  count: number;
  at(index: number): ConfigCell;
}

/** How many recently made cells a lazy grid keeps (runs read the cells in order, chunk after chunk). */
const CELL_CACHE_SIZE = 256;

/**
 * gridCells(settings, grid, kind, locator) is every combination of the grid axes (the
 * last axis in key order varying fastest), each merged into the settings and
 * validated; an error inside a grid value is reported at grid.<key>[index]. A grid of
 * at most EAGER_CELL_LIMIT cells is validated whole now (O(cells)); a larger one each
 * value of each axis now (O(sum of the axes' lengths)) and each cell when asked for,
 * keeping the last CELL_CACHE_SIZE cells made. Throws InputError for a grid of more
 * than MAX_GRID_CELLS cells.
 */
function gridCells(
  settings: Record<string, unknown>,
  grid: readonly GridAxis[],
  kind: KindRunner,
  locator: Locator,
): GridCells {
  const count = grid.reduce((product, axis) => product * axis.values.length, 1);
  if (count > MAX_GRID_CELLS) {
    throw locator.error(
      ['grid'],
      `at most ${MAX_GRID_CELLS} cells (the product of the axes' lengths)`,
      `${count} cells`,
    );
  }
  const make = (index: number) => validateCell(settings, grid, kind, locator, index);
  if (count <= EAGER_CELL_LIMIT) {
    const cells = Array.from({ length: count }, (_, index) => make(index));
    return { count, at: (index) => cells[index] };
  }
  let stride = count;
  for (const axis of grid) {
    stride /= axis.values.length;
    for (let i = 0; i < axis.values.length; i++) make(i * stride);
  }
  const recent = new Map<number, ConfigCell>();
  return {
    count,
    at(index) {
      let cell = recent.get(index);
      if (cell === undefined) {
        cell = make(index);
        if (recent.size >= CELL_CACHE_SIZE) recent.delete(recent.keys().next().value as number);
        recent.set(index, cell);
      }
      return cell;
    },
  };
}

/** Cell `index` of the grid: its coordinates, and the settings with them merged in, validated. O(axes + settings). */
function validateCell(
  settings: Record<string, unknown>,
  grid: readonly GridAxis[],
  kind: KindRunner,
  locator: Locator,
  index: number,
): ConfigCell {
  const merged = structuredClone(settings);
  const coordinates: Record<string, unknown> = {};
  const valueIndex: Record<string, number> = {};
  let rest = index;
  for (let a = grid.length - 1; a >= 0; a--) {
    const axis = grid[a];
    const i = rest % axis.values.length;
    rest = Math.floor(rest / axis.values.length);
    valueIndex[axis.key] = i;
    if (axis.linked === undefined) coordinates[axis.key] = axis.values[i];
    else for (const key of axis.linked) coordinates[key] = (axis.values[i] as Record<string, unknown>)[key];
  }
  for (const axis of grid) {
    for (const key of axis.linked ?? [axis.key]) setIn(merged, key.split('.'), structuredClone(coordinates[key]));
  }
  try {
    return { coordinates, settings: validate(merged, kind.settings, ['settings']) as Record<string, unknown> };
  } catch (error) {
    if (!(error instanceof SchemaViolation)) throw error;
    const path = error.problem.path.slice(1).map(String);
    const settingOf = (g: GridAxis) =>
      (g.linked ?? [g.key]).find((key) => key.split('.').every((part, i) => path[i] === part));
    const axis = grid.find((g) => settingOf(g) !== undefined);
    const setting = axis === undefined ? undefined : settingOf(axis);
    const located =
      axis === undefined || setting === undefined
        ? error.problem.path
        : [
            'grid',
            axis.key,
            valueIndex[axis.key],
            ...(axis.linked === undefined ? [] : [setting]),
            ...error.problem.path.slice(1 + setting.split('.').length),
          ];
    throw locator.error(located, error.problem.expected, error.problem.found);
  }
}
