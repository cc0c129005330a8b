import { type DataLocationOptions, dataLocations } from './data-locations.js';
import type { ReadOptions } from './dataset-definition.js';
import type { DatasetTable, SourceFile } from './dataset-table.js';
import { readManifest } from './manifest.js';
import { datasetDefinition } from './registry.js';
import { locateForm } from './resolve-form.js';
import { verifyFile } from './verify-file.js';

export interface LoadDatasetOptions extends DataLocationOptions, ReadOptions {
  /** Check sizes and sha256 against the manifest (default true). */
  readonly verify?: boolean;
}

/**
 * loadDataset(name, options) finds a dataset's files (the mirror named by
 * options.dataDirectory or FAIRAUDIT_DATA_DIR, then data/downloads/NAME/), checks them
 * against data/NAME.json (size and sha256), and parses them into a DatasetTable:
 * feature columns, 0/1 label, 0/1 group per protected attribute, original row indices.
 *
 * Throws InputError when the name is unknown, when the files are missing or partial
 * (saying what is missing and how to provide it), when a checksum differs, or when a
 * file is malformed (naming the file and line). O(total file size).
 */
export async function loadDataset(name: string, options: LoadDatasetOptions = {}): Promise<DatasetTable> {
  const definition = datasetDefinition(name);
  const manifest = readManifest(definition.name, options.manifestDirectory);
  const locations = dataLocations(options);
  const located = locateForm(manifest, locations);
  const files: SourceFile[] = [];
  for (const file of located.form.files) {
    const path = located.paths.get(file.name);
    if (path !== undefined) files.push(await verifyFile(path, file, options.verify ?? true));
  }
  const contents = await definition.read(located, options);
  return {
    ...contents,
    name: definition.name,
    form: located.form.name,
    files,
    dropsProtectedColumn: definition.dropsProtectedColumn,
  };
}
