// The worst cases of the error-controlled tests: 25 settings where a naive sequential test errs (base rates
// near 0 or 1, a 2-5% minority, pools smaller than the budget, scores without spread or of different shapes,
// logits), each audited 4,000 times with the command a user runs (`fairaudit audit --json`) under every test.
// Records one JSON line per (setting, test) with the machine, commit and date into
// docs/measurements/error-control-worst-cases.jsonl (replacing that setting's earlier lines), and prints the
// table docs/error-control.md shows. Needs a build (npm run build).
//   node scripts/error-control-worst-cases.mjs [--replicates 4000] [--tests betting,confidence-sequence]
//        [--settings NAME,NAME] [--out FILE]
//   node scripts/error-control-worst-cases.mjs --table [--out FILE]   # the table from the records only
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { machine } from '../dist/src/harness/machine.js';
import { gitCommit } from '../dist/src/harness/run-record.js';
import { createRandom } from '../dist/src/util/random.js';

const TESTS = ['betting', 'confidence-sequence', 'calibrated-glr', 'wald-glr'];
/** The tests whose errors are controlled: the bars apply to them. */
const GUARANTEED = new Set(['betting', 'confidence-sequence', 'calibrated-glr']);
const { values } = parseArgs({
  options: {
    replicates: { type: 'string', default: '4000' },
    tests: { type: 'string', default: TESTS.join(',') },
    settings: { type: 'string' },
    out: { type: 'string', default: 'docs/measurements/error-control-worst-cases.jsonl' },
    table: { type: 'boolean', default: false },
  },
});
const root = join(dirname(new URL(import.meta.url).pathname), '..');
process.chdir(root);

const pools = mkdtempSync(join(tmpdir(), 'error-control-pools-'));
const alpha = 0.05;
const beta = 0.2;

