import { inputError } from '../util/errors.js';
import { createRandom, deriveSeed } from '../util/random.js';
import type { DatasetTable, ProtectedAttribute } from './dataset-table.js';
import { applyPreprocessor, fitPreprocessor, type Preprocessor } from './preprocessor.js';
import { stratifiedSplit } from './stratified-split.js';
import type { TabularData } from './tabular.js';

/**
 * The two split schemes of the papers.
 * - "paper-a": a train/test split (default 70/30, stratified by the label); the test
 *   part is the audit pool.
 * - "paper-b": a candidate set (default 45% of the rows, Table 2's N) drawn from the
 *   data, the rest for training, and an audit set (default half of the candidate set,
 *   Table 2's n) drawn from the candidate set; both draws stratified by the protected
 *   group.
 */
export type SplitScheme = 'paper-a' | 'paper-b';

/** What a split is stratified by. */
export type Stratification = 'label' | 'group' | 'none';

export interface SplitOptions {
  readonly scheme: SplitScheme;
  /** The split's seed; the draw also depends on the dataset's name and the scheme. */
  readonly seed: number | string;
  /** The protected attribute ("sex", "gender", "race", ...); default: the dataset's default. */
  readonly protectedAttribute?: string;
  /** The held-out fraction: paper A's test part (0.3) or paper B's candidate set (0.45). */
  readonly heldOutFraction?: number;
  /** Paper B: the audit set's fraction of the candidate set (default 0.5). */
  readonly auditFraction?: number;
  /** Default: "label" for paper A, "group" for paper B. */
  readonly stratifyBy?: Stratification;
  /** Drop the protected attribute's column from the features (default: as the papers do for the dataset). */
  readonly dropProtectedColumn?: boolean;
  /** Standardise numeric features (default true). */
  readonly standardize?: boolean;
}

/** Default fractions of the two schemes. */
export const SPLIT_DEFAULTS = {
  'paper-a': { heldOutFraction: 0.3, stratifyBy: 'label' as Stratification },
  'paper-b': { heldOutFraction: 0.45, auditFraction: 0.5, stratifyBy: 'group' as Stratification },
} as const;

/** A dataset split and encoded for the models, with what the models and audits need to know. */
export interface PreparedSplit {
  readonly dataset: string;
  readonly scheme: SplitScheme;
  readonly seed: string;
  readonly protectedAttribute: string;
  /** How group b (group = 1) is defined, in words. */
  readonly groupB: string;
  readonly labelMeaning: string;
  readonly heldOutFraction: number;
  readonly auditFraction: number | null;
  readonly stratifyBy: Stratification;
  readonly droppedColumns: readonly string[];
  /** The training part (preprocessing fitted on it). */
  readonly train: TabularData;
  /** Paper A: the test part, which is the audit pool. Paper B: the candidate set. */
  readonly heldOut: TabularData;
  /** Paper B: positions within heldOut (ascending) of the audit set; null for paper A. */
  readonly auditRows: Int32Array | null;
  readonly preprocessor: Preprocessor;
}

/** findProtectedAttribute(table, name) returns the named attribute or throws InputError listing the choices. */
export function findProtectedAttribute(
  table: DatasetTable,
  name: string,
  where = 'protectedAttribute',
): ProtectedAttribute {
  const found = table.protectedAttributes.find((attribute) => attribute.name === name);
  if (found === undefined) {
    const names = table.protectedAttributes.map((attribute) => attribute.name).join(', ');
    throw inputError({ where, expected: `a protected attribute of ${table.name}: ${names}`, found: name });
  }
  return found;
}

function checkFraction(value: number, where: string): number {
  if (!(value > 0 && value < 1)) throw inputError({ where, expected: 'a fraction in (0, 1)', found: value });
  return value;
}

/**
 * prepareSplit(table, options) splits a loaded dataset with
 * a seeded, stratified draw (stratifiedSplit), fits one-hot encoding and
 * standardisation on the training rows only (fitPreprocessor), and encodes every part
 * into TabularData whose `group` is the chosen protected attribute. The protected
 * attribute's column is dropped from the features when the papers do (CCD, COMPAS) or
 * when dropProtectedColumn says so.
 *
 * Paper A on Adult (45,222 rows): test = 13,567 rows with 3,362 positives (paper A's
 * EO pool, Table 4). Paper B on CCD: candidate set 13,500, audit set 6,750; on COMPAS
 * 2,778 and 1,389 (Table 2).
 *
 * Throws InputError for an unknown protected attribute or a fraction outside (0, 1).
 * O(rows × features).
 */
export function prepareSplit(table: DatasetTable, options: SplitOptions): PreparedSplit {
  const defaults = SPLIT_DEFAULTS[options.scheme];
  if (defaults === undefined) {
    throw inputError({ where: 'scheme', expected: '"paper-a" or "paper-b"', found: options.scheme });
  }
  const attributeName = options.protectedAttribute ?? table.protectedAttributes[0]?.name;
  const attribute = findProtectedAttribute(table, attributeName);
  const heldOutFraction = checkFraction(options.heldOutFraction ?? defaults.heldOutFraction, 'heldOutFraction');
  const auditFraction =
    options.scheme === 'paper-b'
      ? checkFraction(options.auditFraction ?? SPLIT_DEFAULTS['paper-b'].auditFraction, 'auditFraction')
      : null;
  const stratifyBy = options.stratifyBy ?? defaults.stratifyBy;
  const strataOf = (kind: Stratification) =>
    kind === 'label' ? table.label : kind === 'group' ? attribute.group : null;

  const seed = String(options.seed);
  const random = createRandom(deriveSeed('fairaudit-split', table.name, options.scheme, attribute.name, seed));
  const split = stratifiedSplit(random, table.rows, heldOutFraction, strataOf(stratifyBy));

  let auditRows: Int32Array | null = null;
  if (auditFraction !== null) {
    const strata = strataOf(stratifyBy);
    const heldOutStrata = strata === null ? null : Array.from(split.selected, (row) => strata[row]);
    auditRows = stratifiedSplit(random, split.selected.length, auditFraction, heldOutStrata).selected;
  }

  const drop = options.dropProtectedColumn ?? table.dropsProtectedColumn;
  const droppedColumns = drop ? [attribute.sourceColumn] : [];
  const columns = table.columns.filter((column) => !droppedColumns.includes(column.name));
  const preprocessor = fitPreprocessor(columns, split.rest, { standardize: options.standardize ?? true });
  const encode = (rows: Int32Array) =>
    applyPreprocessor(preprocessor, columns, rows, table.label, attribute.group, table.rowIndex);

  return {
    dataset: table.name,
    scheme: options.scheme,
    seed,
    protectedAttribute: attribute.name,
    groupB: attribute.groupB,
    labelMeaning: table.labelMeaning,
    heldOutFraction,
    auditFraction,
    stratifyBy,
    droppedColumns,
    train: encode(split.rest),
    heldOut: encode(split.selected),
    auditRows,
    preprocessor,
  };
}
