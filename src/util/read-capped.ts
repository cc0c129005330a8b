import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { InputError } from './errors.js';

/** The largest experiment config read (1 MiB): configs are a few KB; a 45 MB "config" is a mistake. */
export const MAX_CONFIG_BYTES = 1 << 20;

/**
 * The largest pool file read (500 MiB): ~20 million CSV rows of five columns, or ~27 million Arrow rows
 * with scores and logits. A CSV pool becomes one string, and V8 caps a string at
 * 2^29 − 24 characters (512 MiB less 24), so a much larger CSV could not be read anyway.
 */
export const MAX_POOL_FILE_BYTES = 500 * (1 << 20);

/** The largest JSON or JSONL file read whole (layouts, published numbers, run.json, --input): 64 MiB. */
export const MAX_JSON_FILE_BYTES = 64 * (1 << 20);

function formatBytes(bytes: number): string {
  if (bytes >= 1 << 20 && bytes % (1 << 20) === 0) return `${bytes / (1 << 20)} MiB`;
  if (bytes >= 1 << 10 && bytes % (1 << 10) === 0) return `${bytes / (1 << 10)} KiB`;
  return `${bytes} bytes`;
}

/**
 * readFileCapped(path, maxBytes, what) reads a whole file of at most maxBytes bytes:
 * `what` names what was expected ("a YAML config file") in messages. It reads at most
 * maxBytes + 1 bytes whatever the file says its size is, so /dev/zero, a FIFO or a
 * file that grows while read stop at the cap instead of filling memory.
 * Throws InputError naming the file for a missing, unreadable or directory path, or
 * a file larger than maxBytes. O(min(size, maxBytes)).
 */
export function readFileCapped(path: string, maxBytes: number, what: string): Buffer {
  let descriptor: number;
  try {
    descriptor = openSync(path, 'r');
  } catch (error) {
    throw new InputError(
      `${path}: expected ${what}, found ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  try {
    const stat = fstatSync(descriptor);
    if (stat.isDirectory()) throw new InputError(`${path}: expected ${what}, found a folder`);
    const tooLarge = () =>
      new InputError(`${path}: expected ${what} of at most ${formatBytes(maxBytes)}, found a larger file`);
    if (stat.isFile() && stat.size > maxBytes) throw tooLarge();
    // Regular files are read to their size; devices and pipes in growing pieces, to the cap.
    let buffer = Buffer.allocUnsafe(Math.min(maxBytes + 1, stat.isFile() ? stat.size + 1 : 1 << 16));
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > maxBytes) throw tooLarge();
        const grown = Buffer.allocUnsafe(Math.min(maxBytes + 1, buffer.length * 2));
        buffer.copy(grown, 0, 0, length);
        buffer = grown;
      }
      let read: number;
      try {
        read = readSync(descriptor, buffer, length, buffer.length - length, null);
      } catch (error) {
        throw new InputError(
          `${path}: expected ${what}, found ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        );
      }
      if (read === 0) break;
      length += read;
    }
    if (length > maxBytes) throw tooLarge();
    return buffer.subarray(0, length);
  } finally {
    closeSync(descriptor);
  }
}
