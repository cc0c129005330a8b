import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readProviderFile } from '../../src/pir/provider-file.js';
import { InputError } from '../../src/util/errors.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';

describe('readProviderFile(path, where)', () => {
  it('a FIFO is refused at once as not a regular file (opening it waited for a writer forever)', () => {
    const fifo = join(temporaryFolder('fairaudit-provider-file-'), 'provider.json');
    execFileSync('mkfifo', [fifo]);
    const started = performance.now();
    expect(() => readProviderFile(fifo, '--provider-file')).toThrow(
      new InputError(
        `--provider-file ${fifo}: expected a provider file of at most 4096 bytes, found "not a regular file"`,
      ),
    );
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