/** Writes a 20,000-row score pool (40% in group b, label 1) whose scores come from drawA and drawB. */
function scorePool(name, drawA, drawB, size = 20000, share = 0.4) {
  const random = createRandom(`error-control-worst-cases:${name}`);
  const lines = ['group,label,decision,score'];
  const rowsB = Math.round(size * share);
  for (let row = 0; row < size; row++) {
    const group = row < rowsB ? 1 : 0;
    const score = group === 1 ? drawB(random) : drawA(random);
    lines.push(`${group},1,${score > 0.5 ? 1 : 0},${score}`);
  }
  const file = join(pools, `${name}.csv`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return ['--pool', file, '--access', 'score'];
}

const synthetic = (spec) => ['--synthetic', JSON.stringify({ size: 20000, labelRate: [0.45, 0.4], ...spec })];
const decision = (rates, extra = {}) => synthetic({ groupShare: 0.4, decisionRate: rates, ...extra });

/** name, what it is, the audit's flags (δ = τ = 0.05, seed 11, B = 4000 unless given). */
const SETTINGS = [
  ['fair', 'SP gap 0, decisions', decision([0.4, 0.4])],
  ['inside', 'SP gap 0.045, decisions', decision([0.4, 0.355])],
  ['boundary', 'SP gap = δ, decisions', decision([0.4, 0.35])],
  ['beyond', 'SP gap 0.055, decisions', decision([0.4, 0.345])],
  ['boundary-low-rates', 'gap = δ at rates 0.06 / 0.01', decision([0.06, 0.01])],
  ['boundary-high-rates', 'gap = δ at rates 0.99 / 0.94', decision([0.99, 0.94])],
  ['beyond-low-rates', 'gap 0.055 at rates 0.065 / 0.01', decision([0.065, 0.01])],
  ['minority-5-boundary', 'gap = δ, group b 5% of rows', synthetic({ groupShare: 0.05, decisionRate: [0.4, 0.35] })],
  ['minority-2-boundary', 'gap = δ, group b 2% of rows', synthetic({ groupShare: 0.02, decisionRate: [0.4, 0.35] })],
  ['minority-2-beyond', 'gap 0.055, group b 2% of rows', synthetic({ groupShare: 0.02, decisionRate: [0.4, 0.345] })],
  [
    'minority-5-balanced',
    'gap = δ, group b 5%, balanced order',
    [...synthetic({ groupShare: 0.05, decisionRate: [0.4, 0.35] }), '--order', 'balanced'],
  ],
  ['exhausted-400', '400 rows, gap 0.15, read to the end', [...decision([0.4, 0.25], { size: 400 })]],
  ['exhausted-400-boundary', '400 rows, gap = δ, read to the end', [...decision([0.4, 0.35], { size: 400 })]],
  [
    'eo-small-boundary',
    'EO, 2,000 label-1 rows < B, gap = δ',
    [...synthetic({ groupShare: 0.4, labelRate: [0.1, 0.1], decisionRate: [0.4, 0.35] }), '--metric', 'eo'],
  ],
  [
    'eo-small-beyond',
    'EO, 2,000 label-1 rows < B, gap 0.06',
    [...synthetic({ groupShare: 0.4, labelRate: [0.1, 0.1], decisionRate: [0.4, 0.34] }), '--metric', 'eo'],
  ],
  ['score-fair', 'mean-score gap 0', [...decision([0.4, 0.4]), '--access', 'score']],
  ['score-inside', 'mean-score gap 0.024', [...decision([0.4, 0.355]), '--access', 'score']],
  ['score-constant', 'scores constant per group, gap 0.3', () => scorePool('constant', () => 0.4, () => 0.7)],
  [
    'score-tiny-noise',
    'scores 0.5 / 0.55 plus noise of 1e-7',
    () => scorePool('tiny-noise', (r) => 0.5 + 1e-7 * r(), (r) => 0.55 + 1e-7 * r() - 1e-7),
  ],
  [
    'score-rare-values',
    'a: 0.5, 1% 0.9; b: 0.6, 10% 0.1 (gap 0.045)',
    () =>
      scorePool(
        'rare-values',
        (r) => (r() < 0.01 ? 0.9 : 0.5),
        (r) => (r() < 0.1 ? 0.1 : 0.6),
      ),
  ],
  [
    'score-shapes',
    'a uniform on [0.3, 0.7]; b 0.05 or 0.95 (gap 0)',
    () => scorePool('shapes', (r) => 0.3 + 0.4 * r(), (r) => (r() < 0.5 ? 0.05 : 0.95)),
  ],
  [
    'score-shapes-beyond',
    'a uniform on [0.3, 0.7]; b 0.05 or 0.95, mean 0.56',
    () => scorePool('shapes-beyond', (r) => 0.3 + 0.4 * r(), (r) => (r() < 0.4375 ? 0.05 : 0.95)),
  ],
  ['logit-fair', 'mean-logit gap 0, bounds [-7, ' +
'7]', [...decision([0.4, 0.4]), '--access', 'logit', '--logit-bounds=-7,7']],
  [
    'logit-inside',
    'SP gap 0.045, logits, bounds [-7, 7]',
    [...decision([0.4, 0.355]), '--access', 'logit', '--logit-bounds=-7,7'],
  ],
  ['given-thresholds', 'gap = δ, --upper 4.85 --lower ' +
'-2.4', [...decision([0.4, 0.35]), '--upper', '4.85', '--lower', '-2.4']],
];

/** The side of the gap the audit tests against its tolerance, from the summary. */
function truthOf(summary) {
  const gap = summary.access === 'decision' ? summary.oracleGap : summary.proxyGap;
  const tolerance =
    summary.access === 'score'
      ? summary.scoreTolerance
      : summary.access === 'logit'
        ? summary.logitTolerance
        : summary.tolerance;
  const excess = Math.abs(gap) - tolerance;
  return { gap, tolerance, truth: Math.abs(excess) < 1e-9 ? 'boundary' : excess < 0 ? 'compliant' : 'violating' };
}

function provenance() {
  const commit = gitCommit();
  const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }) !== '';
  const { cores, cpuModel } = machine();
  return {
    commit: dirty ? `${commit}+changes` : commit,
    date: new Date().toISOString(),
    machine: `${hostname()}, ${cores} × ${cpuModel}`,
  };
}

/** The error line of a refused command (its notices and progress lines left out). */
function refusalOf(stderr) {
  const lines = stderr.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('fairaudit: notice:'));
  return lines.find((line) => line.startsWith('fairaudit:')) ?? lines[0] ?? '';
}

