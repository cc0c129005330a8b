import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inputError } from '../util/errors.js';
import { packageRoot } from '../util/paths.js';

/** One file of a dataset: its canonical name, size, checksum and where to download it. */
export interface ManifestFile {
  /** The canonical file name, as in a mirror folder or data/downloads/NAME/. */
  readonly name: string;
  /** Size in bytes, or null when not known. */
  readonly size: number | null;
  /** Lower-case hex sha256, or null when not known (the file is then used unverified, and says so). */
  readonly sha256: string | null;
  /** Download URLs, tried in order. Empty when the file cannot be downloaded unattended. */
  readonly urls: readonly string[];
  /** A note for the user (how to obtain it, what it holds). */
  readonly note?: string;
  /** True when the form is complete without this file (e.g. a side file of embeddings). */
  readonly optional?: boolean;
}

/** One way to provide a dataset: a set of files that together are enough to load it. */
export interface ManifestForm {
  readonly name: string;
  readonly description: string;
  readonly files: readonly ManifestFile[];
  /** False when fairaudit knows the form but cannot read it (CCD's .xls). */
  readonly readable?: boolean;
}

/** A dataset's manifest, data/NAME.json: where its files come from and how to check them. */
export interface DatasetManifest {
  readonly name: string;
  readonly title: string;
  readonly homepage: string;
  readonly citation: string;
  readonly license: string;
  /** Folder names a mirror may use for this dataset (besides a flat layout). */
  readonly folders: readonly string[];
  /** The forms in order of preference. */
  readonly forms: readonly ManifestForm[];
  /** A note for the user (gated access, partial mirrors, ...). */
  readonly note?: string;
}

/** The folder with the manifests, data/ at the package root. */
export function manifestFolder(): string {
  return join(packageRoot(), 'data');
}

/**
 * readManifest(name) reads and checks data/NAME.json. Throws InputError naming the
 * file and key when the manifest is missing or malformed.
 */
export function readManifest(name: string, folder?: string): DatasetManifest {
  const path = join(folder ?? manifestFolder(), `${name}.json`);
  if (!existsSync(path)) {
    throw inputError({ where: path, expected: `the manifest of dataset "${name}"`, found: 'no such file' });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw inputError({ where: path, expected: 'JSON', found: (error as Error).message });
  }
  return checkManifest(parsed, path);
}

function checkManifest(value: unknown, where: string): DatasetManifest {
  const record = expectObject(value, where);
  for (const key of ['name', 'title', 'homepage', 'citation', 'license']) expectString(record[key], `${where}: ${key}`);
  const folders = expectArray(record.folders, `${where}: folders`);
  folders.forEach((folder, i) => {
    expectString(folder, `${where}: folders[${i}]`);
  });
  const forms = expectArray(record.forms, `${where}: forms`);
  if (forms.length === 0) throw inputError({ where: `${where}: forms`, expected: 'at least one form', found: forms });
  forms.forEach((form, i) => {
    const formWhere = `${where}: forms[${i}]`;
    const formRecord = expectObject(form, formWhere);
    expectString(formRecord.name, `${formWhere}.name`);
    expectString(formRecord.description, `${formWhere}.description`);
    const files = expectArray(formRecord.files, `${formWhere}.files`);
    files.forEach((file, j) => {
      const fileWhere = `${formWhere}.files[${j}]`;
      const fileRecord = expectObject(file, fileWhere);
      expectString(fileRecord.name, `${fileWhere}.name`);
      if (fileRecord.size !== null && !(Number.isInteger(fileRecord.size) && (fileRecord.size as number) >= 0)) {
        throw inputError({ where: `${fileWhere}.size`, expected: 'a byte count or null', found: fileRecord.size });
      }
      if (fileRecord.sha256 !== null && !/^[0-9a-f]{64}$/.test(String(fileRecord.sha256))) {
        throw inputError({
          where: `${fileWhere}.sha256`,
          expected: '64 lower-case hex digits or null',
          found: fileRecord.sha256,
        });
      }
      expectArray(fileRecord.urls, `${fileWhere}.urls`).forEach((url, k) => {
        expectString(url, `${fileWhere}.urls[${k}]`);
      });
    });
  });
  return record as unknown as DatasetManifest;
}

function expectObject(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw inputError({ where, expected: 'an object', found: value });
  }
  return value as Record<string, unknown>;
}

function expectArray(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) throw inputError({ where, expected: 'a list', found: value });
  return value;
}

function expectString(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.length === 0)
    throw inputError({ where, expected: 'a non-empty string', found: value });
  return value;
}
