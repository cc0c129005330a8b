#!/usr/bin/env node
// `bench glr`'s Bernoulli GLR against a straightforward SciPy implementation of the same statistic
// (scripts/bernoulli-glr-scipy.py), in one sitting: bench glr, the reference, bench glr again, on the
// bench's own workload (syntheticGlrStream: segments of 4000, gaps 0 to 0.15 around tolerance 0.05).
// The ratio is (our updates per CPU second, median of the two bench runs) x (the reference's CPU
// seconds per update), beside what four Math.log calls cost in the same sitting (an update takes
// four). It also checks the statistics: the largest |ours - SciPy| over the first --check updates.
// Writes the JSON record (commit, machine, date, load average) and prints it.
//   node scripts/glr-scipy-comparison.mjs [--updates 20000] [--check 4000]
// [--out docs/benchmarks/glr-scipy-reference.json]
// Needs dist/ (npm run build) and python3 with numpy and scipy (the project itself does not).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadAverage, machine, processCpuSeconds } from '../dist/src/harness/machine.js';
import { gitCommit } from '../dist/src/harness/run-record.js';
import { BernoulliGlrStream } from '../dist/src/stats/bernoulli-glr-stream.js';
import { syntheticGlrStream, THROUGHPUT_WORKLOAD } from '../dist/src/stats/glr-throughput.js';
import { writeFileAtomic } from '../dist/src/util/atomic-write.js';
import { createRandom } from '../dist/src/util/random.js';

const { values } = parseArgs({
  options: {
    updates: { type: 'string', default: '20000' },
    check: { type: 'string', default: '4000' },
    out: { type: 'string', default: 'docs/benchmarks/glr-scipy-reference.json' },
  },
});
const updates = Number(values.updates);
const check = Math.min(Number(values.check), updates);
const loadBefore = loadAverage();
const root = new URL('..', import.meta.url).pathname;

const { group, value } = syntheticGlrStream('bernoulli', updates, createRandom('glr-scipy-comparison'));
const folder = mkdtempSync(join(tmpdir(), 'fairaudit-glr-scipy-'));
const observations = join(folder, 'observations.txt');
writeFileSync(observations, Array.from(group, (g, i) => `${g} ${value[i]}\n`).join(''));

const bench = () =>
  JSON.parse(execFileSync(join(root, 'bin', 'fairaudit'), ['bench', 'glr', '--json'], { encoding: 'utf8' }));
const python = (args) => execFileSync('python3', args, { encoding: 'utf8', maxBuffer: 1 << 28 });
const first = bench();
const reference = JSON.parse(
  python([join(root, 'scripts', 'bernoulli-glr-scipy.py'), observations, '--check', String(check)]),
);
const second = bench();
rmSync(folder, { recursive: true, force: true });

// The cross-check: BernoulliGlrStream.add on the same observations, segment by segment.
const stream = new BernoulliGlrStream();
let largestDifference = 0;
for (let i = 0; i < check; i++) {
  if (i % THROUGHPUT_WORKLOAD.segmentLength === 0) stream.reset(THROUGHPUT_WORKLOAD.tolerance);
  stream.add(group[i], value[i]);
  largestDifference = Math.max(largestDifference, Math.abs(stream.statistic - reference.statistics[i]));
}

// What one Math.log costs here (CPU time, independent calls on the rates an update takes logs of, median of 5):
// an update needs four, so four of them bound the update from below as long as its statistic is the
// kernel's to the bit.
function logarithmNanoseconds() {
  const inputs = new Float64Array(1 << 20);
  const random = createRandom('glr-scipy-comparison-log');
  for (let i = 0; i < inputs.length; i++) inputs[i] = 0.5 + random();
  const times = [];
  let sink = 0;
  for (let run = 0; run < 6; run++) {
    const before = processCpuSeconds();
    for (let i = 0; i < inputs.length; i++) sink += Math.log(inputs[i]);
    if (run > 0) times.push(((processCpuSeconds() - before) * 1e9) / inputs.length);
  }
  return { nanoseconds: times.sort((a, b) => a - b)[2], sink };
}
const logarithm = logarithmNanoseconds();

const ours = [first.bernoulli.updatesPerSecond, second.bernoulli.updatesPerSecond].sort((a, b) => a - b);
const oursPerSecond = (ours[0] + ours[1]) / 2;
const record = {
  command: `node scripts/glr-scipy-comparison.mjs --updates ${updates} --check ${check}`,
  date: new Date().toISOString(),
  commit: gitCommit(),
  node: process.version,
  python: python(['-c', 'import sys; print(sys.version.split()[0])']).trim(),
  scipy: python(['-c', 'import scipy; print(scipy.__version__)']).trim(),
  machine: machine(),
  loadAverageBefore: loadBefore,
  loadAverageAfter: loadAverage(),
  reference:
    'scripts/bernoulli-glr-scipy.py: per update, the free maximum and the face maxima by ' +
    'scipy.optimize.minimize_scalar (bounded, xatol 1e-12), both faces on the accept side',
  referenceUpdates: reference.updates,
  referenceSecondsPerUpdate: reference.secondsPerUpdate,
  benchGlrBernoulliUpdatesPerSecond: ours,
  bernoulliUpdatesPerSecond: oursPerSecond,
  ratioToScipy: oursPerSecond * reference.secondsPerUpdate,
  nanosecondsPerUpdate: 1e9 / oursPerSecond,
  // The 3,000x bar in nanoseconds per update, beside four Math.log calls measured in this sitting.
  nanosecondsPerUpdateAt3000x: (reference.secondsPerUpdate * 1e9) / 3000,
  mathLogNanoseconds: logarithm.nanoseconds,
  fourLogarithmsNanoseconds: 4 * logarithm.nanoseconds,
  bettingCostPerQueryVsBernoulliGlr: [
    first.betting.costPerQueryVsBernoulliGlr,
    second.betting.costPerQueryVsBernoulliGlr,
  ],
  checkedUpdates: check,
  largestStatisticDifference: largestDifference,
};
writeFileAtomic(values.out, `${JSON.stringify(record, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(record)}\n`);
