import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/util/errors.js';
import { readFileCapped } from '../../src/util/read-capped.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';

describe('readFileCapped(path, maxBytes, what)', () => {
  const folder = temporaryFolder('fairaudit-capped-');

  it('reads a file of at most maxBytes whole, and an empty file as no bytes', () => {
    const path = join(folder, 'ok.txt');
    writeFileSync(path, 'x'.repeat(1024));
    expect(readFileCapped(path, 1024, 'a file').toString()).toBe('x'.repeat(1024));
    writeFileSync(join(folder, 'empty.txt'), '');
    expect(readFileCapped(join(folder, 'empty.txt'), 10, 'a file').length).toBe(0);
  });

  it('refuses a file one byte over the cap, naming it and the cap', () => {
    const path = join(folder, 'big.yaml');
    writeFileSync(path, 'x'.repeat(1025));
    expect(() => readFileCapped(path, 1024, 'a YAML config file')).toThrow(
      new InputError(`${path}: expected a YAML config file of at most 1 KiB, found a larger file`),
    );
  });

  it('stops /dev/zero at the cap instead of reading without end', () => {
    expect(() => readFileCapped('/dev/zero', 1 << 20, 'a pool file')).toThrow(
      new InputError('/dev/zero: expected a pool file of at most 1 MiB, found a larger file'),
    );
  });

  it('refuses a missing file and a folder with InputError naming them', () => {
    expect(() => readFileCapped(join(folder, 'missing'), 10, 'a pool file')).toThrow(
      /missing: expected a pool file, found ENOENT/,
    );
    mkdirSync(join(folder, 'sub'));
    expect(() => readFileCapped(join(folder, 'sub'), 10, 'a pool file')).toThrow(
      /sub: expected a pool file, found a folder/,
    );
  });
});
