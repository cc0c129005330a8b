#!/usr/bin/env node
// Where the CPU time of one replicate of the bench runner's cell goes, in ns per queried row
// (each of the min(B, pool) = 4,000 rows a replicate touches: the sequential audit's queries,
// then the fixed-sample baseline's continuation of the same order), beside the GLR kernel's own
// cost per update. Each part is timed alone on one thread (CPU time, median of --runs passes):
//   generator   the seeded stream's draws, one per row
//   shuffle     the partial Fisher-Yates steps and the restore, beyond their draws
//   kernel      the Bernoulli GLR stream fed the replicate's queries as the loop feeds it
//   threshold   the comparisons of the statistic with the two thresholds
//   bookkeeping the rest of runSequentialAudit (counts, fixed-sample sums and decision, result)
//   harness     a whole one-thread run (seeds, chunks, checkpoints, Arrow writing) beyond the loop
//   node scripts/replicate-loop-breakdown.mjs [--replicates 2000] [--runs 3] [--out
// docs/benchmarks/replicate-loop-breakdown.json]
// Needs dist/ (npm run build). Writes the JSON file (machine, commit, date, load average) and prints it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { prepareAudit } from '../dist/src/audit/prepare-audit.js';
import { restoreOrder, shufflePosition } from '../dist/src/audit/partial-shuffle.js';
import { runSequentialAudit } from '../dist/src/audit/sequential-audit.js';
import { generateSyntheticPool } from '../dist/src/data/synthetic-pool.js';
import { configFromObject } from '../dist/src/harness/config.js';
import { loadAverage, machine, processCpuSeconds } from '../dist/src/harness/machine.js';
import { gitCommit } from '../dist/src/harness/run-record.js';
import { runExperiment } from '../dist/src/harness/run-experiment.js';
import { registerBuiltInKinds } from '../dist/src/kinds/index.js';
import { BernoulliGlrStream } from '../dist/src/stats/bernoulli-glr-stream.js';
import { waldThresholds } from '../dist/src/stats/thresholds.js';
import { writeFileAtomic } from '../dist/src/util/atomic-write.js';
import { createRandom, deriveSeed } from '../dist/src/util/random.js';

const { values } = parseArgs({
  options: {
    replicates: { type: 'string', default: '2000' },
    runs: { type: 'string', default: '3' },
    out: { type: 'string', default: 'docs/benchmarks/replicate-loop-breakdown.json' },
  },
});
const replicates = Number(values.replicates);
const runs = Number(values.runs);
const loadBefore = loadAverage();
registerBuiltInKinds();

// The bench runner's cell (src/harness/benchmark.ts).
const poolSpec = { size: 20000, groupShare: 0.4, labelRate: [0.45, 0.4], decisionRate: [0.4, 0.38] };
const settings = { tolerance: 0.05, budget: 4000, alpha: 0.05, beta: 0.2 };
const prepared = prepareAudit(generateSyntheticPool(poolSpec), 'sp', 'decision');
const cap = Math.min(settings.budget, prepared.size);
const rows = replicates * cap;
const seeds = Array.from({ length: replicates }, (_, index) => deriveSeed('replicate-loop-breakdown', index));
const { upper, lower } = waldThresholds(settings.alpha, settings.beta);

