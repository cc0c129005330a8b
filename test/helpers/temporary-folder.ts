import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** temporaryFolder(prefix) makes a fresh folder under the system's temporary folder and returns its path. */
export function temporaryFolder(prefix = 'fairaudit-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
