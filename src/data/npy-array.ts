import { readFileSync } from 'node:fs';
import { inputError } from '../util/errors.js';

/** A two-dimensional array read from a .npy file, row-major. */
export interface NpyMatrix {
  readonly rows: number;
  readonly columns: number;
  readonly values: Float64Array;
}

const MAGIC = '\x93NUMPY';

/**
 * readNpyMatrix(path) reads a NumPy .npy file (format versions 1 to 3) holding a
 * two-dimensional little-endian float32 or float64 array in C order, as np.save writes
 * it. O(file size).
 * Throws InputError naming the file when the magic, the dtype, the order or the shape
 * is not that, or when the file is shorter than its header says (truncated).
 */
export function readNpyMatrix(path: string): NpyMatrix {
  const bytes = readFileSync(path);
  if (bytes.length < 10 || bytes.toString('latin1', 0, 6) !== MAGIC) {
    throw inputError({
      where: path,
      expected: 'a NumPy .npy file (magic \\x93NUMPY)',
      found: bytes.toString('latin1', 0, 6),
    });
  }
  const major = bytes[6];
  const headerLength = major === 1 ? bytes.readUInt16LE(8) : bytes.readUInt32LE(8);
  const headerStart = major === 1 ? 10 : 12;
  const header = bytes.toString('latin1', headerStart, headerStart + headerLength);
  const descr = /'descr'\s*:\s*'([^']+)'/.exec(header)?.[1];
  const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(header)?.[1];
  const shape = /'shape'\s*:\s*\(([^)]*)\)/.exec(header)?.[1];
  if (descr !== '<f4' && descr !== '<f8') {
    throw inputError({
      where: `${path}: header descr`,
      expected: "little-endian float32 or float64 ('<f4' or '<f8')",
      found: descr,
    });
  }
  if (fortran !== 'False')
    throw inputError({ where: `${path}: header fortran_order`, expected: 'False (C order)', found: fortran });
  const dimensions = (shape ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map(Number);
  if (dimensions.length !== 2 || dimensions.some((d) => !Number.isInteger(d) || d < 0)) {
    throw inputError({ where: `${path}: header shape`, expected: 'two dimensions (rows, columns)', found: shape });
  }
  const [rows, columns] = dimensions;
  const width = descr === '<f4' ? 4 : 8;
  const dataStart = headerStart + headerLength;
  const needed = rows * columns * width;
  if (bytes.length - dataStart < needed) {
    throw inputError({
      where: path,
      expected: `${needed} bytes of data for shape (${rows}, ${columns})`,
      found: `${bytes.length - dataStart} bytes (truncated?)`,
    });
  }
  const values = new Float64Array(rows * columns);
  for (let i = 0; i < rows * columns; i++) {
    values[i] = width === 4 ? bytes.readFloatLE(dataStart + 4 * i) : bytes.readDoubleLE(dataStart + 8 * i);
  }
  return { rows, columns, values };
}

/** The element types encodeNpy writes, by their NumPy descr. */
export type NpyColumn = Float64Array | Int32Array | Uint8Array;

function descrOf(values: NpyColumn): string {
  if (values instanceof Float64Array) return '<f8';
  if (values instanceof Int32Array) return '<i4';
  return '|u1';
}

/**
 * encodeNpy(values, shape) returns the bytes of a NumPy .npy file (format 1.0, C
 * order) holding `values` with the given shape: float64 ('<f8'), int32 ('<i4') or
 * uint8 ('|u1') as the typed array is, little-endian. The header is padded with
 * spaces to a multiple of 64 bytes, as np.save does, so np.load reads it back
 * exactly. Throws RangeError when the shape does not multiply to values.length.
 * O(values.length).
 */
export function encodeNpy(values: NpyColumn, shape: readonly number[]): Uint8Array {
  const count = shape.reduce((product, d) => product * d, 1);
  if (count !== values.length)
    throw new RangeError(`encodeNpy: shape (${shape.join(', ')}) holds ${count} values, got ${values.length}`);
  const shapeText = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  let header = `{'descr': '${descrOf(values)}', 'fortran_order': False, 'shape': ${shapeText}, }`;
  const unpadded = MAGIC.length + 4 + header.length + 1;
  header += ' '.repeat((64 - (unpadded % 64)) % 64);
  header += '\n';
  const out = Buffer.alloc(MAGIC.length + 4 + header.length + values.byteLength);
  out.write(MAGIC, 0, 'latin1');
  out[6] = 1;
  out[7] = 0;
  out.writeUInt16LE(header.length, 8);
  out.write(header, 10, 'latin1');
  if (values instanceof Float64Array) {
    for (let i = 0; i < values.length; i++) out.writeDoubleLE(values[i], 10 + header.length + 8 * i);
  } else if (values instanceof Int32Array) {
    for (let i = 0; i < values.length; i++) out.writeInt32LE(values[i], 10 + header.length + 4 * i);
  } else {
    out.set(values, 10 + header.length);
  }
  return out;
}
