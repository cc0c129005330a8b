#!/usr/bin/env node
// Cores busy while a reproduction's models train: CPU seconds (process.cpuUsage, which counts
// every worker thread of the process) over wall seconds, for the model stages of one paper run
// the way the reproduction runs them: the single run's models (trainedPools / trainedCandidateSets),
// then the seed grid (trainedSeedPools / trainedSeedCandidateSets). Each stage is given the seed
// counts; a build whose single-run stage ignores them trains the grid in the seed stage instead,
// so one script measures the code before and after the grid moved into one queue.
// Usage (a package root with dist/ built; FAIRAUDIT_DATA_DIR set):
//   node scripts/measure-training-cores.mjs --root . --label after --paper paper-a \
//     --model-seeds 2 --split-seeds 1 --out measurements/training-cores.jsonl [--commit SHA]
// paper-a trains Adult's four models (into a fresh temporary model cache); paper-b trains the
// COMPAS settings only (their cache entries under <root>/data/cache/models/ are removed first).
// Appends one JSON line: label, commit, date, machine, load average before and after, wall and
// CPU seconds, cores busy, the models each stage trained with their own training seconds (card.json)
// and the worker occupancy (those seconds over 2 threads x the stage's wall), and the model hashes (sha256 of every
// cache file, so two builds' models can be compared byte for byte).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, hostname, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { modelCacheHashes } from './model-cache-hashes.mjs';

const { values } = parseArgs({
  options: {
    root: { type: 'string', default: '.' },
    label: { type: 'string', default: 'run' },
    paper: { type: 'string', default: 'paper-a' },
    'model-seeds': { type: 'string', default: '2' },
    'split-seeds': { type: 'string', default: '1' },
    out: { type: 'string' },
    commit: { type: 'string' },
  },
});
const root = resolve(values.root);
const counts = { modelSeeds: Number(values['model-seeds']), splitSeeds: Number(values['split-seeds']) };
const load = (path) => import(pathToFileURL(join(root, 'dist', path)).href);


const lines = [];
const onStage = (stage) => lines.push(stage);
const stages = [];
let cacheDirectory;
let names = [];
const startedLoad = loadavg();
const startedCpu = process.cpuUsage();
const startedWall = performance.now();
/** The model folders of the cache (the paper's only), and the training seconds their cards record. */
const cacheFolders = () =>
  existsSync(cacheDirectory)
    ? readdirSync(cacheDirectory).filter((name) => values.paper === 'paper-a' || name.startsWith('compas-'))
    : [];
const trainingSeconds = (name) =>
  JSON.parse(readFileSync(join(cacheDirectory, name, 'card.json'), 'utf8')).trainingSeconds ?? 0;
const timeStage = async (name, run) => {
  const folders = new Set(cacheFolders());
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const before = lines.filter((line) => line.endsWith('(not in the model cache)')).length;
  await run();
  const used = process.cpuUsage(cpu);
  const seconds = (performance.now() - wall) / 1000;
  const cpuSeconds = (used.user + used.system) / 1e6;
  const trained = lines.filter((line) => line.endsWith('(not in the model cache)')).length - before;
  // Worker occupancy: the trained models' own seconds over (2 threads x the stage's wall). It does not
  // fall when a shared machine lends the process less CPU, as cores busy does.
  const modelSeconds = cacheFolders()
    .filter((folder) => !folders.has(folder))
    .reduce((sum, folder) => sum + trainingSeconds(folder), 0);
  stages.push({
    stage: name,
    wallSeconds: seconds,
    cpuSeconds,
    coresBusy: cpuSeconds / seconds,
    trained,
    modelSeconds: Number(modelSeconds.toFixed(1)),
    workerOccupancy: Number((modelSeconds / (2 * seconds)).toFixed(2)),
  });
};
if (values.paper === 'paper-a') {
  cacheDirectory = mkdtempSync(join(tmpdir(), 'fairaudit-training-cores-'));
  const { trainedPools } = await load('papers/paper-a/trained-pools.js');
  const { trainedSeedPools } = await load('papers/paper-a/seed-pools.js');
  const options = { cacheDirectory, onStage };
  await timeStage('single run', () => trainedPools({ ...options, seeds: counts })('adult'));
  await timeStage('seed grid', () => trainedSeedPools(options)('adult', counts));
  names = readdirSync(cacheDirectory);
} else {
  cacheDirectory = join(root, 'data', 'cache', 'models');
  mkdirSync(cacheDirectory, { recursive: true });
  for (const name of readdirSync(cacheDirectory))
    if (name.startsWith('compas-')) rmSync(join(cacheDirectory, name), { recursive: true });
  const { paperBModelSettings } = await load('papers/paper-b/table-2.js');
  const { trainedCandidateSets } = await load('papers/paper-b/candidate-sets.js');
  const { trainedSeedCandidateSets } = await load('papers/paper-b/seed-candidate-sets.js');
  const settings = paperBModelSettings.filter((setting) => setting.dataset === 'compas');
  await timeStage('single run', async () => {
    const provider = trainedCandidateSets({ settings, seeds: counts, onProgress: onStage });
    for (const setting of settings) await provider(setting);
  });
  await timeStage('seed grid', async () => {
    const provider = trainedSeedCandidateSets({ onProgress: onStage });
    for (const setting of settings) await provider(setting, counts);
  });
  names = readdirSync(cacheDirectory).filter((name) => name.startsWith('compas-'));
}
const used = process.cpuUsage(startedCpu);
const wallSeconds = (performance.now() - startedWall) / 1000;
const cpuSeconds = (used.user + used.system) / 1e6;
const gitCommit = () => {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
};
const commit = values.commit ?? gitCommit();
const record = {
  label: values.label,
  commit,
  date: new Date().toISOString(),
  machine: { host: hostname(), cpus: cpus().length, model: cpus()[0]?.model ?? null },
  paper: values.paper,
  counts,
  loadAverageBefore: startedLoad.map((value) => Number(value.toFixed(2))),
  loadAverageAfter: loadavg().map((value) => Number(value.toFixed(2))),
  wallSeconds: Number(wallSeconds.toFixed(1)),
  cpuSeconds: Number(cpuSeconds.toFixed(1)),
  coresBusy: Number((cpuSeconds / wallSeconds).toFixed(2)),
  stages: stages.map((entry) => ({
    ...entry,
    wallSeconds: Number(entry.wallSeconds.toFixed(1)),
    cpuSeconds: Number(entry.cpuSeconds.toFixed(1)),
    coresBusy: Number(entry.coresBusy.toFixed(2)),
  })),
  models: names.length,
  modelHashes: createHash('sha256')
    .update(JSON.stringify(modelCacheHashes(cacheDirectory, names)))
    .digest('hex')
    .slice(0, 16),
  fileHashes: modelCacheHashes(cacheDirectory, names),
};
if (values.paper === 'paper-a') rmSync(cacheDirectory, { recursive: true, force: true });
const line = `${JSON.stringify(record)}\n`;
if (values.out) {
  mkdirSync(dirname(resolve(values.out)), { recursive: true });
  appendFileSync(values.out, line);
}
process.stdout.write(line);
