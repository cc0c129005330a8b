#!/usr/bin/env node
// What one label costs the VOPRF auditor, operation by operation, and whether a variable-time
// multi-scalar multiplication would make the proof check cheaper. CPU microseconds per call
// (process.cpuUsage, all threads) of: libsodium's ristretto255 primitives (WebAssembly), node:crypto's
// SHA-512 inside @noble/curves' expand_message_xmd, and @noble/curves' ristretto255 decoding, addition
// and Pippenger MSM; then the auditor's path as the label transfer runs it (blind, then finalizeBatch on
// batches of 256). The proof check's two linear combinations cost per element, with libsodium, one
// scalar multiplication and one addition each; with noble, one decoding plus its share of the MSM.
//   nice -n 5 node scripts/voprf-operation-costs.mjs [--elements 4096] \
//     [--out docs/benchmarks/voprf-operation-costs.json]
// Needs dist/ (npm run build). Writes the JSON file (machine, commit, date, load average) and prints it.
import { hash as oneShotHash, randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { pippenger } from '@noble/curves/abstract/curve.js';
import { expand_message_xmd } from '@noble/curves/abstract/hash-to-curve.js';
import { ristretto255 } from '@noble/curves/ed25519.js';
import sodium from 'libsodium-wrappers-sumo';
import { loadAverage, measurementEnvironment } from '../dist/src/harness/machine.js';
import { gitCommit } from '../dist/src/harness/run-record.js';
import { labelInput, VOPRF } from '../dist/src/pir/voprf-suite.js';
import { writeFileAtomic } from '../dist/src/util/atomic-write.js';

await sodium.ready;
const { values } = parseArgs({
  options: {
    elements: { type: 'string', default: '4096' },
    out: { type: 'string', default: 'docs/benchmarks/voprf-operation-costs.json' },
  },
});
const elements = Number(values.elements);
if (!Number.isInteger(elements) || elements < 256) {
  process.stderr.write(`--elements: expected an integer of at least 256, found ${JSON.stringify(values.elements)}\n`);
  process.exit(2);
}
const commit = gitCommit();
const loadBefore = loadAverage();

/** CPU microseconds per call of `work` over `count` calls, after one untimed warm-up pass. */
function perCall(count, work) {
  work();
  const before = process.cpuUsage();
  work();
  const used = process.cpuUsage(before);
  return Math.round(((used.user + used.system) / count) * 100) / 100;
}

const Point = ristretto255.Point;
const points = Array.from({ length: elements }, () => sodium.crypto_core_ristretto255_random());
const scalars = Array.from({ length: elements }, () => sodium.crypto_core_ristretto255_scalar_random());
const wide = Array.from({ length: elements }, () => new Uint8Array(randomBytes(64)));
const bigScalars = scalars.map((scalar) => BigInt(`0x${Buffer.from(scalar).reverse().toString('hex')}`));
const sha512 = Object.assign((bytes) => new Uint8Array(oneShotHash('sha512', bytes, 'buffer')), {
  outputLen: 64,
  blockLen: 128,
});
const dst = Buffer.from('HashToGroup-OPRFV1-\u0001-ristretto255-SHA512');
const inputs = Array.from({ length: elements }, (_, i) => labelInput(new Uint8Array(32), new Uint8Array(16), i));
let noblePoints = [];
const costs = {
  libsodiumScalarmult: perCall(elements, () => {
    for (let i = 0; i < elements; i++) sodium.crypto_scalarmult_ristretto255(scalars[i], points[i]);
  }),
  libsodiumScalarmultBase: perCall(elements, () => {
    for (let i = 0; i < elements; i++) sodium.crypto_scalarmult_ristretto255_base(scalars[i]);
  }),
  libsodiumAdd: perCall(elements - 1, () => {
    for (let i = 1; i < elements; i++) sodium.crypto_core_ristretto255_add(points[i - 1], points[i]);
  }),
  libsodiumIsValidPoint: perCall(elements, () => {
    for (let i = 0; i < elements; i++) sodium.crypto_core_ristretto255_is_valid_point(points[i]);
  }),
  libsodiumFromHash: perCall(elements, () => {
    for (let i = 0; i < elements; i++) sodium.crypto_core_ristretto255_from_hash(wide[i]);
  }),
  libsodiumScalarMul: perCall(elements - 1, () => {
    for (let i = 1; i < elements; i++) sodium.crypto_core_ristretto255_scalar_mul(scalars[i - 1], scalars[i]);
  }),
  expandMessageXmd: perCall(elements, () => {
    for (let i = 0; i < elements; i++) expand_message_xmd(inputs[i], dst, 64, sha512);
  }),
  nobleDecode: perCall(elements, () => {
    noblePoints = points.map((bytes) => Point.fromBytes(bytes));
  }),
  nobleAdd: perCall(elements - 1, () => {
    for (let i = 1; i < elements; i++) noblePoints[i - 1].add(noblePoints[i]);
  }),
  noblePippenger256PerPoint: perCall(256, () => pippenger(Point, noblePoints.slice(0, 256), bigScalars.slice(0, 256))),
  noblePippengerAllPerPoint: perCall(elements, () => pippenger(Point, noblePoints, bigScalars)),
};
const keys = VOPRF.generateKeyPair();
let finalizeMicros = 0;
/** The auditor's path in batches of 256; the provider's evaluation between is not counted. */
const auditorPath = () => {
  finalizeMicros = 0;
  for (let start = 0; start < elements; start += 256) {
    const batch = inputs.slice(start, start + 256);
    const blinds = batch.map((input) => VOPRF.blind(input));
    const answer = VOPRF.blindEvaluateBatch(
      keys.secretKey,
      keys.publicKey,
      blinds.map((blind) => blind.blinded),
    );
    const before = process.cpuUsage();
    VOPRF.finalizeBatch(
      batch.map((input, k) => ({ input, ...blinds[k], evaluated: answer.evaluated[k] })),
      keys.publicKey,
      answer.proof,
    );
    const used = process.cpuUsage(before);
    finalizeMicros += used.user + used.system;
  }
};
auditorPath();
const blindBefore = process.cpuUsage();
for (const input of inputs) VOPRF.blind(input);
const blindUsed = process.cpuUsage(blindBefore);
const blindMicros = blindUsed.user + blindUsed.system;
auditorPath();
const perElement = {
  blind: Math.round((blindMicros / elements) * 10) / 10,
  finalize: Math.round((finalizeMicros / elements) * 10) / 10,
  proofTermsLibsodium: Math.round(2 * (costs.libsodiumScalarmult + costs.libsodiumAdd) * 10) / 10,
  proofTermsNoble: Math.round(2 * (costs.nobleDecode + costs.noblePippengerAllPerPoint) * 10) / 10,
};
const record = {
  ...measurementEnvironment(
    `nice -n 5 node scripts/voprf-operation-costs.mjs --elements ${elements} --out ${values.out}`,
    commit,
    loadBefore,
  ),
  elements,
  unit: 'CPU microseconds per call (per point for the MSMs)',
  costs,
  auditorPerElement: perElement,
};
const text = `${JSON.stringify(record, null, 2)}\n`;
writeFileAtomic(values.out, text);
process.stdout.write(text);
