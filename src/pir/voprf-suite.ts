import { ristretto255_oprf } from '@noble/curves/ed25519.js';
import { COMPOSED_VOPRF } from './voprf-composed.js';

/**
 * The RFC 9497 verifiable OPRF of the label transfer, ristretto255-SHA512 (mode 0x01): key
 * generation, blinding, batched evaluation with one DLEQ proof, batched verification and
 * finalisation, and the provider's non-interactive Evaluate. It is RFC 9497 composed from
 * libsodium's ristretto255 primitives (voprf-composed.ts), chosen by measurement: about eight
 * times the speed of @noble/curves' ristretto255_oprf, which it equals byte for byte on the
 * RFC's vectors and on random inputs (test/pir/voprf-composed.test.ts).
 */
export const VOPRF = COMPOSED_VOPRF;

/**
 * @noble/curves 2.4.0's RFC 9497 VOPRF, the reference the composed one is checked against. Its
 * `evaluate` exists at run time but not in its type declarations, so it is checked to exist once.
 */
export const REFERENCE_VOPRF = (() => {
  const voprf = ristretto255_oprf.voprf as typeof ristretto255_oprf.voprf & {
    evaluate?: (secretKey: Uint8Array, input: Uint8Array) => Uint8Array;
  };
  if (typeof voprf.evaluate !== 'function')
    throw new Error('@noble/curves: ristretto255_oprf.voprf.evaluate is missing');
  return voprf as typeof voprf & { evaluate: (secretKey: Uint8Array, input: Uint8Array) => Uint8Array };
})();

/**
 * voprfEvaluate(secretKey, input) is RFC 9497's non-interactive Evaluate in the VOPRF mode
 * (the provider's y_i = F(sk, x_i), equal to what blind, blindEvaluate and finalize give).
 */
export const voprfEvaluate: (secretKey: Uint8Array, input: Uint8Array) => Uint8Array = COMPOSED_VOPRF.evaluate;

/** The suite's name as RFC 9497 spells it (it is part of the library's context string). */
export const VOPRF_SUITE = 'ristretto255-SHA512';

/** Bytes of a serialised ristretto255 element (a blinded or evaluated element, the public key). */
export const ELEMENT_BYTES = 32;

/** Bytes of one batched DLEQ proof (two scalars). */
export const PROOF_BYTES = 64;

/** Bytes of a table id (drawn from node:crypto with each key pair). */
export const TABLE_ID_BYTES = 16;

/** Domain separation of the OPRF inputs x_i. */
const INPUT_DOMAIN = 'fairaudit/pir/voprf-label/v1';

/**
 * labelInput(candidateDigest, tableId, index) is x_i, the OPRF input of candidate i: the
 * domain string, a zero byte, the candidate-list digest (32 bytes), the table id (16 bytes)
 * and i (u32 little-endian). It binds every evaluation to one candidate list, one labelling
 * and one position, so an evaluation of x_i unmasks T_i and nothing else. O(1).
 * @param candidateDigest candidateListDigest of the agreed list
 * @param tableId the provider's table id for this model version
 * @param index the candidate's position i
 * @returns the bytes of x_i
 * @example labelInput(digest, tableId, 7).length // 29 + 32 + 16 + 4
 */
export function labelInput(candidateDigest: Uint8Array, tableId: Uint8Array, index: number): Uint8Array {
  const domain = Buffer.from(INPUT_DOMAIN, 'utf8');
  const out = new Uint8Array(domain.length + 1 + candidateDigest.length + tableId.length + 4);
  out.set(domain, 0);
  let at = domain.length + 1;
  out.set(candidateDigest, at);
  at += candidateDigest.length;
  out.set(tableId, at);
  at += tableId.length;
  new DataView(out.buffer).setUint32(at, index, true);
  return out;
}

/**
 * labelPad(output, entryBits) is pad(y_i): the first `entryBits` bits of the OPRF output
 * y_i (a SHA-512 digest, RFC 9497 Finalize), as an integer. O(1).
 * @param output the 64-byte OPRF output
 * @param entryBits bits of a label, 1 to 8
 * @returns an integer in [0, 2^entryBits)
 * @example labelPad(y, 1) // 0 or 1
 */
export function labelPad(output: Uint8Array, entryBits: number): number {
  return output[0] & ((1 << entryBits) - 1);
}

/**
 * readEntry(table, index, entryBits) is T_i from a table packed `entryBits` bits per entry,
 * least significant bit first (entries never straddle a byte: entryBits is 1, 2, 4 or 8). O(1).
 * @param table the packed table
 * @param index the entry's position
 * @param entryBits bits per entry
 * @returns T_i
 * @example readEntry(Uint8Array.of(0b10), 1, 1) // 1
 */
export function readEntry(table: Uint8Array, index: number, entryBits: number): number {
  const bit = index * entryBits;
  return (table[bit >>> 3] >>> (bit & 7)) & ((1 << entryBits) - 1);
}

/**
 * tableBytes(entryCount, entryBits) is the size of the packed table T in bytes. O(1).
 * @param entryCount N
 * @param entryBits bits per entry
 * @returns ⌈N·entryBits/8⌉
 * @example tableBytes(2 ** 22, 1) // 524288
 */
export function tableBytes(entryCount: number, entryBits: number): number {
  return Math.ceil((entryCount * entryBits) / 8);
}
