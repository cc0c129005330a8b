import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import { inputError } from '../util/errors.js';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;

/**
 * openZipEntry(path, entryName) streams one member of a zip archive (stored or
 * deflated), found by its file name in the central directory (in any folder of the
 * archive), without extracting the rest. Reads the end-of-central-directory record,
 * the central directory and the member's local header, then inflates its bytes as
 * they are read: O(member size) time, O(1) memory beyond the directory.
 *
 * Throws InputError naming the archive when it is not a zip, is ZIP64 (members over
 * 4 GiB; unzip it instead), lacks the member or uses another compression method.
 */
export async function openZipEntry(path: string, entryName: string): Promise<Readable> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const tailLength = Math.min(size, 22 + 0xffff);
    const tail = Buffer.alloc(tailLength);
    await handle.read(tail, 0, tailLength, size - tailLength);
    let end = -1;
    for (let i = tailLength - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === END_OF_CENTRAL_DIRECTORY) {
        end = i;
        break;
      }
    }
    if (end < 0)
      throw inputError({ where: path, expected: 'a zip archive', found: 'no end-of-central-directory record' });
    const entries = tail.readUInt16LE(end + 10);
    const directorySize = tail.readUInt32LE(end + 12);
    const directoryOffset = tail.readUInt32LE(end + 16);
    if (entries === 0xffff || directoryOffset === 0xffffffff) {
      throw inputError({
        where: path,
        expected: `a zip archive without ZIP64 records (or unzip it and use ${entryName})`,
        found: 'a ZIP64 archive',
      });
    }
    const directory = Buffer.alloc(directorySize);
    await handle.read(directory, 0, directorySize, directoryOffset);
    let offset = 0;
    const names: string[] = [];
    for (let k = 0; k < entries; k++) {
      if (directory.readUInt32LE(offset) !== CENTRAL_DIRECTORY_ENTRY) {
        throw inputError({
          where: `${path}: central directory entry ${k + 1}`,
          expected: 'a zip directory entry',
          found: 'other bytes (a corrupt archive?)',
        });
      }
      const method = directory.readUInt16LE(offset + 10);
      const compressedSize = directory.readUInt32LE(offset + 20);
      const nameLength = directory.readUInt16LE(offset + 28);
      const extraLength = directory.readUInt16LE(offset + 30);
      const commentLength = directory.readUInt16LE(offset + 32);
      const localOffset = directory.readUInt32LE(offset + 42);
      const name = directory.toString('utf8', offset + 46, offset + 46 + nameLength);
      names.push(name);
      offset += 46 + nameLength + extraLength + commentLength;
      if (name !== entryName && !name.endsWith(`/${entryName}`)) continue;
      if (compressedSize === 0xffffffff || localOffset === 0xffffffff) {
        throw inputError({
          where: `${path}: ${name}`,
          expected: `a member without ZIP64 sizes (or unzip it and use ${entryName})`,
          found: 'ZIP64 sizes',
        });
      }
      if (method !== 0 && method !== 8) {
        throw inputError({
          where: `${path}: ${name}`,
          expected: 'a stored or deflated zip member',
          found: `compression method ${method}`,
        });
      }
      const local = Buffer.alloc(30);
      await handle.read(local, 0, 30, localOffset);
      if (local.readUInt32LE(0) !== LOCAL_FILE_HEADER) {
        throw inputError({
          where: `${path}: ${name}`,
          expected: 'a zip local file header',
          found: 'other bytes (a corrupt archive?)',
        });
      }
      const dataStart = localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
      if (compressedSize === 0) return Readable.from([]);
      const raw = createReadStream(path, {
        start: dataStart,
        end: dataStart + compressedSize - 1,
        highWaterMark: 1 << 20,
      });
      if (method === 0) return raw;
      const inflate = createInflateRaw();
      raw.on('error', (error) => inflate.destroy(error));
      return raw.pipe(inflate);
    }
    throw inputError({
      where: path,
      expected: `a member named ${entryName}`,
      found: names.length > 0 ? names.join(', ') : 'an empty archive',
    });
  } finally {
    await handle.close();
  }
}
