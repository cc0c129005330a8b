#!/usr/bin/env node
// Where a run's CPU goes on the main thread: runs the `bench runner` workload (40,000
// replicates of one synthetic cell, chunks of 100) through runExperiment and prints one
// JSON line: wall seconds, the main thread's CPU (utime + stime of /proc/self/task/PID/stat),
// the whole process's CPU (process.cpuUsage) and the serial tail (last chunk done → files
// written). Linux only; needs ROOT/dist (npm run build). ROOT (default: this checkout) lets
// two checkouts be compared under the same load.
//   node scripts/measure-main-thread.mjs [--root DIR] [--threads 2] [--replicates 40000]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    root: { type: 'string', default: resolve(dirname(fileURLToPath(import.meta.url)), '..') },
    threads: { type: 'string', default: '2' },
    replicates: { type: 'string', default: '40000' },
  },
});
const root = resolve(values.root);
const { registerBuiltIns } = await import(join(root, 'dist/src/cli/registry.js'));
const { configFromObject } = await import(join(root, 'dist/src/harness/config.js'));
const { runExperiment } = await import(join(root, 'dist/src/harness/run-experiment.js'));
registerBuiltIns();

/** CPU seconds of the main thread so far (clock ticks of 1/100 s). */
function mainThreadCpu() {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const config = configFromObject(
  {
    experiment: 'bench-runner',
    kind: 'sequential-audit',
    seed: 1,
    replicates: Number(values.replicates),
    chunkSize: 100,
    settings: {
      pool: {
        name: 'bench',
        synthetic: { size: 20000, groupShare: 0.4, labelRate: [0.45, 0.4], decisionRate: [0.4, 0.38] },
      },
      metric: 'sp',
      access: 'decision',
      tolerance: 0.05,
      budget: 4000,
    },
  },
  'measure-main-thread',
);
const folder = mkdtempSync(join(tmpdir(), 'fairaudit-main-thread-'));
const main = mainThreadCpu();
const cpu = process.cpuUsage();
const started = performance.now();
let lastChunk = started;
await runExperiment(config, {
  threads: Number(values.threads),
  outDirectory: folder,
  onProgress: (done, total) => {
    if (done === total) lastChunk = performance.now();
  },
});
const finished = performance.now();
const used = process.cpuUsage(cpu);
rmSync(folder, { recursive: true, force: true });
process.stdout.write(
  `${JSON.stringify({
    root,
    threads: Number(values.threads),
    wallSeconds: +((finished - started) / 1000).toFixed(2),
    mainThreadCpuSeconds: +(mainThreadCpu() - main).toFixed(2),
    processCpuSeconds: +((used.user + used.system) / 1e6).toFixed(2),
    tailSeconds: +((finished - lastChunk) / 1000).toFixed(3),
  })}\n`,
);
