// Two `make reproduce` runs of the committed HEAD from two checkout paths, the first with empty caches (cold), the
// second with the first's caches copied in (warm): their results trees must differ only in run.json's provenance,
// and the cold run's stderr (not a terminal) must never be silent for more than --max-silence seconds.
//   FAIRAUDIT_DATA_DIR=/path/to/mirror nice -n 5 node scripts/results-tree-identity.mjs \
//     [--record docs/measurements/results-tree-identity.json] [--max-silence 15] [--keep]
// Needs a build (npm run build) and node_modules here (the clones link to them). Exits 1 when a bar is missed.
import { spawn } from 'node:child_process';
import { cpSync, createWriteStream, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadAverage, machine } from '../dist/src/harness/machine.js';
import { gitCommit } from '../dist/src/harness/run-record.js';
import { compareTreeIdentity } from '../dist/src/report/run-comparison/tree-identity.js';
import { cloneAt, environmentWithCachesIn } from './clone-with-empty-caches.mjs';

const { values } = parseArgs({
  options: {
    record: { type: 'string' },
    'max-silence': { type: 'string', default: '15' },
    keep: { type: 'boolean', default: false },
  },
});
const maxSilence = Number(values['max-silence']);
const repository = resolve(import.meta.dirname, '..');
const commit = gitCommit();
const work = mkdtempSync(join(tmpdir(), 'fairaudit-tree-identity-'));
const runs = [
  { name: 'cold', checkout: join(work, 'first', 'fairaudit') },
  { name: 'warm', checkout: join(work, 'second-path', 'elsewhere', 'checkout') },
];

/**
 * makeReproduce(run, caches): `make reproduce` in the clone with its caches in `caches`, stdout to a log, stderr
 * timestamped line by line into another; resolves with the wall seconds, exit code and the longest silences.
 */
function makeReproduce(run, caches) {
  const environment = environmentWithCachesIn(caches);
  const stderrLog = createWriteStream(join(work, `${run.name}.stderr.log`));
  const stdoutLog = createWriteStream(join(work, `${run.name}.stdout.log`));
  const started = Date.now();
  let last = { at: started, line: '(start of make reproduce)' };
  const gaps = [];
  let pending = '';
  const onLine = (line) => {
    const now = Date.now();
    stderrLog.write(`${((now - started) / 1000).toFixed(1).padStart(8)} ${line}\n`);
    const seconds = (now - last.at) / 1000;
    gaps.push({ seconds, atSecond: (last.at - started) / 1000, before: last.line, after: line });
    last = { at: now, line };
  };
  return new Promise((done, fail) => {
    const options = { cwd: run.checkout, env: environment, stdio: ['ignore', 'pipe', 'pipe'] };
    const child = spawn('make', ['reproduce'], options);
    child.stdout.pipe(stdoutLog);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text) => {
      const parts = (pending + text).split(/\r?\n|\r/);
      pending = parts.pop() ?? '';
      for (const part of parts) onLine(part);
    });
    child.on('error', fail);
    child.on('close', (code) => {
      if (pending !== '') onLine(pending);
      onLine('(end of make reproduce)');
      stderrLog.end();
      gaps.sort((a, b) => b.seconds - a.seconds);
      done({ code, wallSeconds: (Date.now() - started) / 1000, gaps: gaps.slice(0, 5) });
    });
  });
}

const loadStarted = loadAverage();
const measured = {};
const cold = join(work, 'caches-cold');
const warm = join(work, 'caches-warm');
for (const run of runs) cloneAt(repository, run.checkout, commit);
process.stderr.write(`results-tree-identity: ${commit}, clones and logs in ${work}\n`);
measured.cold = await makeReproduce(runs[0], cold);
process.stderr.write(`results-tree-identity: cold run exit ${measured.cold.code}, ${measured.cold.wallSeconds} s\n`);
// Warm: the first clone's caches (data/cache, FAIRAUDIT_CACHE_DIR, XDG_CACHE_HOME) copied to the second.
if (existsSync(join(runs[0].checkout, 'data', 'cache')))
  cpSync(join(runs[0].checkout, 'data', 'cache'), join(runs[1].checkout, 'data', 'cache'), { recursive: true });
cpSync(cold, warm, { recursive: true });
measured.warm = await makeReproduce(runs[1], warm);
process.stderr.write(`results-tree-identity: warm run exit ${measured.warm.code}, ${measured.warm.wallSeconds} s\n`);

const identity = compareTreeIdentity(join(runs[0].checkout, 'results'), join(runs[1].checkout, 'results'));
const longest = measured.cold.gaps[0];
const { cores, cpuModel } = machine();
const record = {
  command: 'FAIRAUDIT_DATA_DIR=… nice -n 5 node scripts/results-tree-identity.mjs --record ' +
    'docs/measurements/results-tree-identity.json',
  commit,
  date: new Date().toISOString(),
  machine: `${hostname()}, ${cores} × ${cpuModel}`,
  load: { started: loadStarted, finished: loadAverage() },
  dataMirror: process.env.FAIRAUDIT_DATA_DIR ? 'FAIRAUDIT_DATA_DIR set' : 'none',
  logs: values.keep ? work : null,
  checkouts: runs.map((run) => run.checkout.slice(work.length + 1)),
  files: identity.files,
  differing: identity.differing,
  treesDifferOnlyInProvenance: identity.differing.length === 0,
  longestSilenceSeconds: longest.seconds,
  longestSilence: longest,
  maxSilenceSeconds: maxSilence,
  coldLongestSilences: measured.cold.gaps,
  warmLongestSilence: measured.warm.gaps[0],
  wallSeconds: { cold: measured.cold.wallSeconds, warm: measured.warm.wallSeconds },
  exitCodes: { cold: measured.cold.code, warm: measured.warm.code },
};
console.log(JSON.stringify(record, null, 2));
if (values.record) writeFileSync(values.record, `${JSON.stringify(record, null, 2)}\n`);
if (!values.keep) rmSync(work, { recursive: true, force: true });
const passed =
  record.treesDifferOnlyInProvenance &&
  longest.seconds <= maxSilence &&
  measured.cold.code === 0 &&
  measured.warm.code === 0;
process.exitCode = passed ? 0 : 1;
