import { createHash } from 'node:crypto';
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { InputError } from './errors.js';

/** Bytes read at a time when hashing a file: memory stays O(1) whatever its size. */
const READ_BYTES = 1 << 20;

/** sha256Hex(data) is the SHA-256 digest (FIPS 180-4) of the bytes, or of a string's UTF-8 bytes, as 64 lower-case hex
 * digits. O(bytes). */
export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

function unreadable(path: string, error: unknown): InputError {
  return new InputError(
    `${path}: expected a readable file to checksum, ` +
      `found ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
  );
}

/**
 * sha256OfFileSync(path) is the SHA-256 of the file's bytes as hex, read 1 MiB at a
 * time (O(size) time, O(1) memory). Throws InputError naming the file when it cannot
 * be read (missing, a folder, no permission).
 */
export function sha256OfFileSync(path: string): string {
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(READ_BYTES);
  let descriptor: number;
  try {
    descriptor = openSync(path, 'r');
  } catch (error) {
    throw unreadable(path, error);
  }
  try {
    for (;;) {
      const read = readSync(descriptor, buffer, 0, READ_BYTES, null);
      if (read === 0) break;
      hash.update(buffer.subarray(0, read));
    }
  } catch (error) {
    throw unreadable(path, error);
  } finally {
    closeSync(descriptor);
  }
  return hash.digest('hex');
}

/**
 * sha256OfFile(path) is sha256OfFileSync as a stream, for callers that must not block
 * the event loop on a large file (results of 10^8 rows). O(size) time, O(1) memory.
 * Rejects with InputError naming the file when it cannot be read.
 */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: READ_BYTES })) hash.update(chunk as Buffer);
  } catch (error) {
    throw unreadable(path, error);
  }
  return hash.digest('hex');
}
