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
    throw inputError({ where: path, expected: 'a NumPy .npy file (magic \\x93NUMPY)', found: bytes.toString('latin1', 0, 6) });
  }
  const major = bytes[6];
  const headerLength = major === 1 ? bytes.readUInt16LE(8) : bytes.readUInt32LE(8);
  const headerStart = major === 1 ? 10 : 12;
  const header = bytes.toString('latin1', headerStart, headerStart + headerLength);
  const descr = /'descr'\s*:\s*'([^']+)'/.exec(header)?.[1];
  const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(header)?.[1];
  const shape = /'shape'\s*:\s*\(([^)]*)\)/.exec(header)?.[1];
  if (descr !== '<f4' && descr !== '<f8') {
    throw inputError({ where: `${path}: header descr`, expected: "little-endian float32 or float64 ('<f4' or '<f8')", found: descr });
  }
  if (fortran !== 'False') throw inputError({ where: `${path}: header fortran_order`, expected: 'False (C order)', found: fortran });
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
    throw inputError({ where: path, expected: `${needed} bytes of data for shape (${rows}, ${columns})`, found: `${bytes.length - dataStart} bytes (truncated?)` });
  }
  const values = new Float64Array(rows * columns);
  for (let i = 0; i < rows * columns; i++) {
    values[i] = width === 4 ? bytes.readFloatLE(dataStart + 4 * i) : bytes.readDoubleLE(dataStart + 8 * i);
  }
  return { rows, columns, values };
}
