import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/util/errors.js';
import { makeFolder } from '../../src/util/make-folder.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';

describe('makeFolder(path)', () => {
  it('makes a folder and its missing parents, and accepts one that exists', () => {
    const base = temporaryFolder('fairaudit-make-folder-');
    makeFolder(join(base, 'a', 'b', 'c'));
    expect(statSync(join(base, 'a', 'b', 'c')).isDirectory()).toBe(true);
    makeFolder(join(base, 'a', 'b', 'c'));
    makeFolder(base);
  });

  it('refuses a file in the way with InputError naming the path asked for', () => {
    const base = temporaryFolder('fairaudit-make-folder-');
    writeFileSync(join(base, 'file'), 'x');
    expect(() => makeFolder(join(base, 'file'))).toThrow(
      new InputError(
        `${join(base, 'file')}: expected a place fairaudit can write, found a file where a folder should be (ENOTDIR)`,
      ),
    );
    expect(() => makeFolder(join(base, 'file', 'below'))).toThrow(
      /file\/below: expected a place fairaudit can write, found a file where a folder should be \(ENOTDIR\)/,
    );
  });

  it('returns at once under /proc, where Node 20 recursive mkdir loops forever (run --out /proc/self/x hung)', () => {
    const started = performance.now();
    expect(() => makeFolder('/proc/self/fairaudit/out')).toThrow(
      new RegExp(
        String.raw`^\/proc\/self\/fairaudit\/out: expected a place fairaudit can write, found a path that ` +
          String.raw`cannot be created \(ENOENT\)$`,
      ),
    );
    expect(performance.now() - started).toBeLessThan(1000);
    expect(existsSync('/proc/self/fairaudit')).toBe(false);
  });

  it('refuses a name too long for the file system', () => {
    const base = temporaryFolder('fairaudit-make-folder-');
    expect(() => makeFolder(join(base, 'n'.repeat(300)))).toThrow(
      /found a name too long for the file system \(ENAMETOOLONG\)/,
    );
  });
});
