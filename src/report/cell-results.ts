/**
 * What the reporter hands to an experiment kind's summariser: the replicate rows of
 * one cell of the plan, with the cell's settings.
 */

/** A setting value as it appears in a plan cell or a results column. */
export type SettingValue = string | number | boolean;

/**
 * One replicate row of results.arrow as a plain record: utf8 columns become strings,
 * integer and float columns numbers (int64 converted to number), nulls null.
 */
export type ResultRow = Record<string, string | number | boolean | null>;

/** The replicate rows of one cell. */
export interface CellResults {
  /** The canonical cell key (results column `cell`). */
  cell: string;
  /**
   * The cell's settings: the varying-setting columns of results.arrow merged with the
   * plan's settings from run.json, keys with "." replaced by "_" (the results column
   * naming rule of docs/contracts.md).
   */
  settings: Record<string, SettingValue>;
  /** Replicate rows in replicate order. */
  rows: ResultRow[];
}

/** A cell's summary: its settings, its replicate count and the kind's statistics. */
export interface CellSummary {
  cell: string;
  settings: Record<string, SettingValue>;
  replicates: number;
  /** Keyed by the kind's summary column names. */
  values: Record<string, string | number | null>;
}

/** settingKey(key) applies the results column naming rule: "." becomes "_". */
export function settingKey(key: string): string {
  return key.replaceAll('.', '_');
}

/**
 * settingMatches(actual, wanted) compares a cell's setting with a selector's value:
 * equal numbers (so 0.05 matches "0.05"), otherwise equal strings. O(1).
 */
export function settingMatches(actual: SettingValue | undefined, wanted: SettingValue): boolean {
  if (actual === undefined) return false;
  if (actual === wanted) return true;
  const a = Number(actual);
  const w = Number(wanted);
  if (typeof actual !== 'boolean' && typeof wanted !== 'boolean' && actual !== '' && wanted !== '') {
    if (Number.isFinite(a) && Number.isFinite(w)) return a === w;
  }
  return String(actual) === String(wanted);
}

/**
 * findCells(summaries, where) returns the summaries whose settings match every key of
 * `where` (keys "." → "_"). O(cells × keys).
 */
export function findCells(summaries: CellSummary[], where: Record<string, SettingValue>): CellSummary[] {
  const entries = Object.entries(where).map(([key, value]) => [settingKey(key), value] as const);
  return summaries.filter((summary) => entries.every(([key, value]) => settingMatches(summary.settings[key], value)));
}
