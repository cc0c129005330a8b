#!/usr/bin/env node
// The exact-minimum provider's computed pass probability against audit sets alone: --draws audit sets drawn
// from node:crypto as each audit of scripts/exact-minimum-provider-audits.mjs draws them (drawAuditPlan), each
// judged by the fixed test on the provider's decisions (what the audit decides when every label it reads is the
// served one), with the 99% Clopper-Pearson interval. Same setting as that script.
//   nice -n 5 node scripts/exact-minimum-provider-draws.mjs [--draws 200000] \
//     [--out docs/benchmarks/exact-minimum-provider-draws.json]
// Needs dist/ (npm run build). Writes the JSON file (machine, commit, date, load average) and prints it.
import { parseArgs } from 'node:util';
import {
  exactMinimumDrawRate,
  exactMinimumWorkloadRecord,
  exactMinimumWorkloadSetting,
} from '../dist/src/harness/exact-minimum-provider-audits.js';
import { loadAverage, measurementEnvironment, processCpuSeconds } from '../dist/src/harness/machine.js';
import { gitCommit } from '../dist/src/harness/run-record.js';
import { writeFileAtomic } from '../dist/src/util/atomic-write.js';

const { values } = parseArgs({
  options: {
    draws: { type: 'string', default: '200000' },
    out: { type: 'string', default: 'docs/benchmarks/exact-minimum-provider-draws.json' },
  },
});
const draws = Number(values.draws);
if (!Number.isInteger(draws) || draws < 1) {
  process.stderr.write(`--draws: expected a positive integer, found ${JSON.stringify(values.draws)}\n`);
  process.exit(2);
}
const commit = gitCommit();
const loadBefore = loadAverage();
const started = performance.now();
const cpuStarted = processCpuSeconds();
const setting = exactMinimumWorkloadSetting(0, 0);
const pass = exactMinimumDrawRate(setting, draws);
const record = {
  ...measurementEnvironment(
    `nice -n 5 node scripts/exact-minimum-provider-draws.mjs --draws ${draws} --out ${values.out}`,
    commit,
    loadBefore,
  ),
  setting: {
    ...exactMinimumWorkloadRecord(),
  },
  pass,
  wallSeconds: Math.round((performance.now() - started) / 100) / 10,
  cpuSeconds: Math.round((processCpuSeconds() - cpuStarted) * 10) / 10,
};
const text = `${JSON.stringify(record, null, 2)}\n`;
writeFileAtomic(values.out, text);
process.stdout.write(text);
