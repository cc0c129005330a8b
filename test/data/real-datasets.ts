import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The local mirror named by FAIRAUDIT_DATA_DIR, or null (with the reason) when it is
 * unset or lacks the files a test needs, so that real-data tests skip with a clear message.
 */
export function realDataMirror(...relativePaths: string[]): { mirror: string | null; reason: string } {
  const mirror = process.env.FAIRAUDIT_DATA_DIR;
  if (mirror === undefined || mirror === '') {
    return { mirror: null, reason: 'FAIRAUDIT_DATA_DIR is unset: skipping tests on the real dataset' };
  }
  for (const path of relativePaths) {
    if (!existsSync(join(mirror, path))) {
      return { mirror: null, reason: `FAIRAUDIT_DATA_DIR=${mirror} lacks ${path}: skipping tests on the real dataset` };
    }
  }
  return { mirror, reason: '' };
}
