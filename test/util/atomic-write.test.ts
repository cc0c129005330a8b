import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/util/atomic-write.js';
import { InputError } from '../../src/util/errors.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';

describe('writeFileAtomic(path, data)', () => {
  it('writes the file (making its folder) and leaves no temporary file', () => {
    const folder = temporaryFolder('fairaudit-atomic-');
    writeFileAtomic(join(folder, 'a', 'b.txt'), 'hello');
    expect(readFileSync(join(folder, 'a', 'b.txt'), 'utf8')).toBe('hello');
    expect(readdirSync(join(folder, 'a'))).toEqual(['b.txt']);
  });

  it('throws InputError naming the folder when a file stands where its folder should be', () => {
    const folder = temporaryFolder('fairaudit-atomic-');
    writeFileSync(join(folder, 'file'), 'x');
    expect(() => writeFileAtomic(join(folder, 'file', 'out', 'report.html'), 'x')).toThrow(
      /file\/out: expected a place fairaudit can write, found a file where a folder should be \(ENOTDIR\)/,
    );
    expect(() => writeFileAtomic(join(folder, 'file', 'report.html'), 'x')).toThrow(
      new InputError(
        `${join(folder, 'file')}: expected a place fairaudit can write, found a file where a folder should be ` +
          `(ENOTDIR)`,
      ),
    );
  });

  it('throws InputError when a folder stands where the file should be (EISDIR), and removes its temporary file', () => {
    const folder = temporaryFolder('fairaudit-atomic-');
    mkdirSync(join(folder, 'report.html'));
    expect(() => writeFileAtomic(join(folder, 'report.html'), 'x')).toThrow(
      /report\.html: expected a place fairaudit can write, found a folder where a file should be \(EISDIR\)/,
    );
    expect(readdirSync(folder)).toEqual(['report.html']);
  });

  it('throws InputError where even root may not write (/sys), naming the path', () => {
    expect(() => writeFileAtomic('/sys/fairaudit-test.txt', 'x')).toThrow(
      new RegExp(
        String.raw`^\/sys\/fairaudit-test\.txt: expected a place fairaudit can write, found no permission to ` +
          String.raw`write there \(E(ACCES|PERM)\)$`,
      ),
    );
  });
});