/** Median CPU seconds of `runs` passes of work (after one warm-up pass). */
function cpuSeconds(work) {
  work();
  const times = [];
  for (let run = 0; run < runs; run++) {
    const before = processCpuSeconds();
    work();
    times.push(processCpuSeconds() - before);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

// Each replicate's queried rows, recorded once so the kernel can be fed them alone.
const queriedRows = [];
let sink = 0;
for (const seed of seeds) {
  const random = createRandom(seed);
  const result = runSequentialAudit(prepared, settings, random, { fixedSample: false });
  const replay = createRandom(seed);
  const rowsOfReplicate = new Int32Array(result.queries);
  for (let position = 0; position < result.queries; position++) {
    rowsOfReplicate[position] = shufflePosition(prepared.order, prepared.swaps, position, replay);
  }
  restoreOrder(prepared.order, prepared.swaps, result.queries);
  queriedRows.push(rowsOfReplicate);
}
const queries = queriedRows.reduce((sum, list) => sum + list.length, 0);

const seeding = cpuSeconds(() => {
  for (const seed of seeds) sink += createRandom(seed)();
});
const generator =
  cpuSeconds(() => {
    for (const seed of seeds) {
      const random = createRandom(seed);
      for (let position = 0; position < cap; position++) sink += random();
    }
  }) - seeding;
const shuffleAndDraws =
  cpuSeconds(() => {
    for (const seed of seeds) {
      const random = createRandom(seed);
      for (let position = 0; position < cap; position++) {
        sink += shufflePosition(prepared.order, prepared.swaps, position, random);
      }
      restoreOrder(prepared.order, prepared.swaps, cap);
    }
  }) - seeding;
const stream = new BernoulliGlrStream();
const { group, value } = prepared;
const kernel = cpuSeconds(() => {
  for (const list of queriedRows) {
    stream.reset(settings.tolerance);
    for (let index = 0; index < list.length; index++) {
      stream.addWithin(group[list[index]], value[list[index]], upper, lower);
    }
    stream.settle();
    sink += stream.statistic;
  }
});
const statistics = new Float64Array(queries).map((_, index) => Math.sin(index));
const threshold = cpuSeconds(() => {
  let crossings = 0;
  for (let index = 0; index < statistics.length; index++) {
    if (statistics[index] >= upper || statistics[index] <= lower) crossings++;
  }
  sink += crossings;
});
const loop =
  cpuSeconds(() => {
    for (const seed of seeds) sink += runSequentialAudit(prepared, settings, createRandom(seed)).queries;
  }) - seeding;

// A whole run at one thread, minus its fixed start-up (a 100-replicate run) and the loop itself.
function wholeRun(count) {
  const folder = mkdtempSync(join(tmpdir(), 'fairaudit-breakdown-'));
  const config = configFromObject(
    {
      experiment: 'replicate-loop-breakdown',
      kind: 'sequential-audit',
      seed: 1,
      replicates: count,
      chunkSize: 100,
      settings: { pool: { name: 'bench', synthetic: poolSpec }, metric: 'sp', access: 'decision', ...settings },
    },
    'replicate-loop-breakdown',
  );
  return async () => {
    const before = processCpuSeconds();
    await runExperiment(config, { threads: 1, outDirectory: folder });
    const seconds = processCpuSeconds() - before;
    rmSync(folder, { recursive: true, force: true });
    return seconds;
  };
}
const startup = await wholeRun(100)();
const whole = await wholeRun(replicates)();
const harness = whole - startup - (loop + seeding) * ((replicates - 100) / replicates);

const perRow = (seconds) => Math.round((1e10 * seconds) / rows) / 10;
const shuffle = shuffleAndDraws - generator;
const parts = {
  generator: perRow(generator),
  shuffle: perRow(shuffle),
  kernel: perRow(kernel),
  threshold: perRow(threshold),
  bookkeeping: perRow(loop - shuffleAndDraws - kernel - threshold),
  harness: perRow(harness * (replicates / (replicates - 100))),
};
const commit = gitCommit();
const record = {
  command: `node scripts/replicate-loop-breakdown.mjs --replicates ${replicates} --runs ${runs}`,
  date: new Date().toISOString(),
  commit,
  node: process.version,
  machine: machine(),
  loadAverageBefore: loadBefore,
  loadAverageAfter: loadAverage(),
  workload: `bench runner cell: 20,000 rows, SP, decision access, B = 4000, ${replicates} replicates, one ` +
`thread, CPU time`,
  rowsPerReplicate: cap,
  queriesPerReplicate: Math.round((10 * queries) / replicates) / 10,
  nanosecondsPerRow: parts,
  nanosecondsPerRowTotal: Math.round(10 * Object.values(parts).reduce((sum, part) => sum + part, 0)) / 10,
  kernelNanosecondsPerQuery: Math.round((1e10 * kernel) / queries) / 10,
  microsecondsPerReplicate:
    Math.round((1e7 * (loop + seeding + harness * (replicates / (replicates - 100)))) / replicates) / 10,
  sink: Number.isFinite(sink),
};
writeFileAtomic(values.out, `${JSON.stringify(record, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(record)}\n`);
