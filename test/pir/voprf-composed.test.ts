import { randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { blindEvaluateBatchWithScalar, blindWithScalar, COMPOSED_VOPRF } from '../../src/pir/voprf-composed.js';
import { REFERENCE_VOPRF } from '../../src/pir/voprf-suite.js';

const bytes = (hex: string) => new Uint8Array(Buffer.from(hex, 'hex'));
const hexOf = (value: Uint8Array) => Buffer.from(value).toString('hex');

/**
 * RFC 9497 Appendix A.1.2, VOPRF mode, ristretto255-SHA512: the key pair derived from
 * Seed = a3×32, KeyInfo = "test key", and test vectors 1, 2 (batch size 1) and 3 (batch size 2).
 */
const SECRET_KEY = 'e6f73f344b79b379f1a0dd37e07ff62e38d9f71345ce62ae3a9bc60b04ccd909';
const PUBLIC_KEY = 'c803e2cc6b05fc15064549b5920659ca4a77b2cca6f04f6b357009335476ad4e';
const BLIND_1 = '64d37aed22a27f5191de1c1d69fadb899d8862b58eb4220029e036ec4c1f6706';
const PROOF_SCALAR_1 = '222a5e897cf59db8145db8d16e597e8facb80ae7d4e26d9881aa6f61d645fc0e';
const SINGLE_VECTORS = [
  {
    input: '00',
    blinded: '863f330cc1a1259ed5a5998a23acfd37fb4351a793a5b3c090b642ddc439b945',
    evaluated: 'aa8fa048764d5623868679402ff6108d2521884fa138cd7f9c7669a9a014267e',
    proof:
      'ddef93772692e535d1a53903db24367355cc2cc78de93b3be5a8ffcc6985dd06' +
      '6d4346421d17bf5117a2a1ff0fcb2a759f58a539dfbe857a40bce4cf49ec600d',
    output:
      'b58cfbe118e0cb94d79b5fd6a6dafb98764dff49c14e1770b566e42402da1a7d' +
      'a4d8527693914139caee5bd03903af43a491351d23b430948dd50cde10d32b3c',
  },
  {
    input: '5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a',
    blinded: 'cc0b2a350101881d8a4cba4c80241d74fb7dcbfde4a61fde2f91443c2bf9ef0c',
    evaluated: '60a59a57208d48aca71e9e850d22674b611f752bed48b36f7a91b372bd7ad468',
    proof:
      '401a0da6264f8cf45bb2f5264bc31e109155600babb3cd4e5af7d181a2c9dc0a' +
      '67154fabf031fd936051dec80b0b6ae29c9503493dde7393b722eafdf5a50b02',
    output:
      '8a9a2f3c7f085b65933594309041fc1898d42d0858e59f90814ae90571a6df60' +
      '356f4610bf816f27afdd84f47719e480906d27ecd994985890e5f539e7ea74b6',
  },
];
const BATCH_VECTOR = {
  blinds: [BLIND_1, PROOF_SCALAR_1],
  blinded: [
    '863f330cc1a1259ed5a5998a23acfd37fb4351a793a5b3c090b642ddc439b945',
    '90a0145ea9da29254c3a56be4fe185465ebb3bf2a1801f7124bbbadac751e654',
  ],
  evaluated: [
    'aa8fa048764d5623868679402ff6108d2521884fa138cd7f9c7669a9a014267e',
    'cc5ac221950a49ceaa73c8db41b82c20372a4c8d63e5dded2db920b7eee36a2a',
  ],
  proofScalar: '419c4f4f5052c53c45f3da494d2b67b220d02118e0857cdbcf037f9ea84bbe0c',
  proof:
    'cc203910175d786927eeb44ea847328047892ddf8590e723c37205cb74600b0a' +
    '5ab5337c8eb4ceae0494c2cf89529dcf94572ed267473d567aeed6ab873dee08',
};

describe('the composed VOPRF reproduces RFC 9497 Appendix A.1.2', () => {
  for (const [number, vector] of SINGLE_VECTORS.entries()) {
    test(`test vector ${number + 1}: blind, evaluate with proof, finalise, Evaluate`, () => {
      const input = bytes(vector.input);
      const { blinded } = blindWithScalar(input, bytes(BLIND_1));
      expect(hexOf(blinded)).toBe(vector.blinded);
      const answer = blindEvaluateBatchWithScalar(
        bytes(SECRET_KEY),
        bytes(PUBLIC_KEY),
        [blinded],
        bytes(PROOF_SCALAR_1),
      );
      expect(hexOf(answer.evaluated[0])).toBe(vector.evaluated);
      expect(hexOf(answer.proof)).toBe(vector.proof);
      const item = { input, blind: bytes(BLIND_1), blinded, evaluated: bytes(vector.evaluated) };
      expect(hexOf(COMPOSED_VOPRF.finalizeBatch([item], bytes(PUBLIC_KEY), bytes(vector.proof))[0])).toBe(
        vector.output,
      );
      expect(hexOf(COMPOSED_VOPRF.evaluate(bytes(SECRET_KEY), input))).toBe(vector.output);
    });
  }

  test('test vector 3: a batch of two under one proof', () => {
    const inputs = SINGLE_VECTORS.map((vector) => bytes(vector.input));
    const blinded = inputs.map((input, k) => blindWithScalar(input, bytes(BATCH_VECTOR.blinds[k])).blinded);
    expect(blinded.map(hexOf)).toEqual(BATCH_VECTOR.blinded);
    const answer = blindEvaluateBatchWithScalar(
      bytes(SECRET_KEY),
      bytes(PUBLIC_KEY),
      blinded,
      bytes(BATCH_VECTOR.proofScalar),
    );
    expect(answer.evaluated.map(hexOf)).toEqual(BATCH_VECTOR.evaluated);
    expect(hexOf(answer.proof)).toBe(BATCH_VECTOR.proof);
    const items = inputs.map((input, k) => ({
      input,
      blind: bytes(BATCH_VECTOR.blinds[k]),
      blinded: blinded[k],
      evaluated: answer.evaluated[k],
    }));
    const outputs = COMPOSED_VOPRF.finalizeBatch(items, bytes(PUBLIC_KEY), answer.proof);
    expect(outputs.map(hexOf)).toEqual(SINGLE_VECTORS.map((vector) => vector.output));
  });

  test('a proof with one bit changed, a proof under another key, and points off the group are refused', () => {
    const input = bytes('00');
    const item = {
      input,
      blind: bytes(BLIND_1),
      blinded: bytes(SINGLE_VECTORS[0].blinded),
      evaluated: bytes(SINGLE_VECTORS[0].evaluated),
    };
    const flipped = bytes(SINGLE_VECTORS[0].proof);
    flipped[40] ^= 1;
    expect(() => COMPOSED_VOPRF.finalizeBatch([item], bytes(PUBLIC_KEY), flipped)).toThrow(/proof verification failed/);
    const other = COMPOSED_VOPRF.generateKeyPair();
    expect(() => COMPOSED_VOPRF.finalizeBatch([item], other.publicKey, bytes(SINGLE_VECTORS[0].proof))).toThrow(
      /proof verification failed/,
    );
    const offGroup = new Uint8Array(32).fill(0xff);
    // The auditor's side: the unblinding's library multiplication refuses a bad evaluated element by name,
    // the proof's linear combinations a bad blinded one.
    const verify = (changed: Partial<typeof item>) => () =>
      COMPOSED_VOPRF.finalizeBatch([{ ...item, ...changed }], bytes(PUBLIC_KEY), bytes(SINGLE_VECTORS[0].proof));
    expect(verify({ evaluated: offGroup })).toThrow(/evaluated element 0: not a ristretto255 element/);
    expect(verify({ evaluated: new Uint8Array(32) })).toThrow(/evaluated element 0: .*the identity element/);
    expect(verify({ evaluated: new Uint8Array(31) })).toThrow(/evaluated element 0: not a ristretto255 element/);
    expect(verify({ blinded: offGroup })).toThrow(/proof verification failed/);
    expect(verify({ blinded: new Uint8Array(32) })).toThrow(/proof verification failed/);
    expect(() => COMPOSED_VOPRF.blindEvaluateBatch(bytes(SECRET_KEY), bytes(PUBLIC_KEY), [offGroup])).toThrow(
      /not a ristretto255 element/,
    );
    expect(() => COMPOSED_VOPRF.blindEvaluateBatch(bytes(SECRET_KEY), bytes(PUBLIC_KEY), [new Uint8Array(32)])).toThrow(
      /identity/,
    );
  });
});

describe('the composed VOPRF equals @noble/curves ristretto255_oprf on random inputs', () => {
  test('same blinds from the same generator bytes, same evaluations, outputs and proofs accepted both ways', () => {
    const keys = REFERENCE_VOPRF.generateKeyPair();
    const inputs = Array.from({ length: 24 }, (_, k) => new Uint8Array(randomBytes(1 + ((k * 37) % 90))));
    const seeds = inputs.map(() => new Uint8Array(randomBytes(48)));
    const generatorOf = (seed: Uint8Array) => () => seed.slice();
    const ours = inputs.map((input, k) => COMPOSED_VOPRF.blind(input, generatorOf(seeds[k])));
    const theirs = inputs.map((input, k) => REFERENCE_VOPRF.blind(input, generatorOf(seeds[k])));
    expect(ours.map((blind) => hexOf(blind.blinded))).toEqual(theirs.map((blind) => hexOf(blind.blinded)));
    expect(ours.map((blind) => hexOf(blind.blind))).toEqual(theirs.map((blind) => hexOf(blind.blind)));
    const blinded = ours.map((blind) => blind.blinded);
    const proofSeed = new Uint8Array(randomBytes(48));
    const ourAnswer = COMPOSED_VOPRF.blindEvaluateBatch(
      keys.secretKey,
      keys.publicKey,
      blinded,
      generatorOf(proofSeed),
    );
    const theirAnswer = REFERENCE_VOPRF.blindEvaluateBatch(
      keys.secretKey,
      keys.publicKey,
      blinded,
      generatorOf(proofSeed),
    );
    expect(ourAnswer.evaluated.map(hexOf)).toEqual(theirAnswer.evaluated.map(hexOf));
    expect(hexOf(ourAnswer.proof)).toBe(hexOf(theirAnswer.proof));
    const items = inputs.map((input, k) => ({ input, ...ours[k], evaluated: ourAnswer.evaluated[k] }));
    const ourOutputs = COMPOSED_VOPRF.finalizeBatch(items, keys.publicKey, ourAnswer.proof).map(hexOf);
    expect(ourOutputs).toEqual(REFERENCE_VOPRF.finalizeBatch(items, keys.publicKey, ourAnswer.proof).map(hexOf));
    expect(inputs.map((input) => hexOf(COMPOSED_VOPRF.evaluate(keys.secretKey, input)))).toEqual(
      inputs.map((input) => hexOf(REFERENCE_VOPRF.evaluate(keys.secretKey, input))),
    );
    expect(inputs.map((input) => hexOf(COMPOSED_VOPRF.evaluate(keys.secretKey, input)))).toEqual(ourOutputs);
    // A key pair of ours is one noble's proofs verify under: pk = sk·G.
    const ownKeys = COMPOSED_VOPRF.generateKeyPair();
    const underOwn = REFERENCE_VOPRF.blindEvaluateBatch(ownKeys.secretKey, ownKeys.publicKey, blinded);
    const ownItems = inputs.map((input, k) => ({ input, ...ours[k], evaluated: underOwn.evaluated[k] }));
    expect(COMPOSED_VOPRF.finalizeBatch(ownItems, ownKeys.publicKey, underOwn.proof).map(hexOf)).toEqual(
      inputs.map((input) => hexOf(REFERENCE_VOPRF.evaluate(ownKeys.secretKey, input))),
    );
  });
});