/** One setting under one test: its counts and rates, or the refusal (exit code and message). */
function measure(name, description, flags, test, replicates) {
  const given = flags.includes('--upper');
  if (given && test !== 'wald-glr') return null;
  const args = ['audit', ...flags, '--tolerance', '0.05', '--seed', '11', '--replicates', String(replicates), '--json'];
  if (!given) args.push('--test', test);
  const started = Date.now();
  const run = spawnSync('bin/fairaudit', args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  const seconds = (Date.now() - started) / 1000;
  const record = { setting: name, description, test: given ? 'given-thresholds' : test, replicates, seconds };
  if (run.status !== 0) {
    const message = refusalOf(run.stderr);
    return { ...record, exit: run.status, message };
  }
  const summary = JSON.parse(run.stdout);
  const { gap, tolerance, truth } = truthOf(summary);
  const { reject, accept, inconclusive } = summary.decisions;
  const n = summary.replicates;
  const se = (p) => Math.sqrt((p * (1 - p)) / n);
  const falseViolation = truth === 'violating' ? null : reject / n;
  const falseCompliance = truth === 'compliant' ? null : accept / n;
  const bounded = GUARANTEED.has(summary.test);
  // |gap| = δ is in H0: an accept there is shown (the boundary is where power is lowest) but is no error.
  const within =
    !bounded ||
    ((falseViolation === null || falseViolation <= alpha + 3 * se(alpha)) &&
      (falseCompliance === null || truth === 'boundary' || falseCompliance <= beta + 3 * se(beta)));
  return {
    ...record,
    test: summary.test,
    guarantee: summary.guarantee,
    gap,
    tolerance,
    truth,
    reject,
    accept,
    inconclusive,
    meanQueries: summary.meanQueries,
    falseViolation,
    falseCompliance,
    bar: bounded ? { falseViolation: alpha + 3 * se(alpha), falseCompliance: beta + 3 * se(beta) } : null,
    within,
  };
}

function readRecords(file) {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

function writeRecords(file, records) {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, records.map((record) => JSON.stringify(record)).join('\n') + '\n');
  renameSync(temporary, file);
}

const percent = (value) => (value === null || value === undefined ? '—' : `${(100 * value).toFixed(2)}%`);

/** The Markdown table of the records: one row per setting, one column per test (false violation / false compliance). */
function table(records) {
  const order = SETTINGS.map(([name]) => name);
  const tests = ['betting', 'confidence-sequence', 'calibrated-glr', 'wald-glr', 'given-thresholds'].filter((test) =>
    records.some((record) => record.test === test),
  );
  const lines = [
    `| setting | truth | ${tests.join(' | ')} |`,
    `|---|---|${tests.map(() => '---').join('|')}|`,
  ];
  for (const name of order) {
    const rows = records.filter((record) => record.setting === name);
    if (rows.length === 0) continue;
    const truth = rows.find((record) => record.truth !== undefined)?.truth ?? '—';
    const cells = tests.map((test) => {
      const record = rows.find((row) => row.test === test);
      if (record === undefined) return '';
      if (record.exit !== undefined) return `exit ${record.exit}`;
      const compliance = percent(record.falseCompliance);
      const shown = [percent(record.falseViolation), record.truth === 'boundary' ? `(${compliance})` : compliance];
      const within =
        !GUARANTEED.has(record.test) ||
        ((record.falseViolation === null || record.falseViolation <= record.bar.falseViolation) &&
          (record.falseCompliance === null ||
            record.truth === 'boundary' ||
            record.falseCompliance <= record.bar.falseCompliance));
      return within ? shown.join(' / ') : `**${shown.join(' / ')}** (over the bar)`;
    });
    lines.push(`| ${name}: ${rows[0].description} | ${truth} | ${cells.join(' | ')} |`);
  }
  const first = records[0];
  lines.push(
    '',
    `Each cell: P(false violation) / P(false compliance) over ${first?.replicates ?? '—'} audits (— where the ` +
`truth makes it no error; in parentheses P(accept) at |gap| = δ, which is in H0: no error); ` +
      `exit N: the test refuses the pool. Bars for the guaranteed tests: α + 3 SE ` +
`= ${percent(alpha + 3 * Math.sqrt((alpha * (1 - alpha)) / (first?.replicates ?? 4000)))}, ` +
      `β + 3 SE = ${percent(beta + 3 * Math.sqrt((beta * (1 - beta)) / (first?.replicates ?? 4000)))}.`,
  );
  return lines.join('\n');
}

const file = values.out;
if (!values.table) {
  const chosen = values.settings ? new Set(values.settings.split(',')) : null;
  const tests = values.tests.split(',');
  const replicates = Number(values.replicates);
  const stamp = provenance();
  let records = readRecords(file);
  for (const [name, description, flagsOrMaker] of SETTINGS) {
    if (chosen !== null && !chosen.has(name)) continue;
    const flags = typeof flagsOrMaker === 'function' ? flagsOrMaker() : flagsOrMaker;
    for (const test of tests) {
      const record = measure(name, description, flags, test, replicates);
      if (record === null) continue;
      records = records.filter((old) => !(old.setting === name && old.test === record.test));
      records.push({ ...record, ...stamp });
      writeRecords(file, records);
      const outcome =
        record.exit !== undefined ? `exit ${record.exit}` : `${record.reject}/${record.accept}/${record.inconclusive}`;
      process.stderr.write(`${name} ${record.test}: ${outcome} (${record.seconds} s)\n`);
    }
  }
  if (chosen === null || chosen.has('score-constant')) {
    const run = spawnSync('bin/fairaudit', ['calibrate', '--pool', join(pools, 'constant.csv'), '--access', 'score'], {
      encoding: 'utf8',
    });
    const message = refusalOf(run.stderr);
    records = records.filter((old) => !(old.setting === 'score-constant' && old.test === 'calibrate'));
    records.push({ setting: 'score-constant', description: 'calibrate on the constant-score ' +
'pool', test: 'calibrate', exit: run.status, message, ...stamp });
    writeRecords(file, records);
  }
}
console.log(table(readRecords(file).filter((record) => record.test !== 'calibrate')));
