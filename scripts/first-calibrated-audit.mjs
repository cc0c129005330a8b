// The time of a first `fairaudit audit --test calibrated-glr` (nothing cached: an empty FAIRAUDIT_CACHE_DIR) on a
// 5,000-row Adult pool: the first 5,000 rows of adult.test from FAIRAUDIT_DATA_DIR, group = sex (b = Female),
// label = income > 50K, decision = education-num >= 13 (a fixed rule, no model is trained: a decision-access
// calibration depends only on the group sizes, so what it costs is the calibration plus the audit). Wall and CPU
// seconds of the command (GNU time: user + system of the process and its threads), one JSON line.
//   node scripts/first-calibrated-audit.mjs [--checkout DIR] [--rows 5000] [--record FILE]
// --checkout: a built checkout whose bin/fairaudit runs (default this one), e.g. a base build to compare.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadAverage, machine } from '../dist/src/harness/machine.js';

const { values } = parseArgs({
  options: {
    checkout: { type: 'string', default: '.' },
    rows: { type: 'string', default: '5000' },
    record: { type: 'string' },
  },
});
const dataDirectory = process.env.FAIRAUDIT_DATA_DIR;
if (dataDirectory === undefined) {
  process.stderr.write('first-calibrated-audit: set FAIRAUDIT_DATA_DIR (the dataset mirror with adult/adult.test)\n');
  process.exit(2);
}
const rows = Number(values.rows);
const lines = readFileSync(join(dataDirectory, 'adult', 'adult.test'), 'utf8').split('\n');
const pool = ['group,label,decision'];
for (const line of lines) {
  const fields = line.split(',').map((field) => field.trim());
  if (fields.length !== 15) continue; // the "|1x3 Cross validator" line and the blank last one
  const group = fields[9] === 'Female' ? 1 : 0;
  pool.push(`${group},${fields[14].startsWith('>50K') ? 1 : 0},${Number(fields[4]) >= 13 ? 1 : 0}`);
  if (pool.length > rows) break;
}
const folder = mkdtempSync(join(tmpdir(), 'first-calibrated-audit-'));
const poolFile = join(folder, `adult-${rows}.csv`);
writeFileSync(poolFile, `${pool.join('\n')}\n`);
const cache = join(folder, 'cache');
const checkout = resolve(values.checkout);
const env = { ...process.env, FAIRAUDIT_CACHE_DIR: cache };
delete env.FAIRAUDIT_CALIBRATION_CACHE; // it would name the calibration folder itself
const timed = spawnSync(
  '/usr/bin/time',
  [
    '-f',
    '%e %U %S',
    join(checkout, 'bin', 'fairaudit'),
    'audit',
    '--pool',
    poolFile,
    '--test',
    'calibrated-glr',
    '--seed',
    '1',
    '--json',
  ],
  { encoding: 'utf8', env },
);
const timeLine = timed.stderr.trim().split('\n').at(-1);
const [wall, user, system] = timeLine.split(' ').map(Number);
if (timed.status !== 0 || !Number.isFinite(wall)) {
  process.stderr.write(`first-calibrated-audit: the audit failed (exit ${timed.status})\n${timed.stderr}\n`);
  process.exit(1);
}
const audit = JSON.parse(timed.stdout);
rmSync(folder, { recursive: true, force: true });
const { cores, cpuModel } = machine();
const result = {
  measurement: 'first calibrated-glr audit, empty cache',
  checkout,
  pool: `adult.test first ${rows} rows (group sex, decision education-num >= 13)`,
  rows: pool.length - 1,
  wallSeconds: wall,
  cpuSeconds: user + system,
  decision: audit.decision ?? audit.result?.decision ?? null,
  calibration: audit.calibration ?? null,
  commit: spawnSync('git', ['-C', checkout, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).stdout?.trim() || null,
  date: new Date().toISOString(),
  machine: `${hostname()}, ${cores} × ${cpuModel}`,
  load: loadAverage(),
};
console.log(JSON.stringify(result));
if (values.record) appendFileSync(values.record, `${JSON.stringify(result)}\n`);
