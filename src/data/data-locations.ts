import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { inputError } from '../util/errors.js';
import { packageRoot } from '../util/paths.js';
import type { DatasetManifest } from './manifest.js';

/** Where dataset files are looked for, in order: a local mirror, then fetched downloads. */
export interface DataLocations {
  /** A local mirror (--data-dir or FAIRAUDIT_DATA_DIR), or null when none is set. */
  readonly mirror: string | null;
  /** Where `fairaudit data fetch` stores files: data/downloads/ at the package root by default. */
  readonly downloads: string;
}

export interface DataLocationOptions {
  /** A mirror folder; overrides FAIRAUDIT_DATA_DIR. */
  readonly dataDirectory?: string;
  /** Overrides data/downloads/ (tests use a temporary folder). */
  readonly downloadsDirectory?: string;
  /** Overrides data/ as the folder of the manifests NAME.json (tests point URLs at a local server). */
  readonly manifestDirectory?: string;
}

/** The environment variable naming a local mirror. */
export const DATA_DIRECTORY_VARIABLE = 'FAIRAUDIT_DATA_DIR';

/**
 * dataLocations(options) settles where to look: the dataDirectory option, else the
 * FAIRAUDIT_DATA_DIR environment variable, else no mirror; downloads in data/downloads/.
 * Throws InputError when the mirror named is not a folder.
 */
export function dataLocations(options: DataLocationOptions = {}): DataLocations {
  const fromEnvironment = process.env[DATA_DIRECTORY_VARIABLE];
  const named = options.dataDirectory ?? (fromEnvironment === '' ? undefined : fromEnvironment);
  let mirror: string | null = null;
  if (named !== undefined) {
    mirror = resolve(named);
    if (!existsSync(mirror) || !statSync(mirror).isDirectory()) {
      const where = options.dataDirectory !== undefined ? `--data-dir ${named}` : `${DATA_DIRECTORY_VARIABLE}=${named}`;
      throw inputError({ where, expected: 'a folder holding dataset files', found: 'no such folder' });
    }
  }
  return { mirror, downloads: downloadsRoot(options) };
}

/** downloadsRoot(options) is options.downloadsDirectory, else data/downloads/ at the package root. */
export function downloadsRoot(options: DataLocationOptions = {}): string {
  return resolve(options.downloadsDirectory ?? join(packageRoot(), 'data', 'downloads'));
}

/** The folder `fairaudit data fetch NAME` stores a dataset's files in. */
export function downloadFolder(locations: DataLocations, datasetName: string): string {
  return join(locations.downloads, datasetName);
}

/**
 * candidatePaths(manifest, fileName, locations) lists where a file may be, in the
 * order they are tried: the mirror's dataset folders (MIRROR/adult/adult.data), the
 * mirror itself (a flat layout, MIRROR/adult.data), then data/downloads/NAME/.
 */
export function candidatePaths(manifest: DatasetManifest, fileName: string, locations: DataLocations): string[] {
  const paths: string[] = [];
  if (locations.mirror !== null) {
    for (const folder of [...manifest.folders, manifest.name]) paths.push(join(locations.mirror, folder, fileName));
    paths.push(join(locations.mirror, fileName));
  }
  paths.push(join(downloadFolder(locations, manifest.name), fileName));
  return [...new Set(paths)];
}

/** findFile(manifest, fileName, locations) returns the first existing candidate path, or null. */
export function findFile(manifest: DatasetManifest, fileName: string, locations: DataLocations): string | null {
  for (const path of candidatePaths(manifest, fileName, locations)) {
    if (existsSync(path) && statSync(path).isFile()) return path;
  }
  return null;
}
