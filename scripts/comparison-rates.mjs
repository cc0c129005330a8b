// How often `fairaudit compare` calls two runs of the quickstart different, with default settings
// (suite-level alpha 1%). Each pair is two runs with different master seeds (so the tests are unpaired:
// the hard case), head optionally changed by --set overrides. Prints one JSON line of counts and rates.
//   node scripts/comparison-rates.mjs --pairs 200 [--record FILE]                  # A/A: false alarms
//   node scripts/comparison-rates.mjs --pairs 20 --replicates 2000 --head tolerance=0.055   # A/B: power
// Needs a build (npm run build). Runs on one worker thread per run.
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, parseOverride } from '../dist/src/harness/config.js';
import { loadAverage, machine } from '../dist/src/harness/machine.js';
import { gitCommit } from '../dist/src/harness/run-record.js';
import { runExperiment } from '../dist/src/harness/run-experiment.js';
import { compareRuns } from '../dist/src/report/run-comparison/compare-runs.js';
import { registerBuiltIns } from '../dist/src/cli/registry.js';

const { values } = parseArgs({
  options: {
    pairs: { type: 'string', default: '200' },
    replicates: { type: 'string', default: '100' },
    head: { type: 'string', multiple: true, default: [] },
    'same-seed': { type: 'boolean', default: false },
    record: { type: 'string' },
  },
});
registerBuiltIns();
const pairs = Number(values.pairs);
const folder = mkdtempSync(join(tmpdir(), 'comparison-rates-'));
let flagged = 0;
let statistics = 0;
const started = Date.now();
for (let pair = 0; pair < pairs; pair++) {
  const baseSeed = `aa-${pair}-base`;
  const headSeed = values['same-seed'] ? baseSeed : `aa-${pair}-head`;
  const common = [`replicates=${values.replicates}`];
  const base = loadConfig('configs/quickstart.yaml', [...common, `seed=${baseSeed}`].map(parseOverride));
  const head = loadConfig(
    'configs/quickstart.yaml',
    [...common, `seed=${headSeed}`, ...values.head].map(parseOverride),
  );
  await runExperiment(base, { threads: 1, outDirectory: join(folder, 'base'), force: true });
  await runExperiment(head, { threads: 1, outDirectory: join(folder, 'head'), force: true });
  const comparison = await compareRuns([
    { name: 'quickstart', base: join(folder, 'base'), head: join(folder, 'head') },
  ]);
  statistics = comparison.statistics.length;
  if (comparison.verdict === 'regression') flagged++;
  process.stderr.write(`pair ${pair + 1}/${pairs}: ${comparison.verdict} (${flagged} flagged so far)\n`);
}
rmSync(folder, { recursive: true, force: true });
const rate = flagged / pairs;
const result = JSON.stringify({
    pairs,
    replicates: Number(values.replicates),
    head: values.head,
    sameSeed: values['same-seed'],
    statisticsPerComparison: statistics,
    flagged,
    rate,
    standardError: Math.sqrt((rate * (1 - rate)) / pairs),
    seconds: (Date.now() - started) / 1000,
});
console.log(result);
if (values.record) {
  // One line per measurement, with the commit, date and machine that produced it.
  const { cores, cpuModel } = machine();
  const stamp = {
    commit: gitCommit(),
    date: new Date().toISOString(),
    machine: `${hostname()}, ${cores} × ${cpuModel}`,
    load: loadAverage(),
  };
  appendFileSync(values.record, `${JSON.stringify({ ...JSON.parse(result), ...stamp })}\n`);
}
