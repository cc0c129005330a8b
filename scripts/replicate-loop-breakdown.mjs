#!/usr/bin/env node
// Where the CPU time of one replicate of the bench runner's cell goes, in ns per queried row
// (each of the min(B, pool) = 4,000 rows a replicate touches: the sequential audit's queries,
// then the fixed-sample baseline's continuation of the same order), beside the GLR kernel's own
// cost per update. Each part is timed on one thread (CPU time, median of --runs passes):
//   generator   the seeded stream's draws, one per row (Alea's steps on locals, as the loop takes them)
//   shuffle     the partial Fisher-Yates steps and the restore, beyond their draws (about 0, and can come
//               out below: their loads and stores overlap the serial chain of Alea's carry)
//   kernel      the Bernoulli GLR's work in the loop: the audit's queries alone (fixedSample: false)
//               minus their draws and shuffle steps and the threshold comparisons
//   threshold   the comparisons of the statistic with the two thresholds
//   bookkeeping the fixed-sample baseline beyond its draws and steps (sums, decision), and the result
//   harness     a whole one-thread run (seeds, chunks, checkpoints, Arrow writing) beyond the loop
// kernelNanosecondsPerQuery is the stream's own cost per query, addWithin called once per query.
//   node scripts/replicate-loop-breakdown.mjs [--replicates 10000] [--runs 3] [--out
// docs/benchmarks/replicate-loop-breakdown.json]
// Needs dist/ (npm run build). Writes the JSON file (machine, commit, date, load average) and prints it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { prepareAudit } from '../dist/src/audit/prepare-audit.js';
import { restoreOrder, restoreScratch, shufflePosition } from '../dist/src/audit/partial-shuffle.js';
import { runSequentialAudit } from '../dist/src/audit/sequential-audit.js';
import { generateSyntheticPool } from '../dist/src/data/synthetic-pool.js';
import { configFromObject } from '../dist/src/harness/config.js';
import { loadAverage, measurementEnvironment, processCpuSeconds } from '../dist/src/harness/machine.js';
import { gitCommit } from '../dist/src/harness/run-record.js';
import { runExperiment } from '../dist/src/harness/run-experiment.js';
import { registerBuiltInKinds } from '../dist/src/kinds/index.js';
import { BernoulliGlrStream } from '../dist/src/stats/bernoulli-glr-stream.js';
import { waldThresholds } from '../dist/src/stats/thresholds.js';
import { writeFileAtomic } from '../dist/src/util/atomic-write.js';
import { ALEA_MULTIPLIER, ALEA_SCALE, aleaStateOf, createRandom, deriveSeed } from '../dist/src/util/random.js';

const { values } = parseArgs({
  options: {
    replicates: { type: 'string', default: '10000' },
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
/** The draws of `rows` positions as the loop takes them: Alea's steps on locals; `shuffled` also takes the steps. */
function draws(seed, rows, shuffled) {
  const state = aleaStateOf(createRandom(seed));
  let s0 = state[0];
  let s1 = state[1];
  let s2 = state[2];
  let carry = state[3];
  // The loop shuffles the packed codes (2 group + decision, one byte a row) and restores them by copy.
  const { codes, rowCodes, swaps } = prepared;
  const length = codes.length;
  let total = 0;
  for (let position = 0; position < rows; position++) {
    const t = ALEA_MULTIPLIER * s0 + carry * ALEA_SCALE;
    s0 = s1;
    s1 = s2;
    carry = Math.floor(t);
    s2 = t - carry;
    if (!shuffled) {
      total += s2;
      continue;
    }
    const partner = position + Math.floor(s2 * (length - position));
    const code = codes[partner];
    codes[partner] = codes[position];
    codes[position] = code;
    swaps[position] = partner;
    total += code;
  }
  if (shuffled) restoreScratch(codes, rowCodes, swaps, rows);
  return total;
}
const generator =
  cpuSeconds(() => {
    for (const seed of seeds) sink += draws(seed, cap, false);
  }) - seeding;
const shuffleAndDraws =
  cpuSeconds(() => {
    for (const seed of seeds) sink += draws(seed, cap, true);
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
const queried =
  cpuSeconds(() => {
    for (const seed of seeds) {
      sink += runSequentialAudit(prepared, settings, createRandom(seed), { fixedSample: false }).queries;
    }
  }) - seeding;
const loop =
  cpuSeconds(() => {
    for (const seed of seeds) sink += runSequentialAudit(prepared, settings, createRandom(seed)).queries;
  }) - seeding;
// The draws and steps of one row, split between the queries and the baseline's continuation.
const stepOfRow = shuffleAndDraws / rows;

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
  kernel: perRow(queried - stepOfRow * queries - threshold),
  threshold: perRow(threshold),
  bookkeeping: perRow(loop - queried - stepOfRow * (rows - queries)),
  harness: perRow(harness * (replicates / (replicates - 100))),
};
const commit = gitCommit();
const record = {
  ...measurementEnvironment(
    `node scripts/replicate-loop-breakdown.mjs --replicates ${replicates} --runs ${runs}`,
    commit,
    loadBefore,
  ),
  workload: `bench runner cell: 20,000 rows, SP, decision access, B = 4000, ${replicates} replicates, one ` +
`thread, CPU time`,
  rowsPerReplicate: cap,
  queriesPerReplicate: Math.round((10 * queries) / replicates) / 10,
  nanosecondsPerRow: parts,
  nanosecondsPerRowTotal: Math.round(10 * Object.values(parts).reduce((sum, part) => sum + part, 0)) / 10,
  kernelNanosecondsPerQuery: Math.round((1e10 * kernel) / queries) / 10,
  kernelInLoopNanosecondsPerQuery: Math.round((1e10 * (queried - stepOfRow * queries - threshold)) / queries) / 10,
  microsecondsPerReplicate:
    Math.round((1e7 * (loop + seeding + harness * (replicates / (replicates - 100)))) / replicates) / 10,
  sink: Number.isFinite(sink),
};
writeFileAtomic(values.out, `${JSON.stringify(record, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(record)}\n`);
