// Wall time and cores busy of one cold `make reproduce-variability` (every model under 10 model seeds and 10 split
// seeds, trained from empty caches) in a clone of the committed HEAD. Cores busy is the run's CPU seconds (user +
// system of make and every process it waited for, from /proc/self/stat's cutime and cstime, so Linux only) over its
// wall seconds. The load average is sampled every 30 s, so a reader can see whether other work shared the machine.
// The trained model cache files are hashed (sha256, card.json's timing field left out), so two commits' models can
// be compared byte for byte.
//   FAIRAUDIT_DATA_DIR=/path/to/mirror node scripts/reproduce-variability-cores.mjs \
//     [--record docs/measurements/reproduce-variability-cores.json] [--target reproduce-variability] [--keep]
// Needs node_modules here (the clone links to them). Exits 1 when make fails or a bar (< 30 min, >= 1.8 cores) is
// missed.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadAverage, measurementEnvironment } from '../dist/src/harness/machine.js';
import { gitCommit } from '../dist/src/harness/run-record.js';
import { cloneAt, environmentWithCachesIn } from './clone-with-empty-caches.mjs';
import { modelCacheHashes } from './model-cache-hashes.mjs';

const { values } = parseArgs({
  options: {
    record: { type: 'string' },
    target: { type: 'string', default: 'reproduce-variability' },
    keep: { type: 'boolean', default: false },
  },
});
const repository = resolve(import.meta.dirname, '..');
const commit = gitCommit();
const before = loadAverage();
const work = mkdtempSync(join(tmpdir(), 'fairaudit-variability-'));
const checkout = join(work, 'fairaudit');
cloneAt(repository, checkout, commit);
const environment = environmentWithCachesIn(join(work, 'caches'));

/** CPU seconds of the children this process has waited for (fields 16 and 17 of /proc/self/stat, in clock ticks). */
function childCpuSeconds() {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
  return (Number(fields[13]) + Number(fields[14])) / ticks;
}


const loadSamples = [];
const sampler = setInterval(() => loadSamples.push(loadAverage()[0]), 30_000);
const cpuBefore = childCpuSeconds();
const started = Date.now();
process.stderr.write(`reproduce-variability-cores: make ${values.target} at ${commit} in ${checkout}\n`);
const log = createWriteStream(join(work, 'make.log'));
const code = await new Promise((done, fail) => {
  const child = spawn('make', [values.target], { cwd: checkout, env: environment, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  child.on('error', fail);
  child.on('close', done);
});
const wallSeconds = (Date.now() - started) / 1000;
clearInterval(sampler);
log.end();
const cpuSeconds = childCpuSeconds() - cpuBefore;
const modelDirectory = join(checkout, 'data', 'cache', 'models');
const models = existsSync(modelDirectory) ? modelCacheHashes(modelDirectory) : {};
const modelDigest = createHash('sha256').update(JSON.stringify(models)).digest('hex').slice(0, 16);
const record = {
  ...measurementEnvironment(
    'FAIRAUDIT_DATA_DIR=… node scripts/reproduce-variability-cores.mjs --record ' +
      'docs/measurements/reproduce-variability-cores.json',
    commit,
    before,
  ),
  target: `make ${values.target}`,
  exitCode: code,
  wallSeconds: Math.round(wallSeconds * 10) / 10,
  wallMinutes: Math.round((wallSeconds / 60) * 10) / 10,
  cpuSeconds: Math.round(cpuSeconds * 10) / 10,
  coresBusy: Math.round((cpuSeconds / wallSeconds) * 100) / 100,
  loadEvery30Seconds: loadSamples,
  bars: { wallMinutesBelow: 30, coresBusyAtLeast: 1.8 },
  modelFiles: Object.keys(models).length,
  modelDigest,
  modelHashes: models,
};
console.log(JSON.stringify({ ...record, modelHashes: undefined }, null, 2));
if (values.record) writeFileSync(values.record, `${JSON.stringify(record, null, 2)}\n`);
if (!values.keep) rmSync(work, { recursive: true, force: true });
process.exitCode = code === 0 && record.wallMinutes < 30 && record.coresBusy >= 1.8 ? 0 : 1;
