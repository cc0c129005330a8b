import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/util/errors.js';
import { sha256Hex, sha256OfFile, sha256OfFileSync } from '../../src/util/sha256.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';

// Reference digests: FIPS 180-4 / NIST example "abc", and the empty message
// (both also `printf abc | sha256sum`, `printf '' | sha256sum`).
const ABC = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
const EMPTY = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

describe('sha256Hex(data)', () => {
  it('gives the NIST digest of "abc" for the string and for its bytes, and of the empty message', () => {
    expect(sha256Hex('abc')).toBe(ABC);
    expect(sha256Hex(new Uint8Array([0x61, 0x62, 0x63]))).toBe(ABC);
    expect(sha256Hex('')).toBe(EMPTY);
  });
});

describe('sha256OfFileSync(path) and sha256OfFile(path)', () => {
  const folder = temporaryFolder('fairaudit-sha256-');

  it('hash a 3 MiB file read in 1 MiB pieces to the digest of its bytes in one piece', async () => {
    const bytes = new Uint8Array(3 * (1 << 20) + 17).map((_, i) => (i * 31 + 7) & 0xff);
    const path = join(folder, 'big.bin');
    writeFileSync(path, bytes);
    const whole = sha256Hex(bytes);
    expect(sha256OfFileSync(path)).toBe(whole);
    expect(await sha256OfFile(path)).toBe(whole);
  });

  it('hash an empty file to the digest of the empty message', async () => {
    const path = join(folder, 'empty.bin');
    writeFileSync(path, '');
    expect(sha256OfFileSync(path)).toBe(EMPTY);
    expect(await sha256OfFile(path)).toBe(EMPTY);
  });

  it('throw InputError naming a missing file or a folder', async () => {
    const missing = join(folder, 'missing.bin');
    expect(() => sha256OfFileSync(missing)).toThrow(
      new InputError(`${missing}: expected a readable file to checksum, found ENOENT`),
    );
    await expect(sha256OfFile(missing)).rejects.toThrow(
      /missing\.bin: expected a readable file to checksum, found ENOENT/,
    );
    const sub = join(folder, 'sub');
    mkdirSync(sub);
    expect(() => sha256OfFileSync(sub)).toThrow(/sub: expected a readable file to checksum, found EISDIR/);
  });
});
