import type { DatasetTable } from './dataset-table.js';
import type { LocatedForm } from './resolve-form.js';

/** What a dataset's reader returns: the table without the bookkeeping loadDataset adds. */
export type DatasetContents = Omit<DatasetTable, 'name' | 'form' | 'files' | 'dropsProtectedColumn'>;

/** Options every reader accepts. */
export interface ReadOptions {
  /** Adult: drop rows with a missing value ("?"), as paper A's 45,222 rows imply (default true). */
  readonly dropMissing?: boolean;
}

/**
 * One dataset of the registry: its name (the manifest data/NAME.json holds its files)
 * and a reader that parses a located form of it into columns, label and groups.
 */
export interface DatasetDefinition {
  readonly name: string;
  /** One line for `fairaudit data list`. */
  readonly summary: string;
  /** Whether the papers drop the protected attribute's column from the features. */
  readonly dropsProtectedColumn: boolean;
  read(located: LocatedForm, options: ReadOptions): Promise<DatasetContents>;
}
