import type { Random } from '../util/random.js';
import type { ObjectSchema } from '../util/schema.js';

/** The Arrow type of a result column: text, 32-bit integer, 64-bit float, or boolean. */
export type ColumnType = 'utf8' | 'int32' | 'float64' | 'bool';

/** A value of a result column, as JavaScript holds it. */
export type ColumnValue = string | number | boolean;

/** One outcome column of an experiment kind: its name in results.arrow, type and meaning. */
export interface OutcomeColumn {
  readonly name: string;
  readonly type: ColumnType;
  readonly description: string;
  /**
   * Optional, utf8 columns: every value the column may hold (an enum such as reject,
   * accept, inconclusive). Resume, merge, report and compare refuse any other value
   * with exit 2; run.json records the list.
   */
  readonly values?: readonly string[];
}

/** Where a kind's settings come from, for error messages and relative paths. */
export interface SettingsOrigin {
  /** The config file (as the user named it), for messages. */
  readonly configFile: string;
  /** The folder that relative paths in the settings are resolved against. */
  readonly baseDirectory: string;
}

/**
 * The run half of an experiment kind (src/kinds/kind.ts pairs it with its report
 * half): what one replicate of an experiment is. The harness knows experiments only
 * through this interface (a task in, a row out). A kind runner declares
 * - `settings`: the schema of its settings block (types, defaults, ranges, docs);
 * - `outcomeColumns`: the columns each replicate adds to results.arrow;
 * - `contextKey` + `prepare`: the shared, read-only context of a cell (a loaded or
 *   generated pool, a prepared audit), made once per worker per key and reused by
 *   every replicate of every cell with that key;
 * - `runReplicate`: one replicate from (context, settings, a seeded Random) to a row.
 * Before anything is written, a worker thread prepares every context key the run
 * needs once (the main thread never does), so bad input (a missing pool file, an
 * empty group) stops the run with exit 2 and an untouched output folder.
 */
export interface KindRunner<Settings = Record<string, unknown>, Context = unknown> {
  readonly name: string;
  readonly description: string;
  /**
   * `import.meta.url` of the module that exports this runner: a worker thread imports
   * that module alone (never a registry of every kind), so it loads only this kind's
   * dependencies. Inside the package a .ts module maps to its compiled dist/ file.
   */
  readonly module: string;
  // biome-ignore lint/suspicious/noExplicitAny: each kind has its own settings properties
  readonly settings: ObjectSchema<any>;
  readonly outcomeColumns: readonly OutcomeColumn[];
  /** The part of the settings that determines the context; equal keys share one context. */
  contextKey(settings: Settings): string;
  /** Builds the shared context; throws InputError for bad input. */
  prepare(settings: Settings, origin: SettingsOrigin): Promise<Context>;
  /** Runs one replicate; must draw all randomness from `random`. */
  runReplicate(context: Context, settings: Settings, random: Random): Record<string, ColumnValue>;
  /**
   * Optional work on the main thread before any worker starts, given every cell's
   * settings: filling a cache the cells' contexts then read (the sequential-audit kind
   * calibrates thresholds on worker threads of its own here). It must not change what
   * runReplicate computes (the cache holds what prepare would compute itself); throw
   * InputError for bad input (nothing is written yet).
   */
  beforeRun?(
    cells: readonly Settings[],
    origin: SettingsOrigin,
    options: { readonly threads?: number; readonly onNotice?: (notice: string) => void },
  ): Promise<void>;
  /**
   * Settings recorded as a result column whenever a cell sets them, even when the grid
   * does not vary them (e.g. which test ran); a setting no cell sets adds no column, so
   * runs that do not use it keep their bytes.
   */
  readonly recordedSettings?: readonly string[];
  /**
   * ignoredSetting?(key, settings) says why a cell with these settings ignores the
   * setting `key` (e.g. "score access tests against scoreTolerance"), or null when the
   * setting can change the cell's audits; `plan` warns of a grid axis some cells ignore.
   */
  ignoredSetting?(key: string, settings: Record<string, unknown>): string | null;
  /**
   * A short label for a grid value of an object-valued setting (e.g. a pool's name),
   * used in the setting's result column; defaults to the value's canonical JSON.
   */
  labelOf?(key: string, value: unknown): string | undefined;
  /**
   * Why row `row` of these outcome columns cannot be what runReplicate computes for a cell
   * with these settings (a value outside its domain, a decision its statistic and the
   * cell's thresholds do not give), or null. Every reader of rows (resume, merge, report,
   * compare) refuses such a row: a checksum recomputed over edited values still leaves
   * them inconsistent with what re-derives.
   */
  rowProblem?(
    settings: Readonly<Record<string, unknown>>,
    columns: Readonly<Record<string, ArrayLike<number | string>>>,
    row: number,
  ): string | null;
}
