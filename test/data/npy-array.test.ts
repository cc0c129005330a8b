import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeNpy, readNpyMatrix } from '../../src/data/npy-array.js';

// The expected bytes are np.save's (NumPy 1.24.2, Debian 12), printed by
//   python3 -c "import numpy as np, io; b = io.BytesIO(); np.save(b, A); print(b.getvalue())"
// for each array A below: a 128-byte header (magic, version 1.0, length 118, the dict
// padded with spaces, a newline), then the little-endian data.
function header(dict: string): string {
  return `\x93NUMPY\x01\x00v\x00${dict.padEnd(117, ' ')}\n`;
}

describe('encodeNpy(values, shape)', () => {
  it("writes np.save's bytes for a float64 matrix", () => {
    const bytes = encodeNpy(Float64Array.from([1.5, -2, 0.25, 3, 1e-300, -0]), [3, 2]);
    expect(Buffer.from(bytes).toString('latin1', 0, 128)).toBe(
      header("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }"),
    );
    expect(Buffer.from(bytes).subarray(128).toString('hex')).toBe(
      '000000000000f83f00000000000000c0000000000000d03f000000000000084059f3f8c21f6ea5010000000000000080',
    );
  });

  it("writes np.save's bytes for uint8 and int32 vectors", () => {
    const u8 = Buffer.from(encodeNpy(Uint8Array.from([1, 0, 1, 1, 0]), [5]));
    expect(u8.toString('latin1', 0, 128)).toBe(header("{'descr': '|u1', 'fortran_order': False, 'shape': (5,), }"));
    expect(u8.subarray(128).toString('hex')).toBe('0100010100');
    const i4 = Buffer.from(encodeNpy(Int32Array.from([7, -3, 2 ** 31 - 1]), [3]));
    expect(i4.toString('latin1', 0, 128)).toBe(header("{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }"));
    expect(i4.subarray(128).toString('hex')).toBe('07000000fdffffffffffff7f');
  });

  it('round-trips through readNpyMatrix exactly', () => {
    const values = Float64Array.from({ length: 35 }, (_, k) => Math.sin(k) * 10 ** (k % 7));
    const path = join(mkdtempSync(join(tmpdir(), 'fairaudit-npy-')), 'm.npy');
    writeFileSync(path, encodeNpy(values, [5, 7]));
    const matrix = readNpyMatrix(path);
    expect([matrix.rows, matrix.columns]).toEqual([5, 7]);
    expect(Array.from(matrix.values)).toEqual(Array.from(values));
  });

  it('throws RangeError when the shape does not hold the values', () => {
    expect(() => encodeNpy(new Float64Array(6), [4, 2])).toThrow(RangeError);
  });
});
