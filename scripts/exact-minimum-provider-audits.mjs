#!/usr/bin/env node
// The exact-minimum provider against real oblivious audits over the default (VOPRF) transport:
// the provider flips exactMinimalFlips' certified minimum (pass probability >= 1 - delta against
// the strongest adversary) and serves the flipped labels; each audit draws S and the canaries
// from node:crypto, as `pir audit` does. Two series: --audits audits with no canaries (does the
// respir check |d_S| <= eps pass at the computed probability?) and --detection-audits (default
// --audits) with --canaries canaries (are they caught at paper B's Eq. 3 rate, q = 1 over N?),
// each with its 99% Clopper-Pearson interval.
// Candidate set: N = 2000 (1200 in group a at rate 0.35, 800 in group b at rate 0.5), |S| = 500,
// uniform design, eps = 0.05, 1 - delta = 0.8.
//   nice -n 10 node scripts/exact-minimum-provider-audits.mjs [--audits 300] [--canaries 10] \
//     [--detection-audits 300] [--out docs/benchmarks/exact-minimum-provider.json]
// Needs dist/ (npm run build). Writes the JSON file (machine, commit, date, load average) and prints it.
import { parseArgs } from 'node:util';
import {
  exactMinimumWorkloadRecord,
  exactMinimumWorkloadSetting,
  measureExactMinimumProvider,
} from '../dist/src/harness/exact-minimum-provider-audits.js';
import { loadAverage, measurementEnvironment, processCpuSeconds } from '../dist/src/harness/machine.js';
import { gitCommit } from '../dist/src/harness/run-record.js';
import { writeFileAtomic } from '../dist/src/util/atomic-write.js';

const { values } = parseArgs({
  options: {
    audits: { type: 'string', default: '300' },
    canaries: { type: 'string', default: '10' },
    'detection-audits': { type: 'string' },
    out: { type: 'string', default: 'docs/benchmarks/exact-minimum-provider.json' },
  },
});
const audits = Number(values.audits);
const canaryCount = Number(values.canaries);
const detectionAudits = Number(values['detection-audits'] ?? values.audits);
for (const [flag, value] of [
  ['--audits', audits],
  ['--canaries', canaryCount],
  ['--detection-audits', detectionAudits],
]) {
  if (!Number.isInteger(value) || value < 1) {
    process.stderr.write(`${flag}: expected a positive integer, found ${JSON.stringify(String(value))}\n`);
    process.exit(2);
  }
}
// The commit the audits run from (read before they start: a commit made during the run is not theirs).
const commit = gitCommit();
const loadBefore = loadAverage();
const started = performance.now();
const cpuStarted = processCpuSeconds();
const setting = exactMinimumWorkloadSetting(audits, canaryCount, detectionAudits);
const measurement = await measureExactMinimumProvider(setting, (done, total) => {
  if (done % 25 === 0 || done === total) process.stderr.write(`audits ${done}/${total}\n`);
});
const record = {
  ...measurementEnvironment(
    'nice -n 10 node scripts/exact-minimum-provider-audits.mjs ' +
    `--audits ${audits} --canaries ${canaryCount} --detection-audits ${detectionAudits} --out ${values.out}`,
    commit,
    loadBefore,
  ),
  transport: 'voprf',
  setting: {
    ...exactMinimumWorkloadRecord(),
    canaries: canaryCount,
    auditsPerSeries: audits,
    detectionAudits,
  },
  ...measurement,
  wallSeconds: Math.round((performance.now() - started) / 100) / 10,
  cpuSeconds: Math.round((processCpuSeconds() - cpuStarted) * 10) / 10,
};
const text = `${JSON.stringify(record, null, 2)}\n`;
writeFileAtomic(values.out, text);
process.stdout.write(text);
