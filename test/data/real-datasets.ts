import { existsSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/**
 * The local mirror named by FAIRAUDIT_DATA_DIR, or null (with the reason) when it is
 * unset or lacks the files a test needs, so that real-data tests skip with a clear message.
 */
export function realDataMirror(...relativePaths: string[]): { mirror: string | null; reason: string } {
  const mirror = process.env.FAIRAUDIT_DATA_DIR;
  if (mirror === undefined || mirror === '') {
    return {
      mirror: null,
      reason: `FAIRAUDIT_DATA_DIR is unset: skipping the tests that read ${relativePaths.join(', ')}`,
    };
  }
  for (const path of relativePaths) {
    if (!existsSync(join(mirror, path))) {
      return { mirror: null, reason: `FAIRAUDIT_DATA_DIR=${mirror} lacks ${path}: skipping the tests that read it` };
    }
  }
  return { mirror, reason: '' };
}

/**
 * folderWithLinks(files) makes a temporary folder holding symbolic links to the given
 * files (a one-form mirror), so a test can load one form of a dataset on its own.
 */
export function folderWithLinks(files: readonly string[]): string {
  const folder = mkdtempSync(join(tmpdir(), 'fairaudit-mirror-'));
  for (const file of files) symlinkSync(file, join(folder, basename(file)));
  return folder;
}

/** sum(values) adds up a typed array (counts of label = 1 or group = 1). */
export function sum(values: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < values.length; i++) total += values[i];
  return total;
}
