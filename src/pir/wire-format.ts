import { inputError } from '../util/errors.js';
import { MODULUS_BITS } from './parameters.js';

/** The kinds of binary PIR messages. */
export const MESSAGE_KINDS = {
  query: 1,
  answer: 2,
  hint: 3,
  proof: 4,
  'challenge-hint': 5,
  challenge: 6,
  'challenge-answer': 7,
} as const;
export type MessageKind = keyof typeof MESSAGE_KINDS;

const MAGIC = 0x52495046; // "FPIR" read little-endian
const VERSION = 1;
export const HEADER_BYTES = 16;

/**
 * encodeMessage(kind, words, count, length) frames `count` vectors of `length`
 * 32-bit words: a 16-byte header (magic "FPIR", version 1, kind, log2 q = 32, one
 * reserved byte, count, length; little-endian) and the words. O(count·length).
 */
export function encodeMessage(
  kind: MessageKind,
  words: Uint32Array | Int32Array,
  count: number,
  length: number,
): Uint8Array {
  if (words.length !== count * length) {
    throw new Error(`encodeMessage: ${count} × ${length} words expected, found ${words.length}`);
  }
  const out = new Uint8Array(HEADER_BYTES + words.byteLength);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint8(4, VERSION);
  view.setUint8(5, MESSAGE_KINDS[kind]);
  view.setUint8(6, MODULUS_BITS);
  view.setUint32(8, count, true);
  view.setUint32(12, length, true);
  for (let i = 0; i < words.length; i++) view.setUint32(HEADER_BYTES + 4 * i, words[i] >>> 0, true);
  return out;
}

/**
 * decodeMessage(bytes, kind, length, maxCount, where) reads a framed message and
 * checks everything the receiver can: magic, version, kind, the modulus (log2 q must
 * be 32), the vector length, 1 ≤ count ≤ maxCount, and that the byte size matches.
 * Returns the words and the count. O(size). Throws InputError naming `where`,
 * what was expected and what was found.
 */
export function decodeMessage(
  bytes: Uint8Array,
  kind: MessageKind,
  length: number,
  maxCount: number,
  where: string,
): { words: Uint32Array; count: number } {
  if (bytes.length < HEADER_BYTES) {
    throw inputError({ where, expected: `at least a ${HEADER_BYTES}-byte header`, found: `${bytes.length} bytes` });
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = view.getUint32(0, true);
  if (magic !== MAGIC) {
    throw inputError({ where, expected: 'a fairaudit PIR message (magic "FPIR")', found: `0x${magic.toString(16)}` });
  }
  if (view.getUint8(4) !== VERSION) {
    throw inputError({ where, expected: `message version ${VERSION}`, found: view.getUint8(4) });
  }
  if (view.getUint8(5) !== MESSAGE_KINDS[kind]) {
    throw inputError({
      where,
      expected: `a message of kind "${kind}" (${MESSAGE_KINDS[kind]})`,
      found: `kind ${view.getUint8(5)}`,
    });
  }
  const modulusBits = view.getUint8(6);
  if (modulusBits !== MODULUS_BITS) {
    throw inputError({ where, expected: `modulus q = 2^${MODULUS_BITS}`, found: `q = 2^${modulusBits}` });
  }
  const count = view.getUint32(8, true);
  const declaredLength = view.getUint32(12, true);
  if (declaredLength !== length) {
    throw inputError({ where, expected: `vectors of ${length} elements`, found: `${declaredLength} elements` });
  }
  if (count < 1 || count > maxCount) {
    throw inputError({ where, expected: `between 1 and ${maxCount} vectors`, found: count });
  }
  const expectedBytes = HEADER_BYTES + count * length * 4;
  if (bytes.length !== expectedBytes) {
    throw inputError({ where, expected: `${expectedBytes} bytes`, found: `${bytes.length} bytes` });
  }
  const words = new Uint32Array(count * length);
  for (let i = 0; i < words.length; i++) words[i] = view.getUint32(HEADER_BYTES + 4 * i, true);
  return { words, count };
}
