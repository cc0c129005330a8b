import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { auditOutputSchemaOf } from '../../src/audit/audit-output-schema.js';
import { auditOutputReference } from '../../src/cli/audit-output-reference.js';
import { packageRoot } from '../../src/util/paths.js';
import { createRandom } from '../../src/util/random.js';
import { SchemaViolation, validate } from '../../src/util/schema.js';
import { runCliInProcess } from '../helpers/cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'fairaudit-audit-output-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Decision rates 0.3 (a) and 0.6 (b): a violation of δ = 0.05 the audits find within a few hundred queries. */
const violating = '{"size":4000,"groupShare":0.5,"labelRate":[0.5,0.5],"decisionRate":[0.3,0.6]}';
/** Equal decision rates: compliant. */
const fair = '{"size":4000,"groupShare":0.5,"labelRate":[0.5,0.5],"decisionRate":[0.3,0.3]}';

async function audit(...args: string[]) {
  const run = await runCliInProcess(['audit', ...args]);
  if (run.code !== 0 && run.code !== 3 && run.code !== 4) throw new Error(run.stderr);
  return run;
}

async function auditJson(...args: string[]): Promise<Record<string, unknown>> {
  return JSON.parse((await audit(...args, '--json')).stdout);
}

describe('fairaudit audit --json follows its schema (src/audit/audit-output-schema.ts)', () => {
  const runs: Array<[string, string[]]> = [
    ['the default test (betting), one audit', ['--synthetic', violating, '--seed', '1']],
    ['wald-glr', ['--synthetic', violating, '--seed', '1', '--test', 'wald-glr']],
    ['given thresholds', ['--synthetic', violating, '--seed', '1', '--upper', '3', '--lower', '-2']],
    [
      'the confidence sequence, score access',
      ['--synthetic', fair, '--seed', '2', '--test', 'confidence-sequence', '--access', 'score'],
    ],
    [
      'logit access with bounds, eo',
      ['--synthetic', fair, '--seed', '3', '--access', 'logit', '--logit-bounds', '-8,8', '--metric', 'eo'],
    ],
    ['replicates', ['--synthetic', violating, '--seed', '4', '--replicates', '5']],
    ['the pool order', ['--synthetic', fair, '--order', 'given', '--test', 'wald-glr']],
  ];
  for (const [title, args] of runs) {
    it(`${title}: the output validates`, async () => {
      const output = await auditJson(...args);
      expect(() => validate(output, auditOutputSchemaOf(output))).not.toThrow();
    });
  }

  it('refuses an output with an unknown key, a missing verdict or a wrong type', async () => {
    const output = await auditJson('--synthetic', violating, '--seed', '1');
    expect(() => validate({ ...output, statistics: 1 }, auditOutputSchemaOf(output))).toThrow(SchemaViolation);
    const { verdict: _verdict, ...withoutVerdict } = output;
    expect(() => validate(withoutVerdict, auditOutputSchemaOf(output))).toThrow(/verdict/);
    expect(() => validate({ ...output, queries: 'many' }, auditOutputSchemaOf(output))).toThrow(/queries/);
  });

  it(
    'docs/audit-output.md is the generated reference (bin/fairaudit audit --json-schema > ' + 'docs/audit-output.md)',
    () => {
      expect(readFileSync(join(packageRoot(), 'docs', 'audit-output.md'), 'utf8')).toBe(auditOutputReference());
    },
  );
});

describe('fairaudit audit: verdicts in words and exit codes', () => {
  it('prints the verdict with H0 and its guarantee, and the evidence of the betting test', async () => {
    const { stdout } = await audit('--synthetic', violating, '--seed', '1');
    expect(stdout).toMatch(
      new RegExp(
        String.raw`verdict: +VIOLATION: H0 \|SP gap\| ≤ 0\.05 rejected after \d+ queries \(betting: P\(false ` +
          String.raw`violation\) ≤ 0\.05 and P\(false compliance\) ≤ 0\.2 at any stopping time\)`,
      ),
    );
    expect(stdout).toMatch(/evidence: +log e-value against H0 \d+\.\d{4} \(rejects at log\(1\/alpha\) = 2\.9957\)/);
    expect(stdout).not.toMatch(/NaN/);
    expect(stdout).toMatch(/oracle: +hard-decision gap \(b − a\) \+0\.3000/);
  });

  it('says that wald-glr has no guarantee, and warns on stderr', async () => {
    const { stdout, stderr } = await audit('--synthetic', violating, '--seed', '1', '--test', 'wald-glr');
    expect(stdout).toMatch(
      /wald-glr: no error guarantee; paper A's Wald thresholds do not control the false-violation rate/,
    );
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/warning: wald-glr is paper A's test as published/);
  });

  it(
    '--fail-on violation exits 3 on a violation and 0 otherwise; --fail-on inconclusive exits 4 without a ' +
      'decision',
    async () => {
      expect((await audit('--synthetic', violating, '--seed', '1', '--fail-on', 'violation')).code).toBe(3);
      expect((await audit('--synthetic', violating, '--seed', '1')).code).toBe(0);
      // Ten queries decide nothing on the fair pool.
      const short = ['--synthetic', fair, '--seed', '1', '--budget', '10'];
      const inconclusive = await audit(...short, '--fail-on', 'inconclusive');
      expect(inconclusive.stdout).toMatch(
        /INCONCLUSIVE: H0 \|SP gap\| ≤ 0\.05 neither rejected nor accepted within 10 queries/,
      );
      expect(inconclusive.code).toBe(4);
      expect((await audit(...short, '--fail-on', 'violation')).code).toBe(0);
    },
  );
});

/** A pool as a user has it: sex (Male/Female), y_true, y_pred, proba; Female rows decided 1 at rate 0.3, Male at 0.6.
 * */
function userPoolCsv(): string {
  const random = createRandom('user-pool');
  const lines = ['sex,y_true,y_pred,proba'];
  for (let row = 0; row < 3000; row++) {
    const sex = row % 3 === 0 ? 'Female' : 'Male';
    const decision = random() < (sex === 'Female' ? 0.3 : 0.6) ? 1 : 0;
    const proba = Math.min(1, Math.max(0, (decision ? 0.7 : 0.3) + 0.2 * (random() - 0.5)));
    lines.push(`${sex},${random() < 0.5 ? 1 : 0},${decision},${proba.toFixed(4)}`);
  }
  const path = join(scratch, 'user-pool.csv');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

describe('fairaudit audit --pool with a column mapping', () => {
  const mapping = ['--group-col', 'sex', '--group-a', 'Female', '--label-col', 'y_true', '--decision-col', 'y_pred'];

  it('audits a CSV with sex,y_true,y_pred,proba and groups Male/Female without renaming', async () => {
    const pool = userPoolCsv();
    const output = await auditJson('--pool', pool, ...mapping, '--seed', '1');
    expect(output).toMatchObject({ poolSize: 3000, groupCounts: { a: 1000, b: 2000 }, verdict: 'violation' });
    expect(output.oracleGap as number).toBeGreaterThan(0.2);
    const scores = await auditJson(
      '--pool',
      pool,
      ...mapping,
      '--score-col',
      'proba',
      '--access',
      'score',
      '--seed',
      '1',
    );
    expect(scores).toMatchObject({ access: 'score', poolSize: 3000 });
    expect(scores.proxyGap as number).toBeGreaterThan(0);
  });

  it('names the missing column, the key that maps it and every column found', async () => {
    const pool = userPoolCsv();
    const run = await runCliInProcess(['audit', '--pool', pool, '--seed', '1']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `${pool}: column "group": expected a column "group" holding the group (or name the file's column with ` +
        `groupColumn, --group-column on the command line), found the columns "sex", "y_true", "y_pred", "proba"`,
    );
    const noDecision = await runCliInProcess([
      'audit',
      '--pool',
      pool,
      '--group-col',
      'sex',
      '--group-a',
      'Female',
      '--label-col',
      'y_true',
      '--seed',
      '1',
    ]);
    expect(noDecision.stderr).toMatch(
      /column "decision": expected a column "decision" holding the decision .*--decision-column/,
    );
  });

  it('audits a column of names without --group-a as named groups, over all of them (the K-group audit)', async () => {
    const pool = userPoolCsv();
    const named = ['--group-col', 'sex', '--label-col', 'y_true', '--decision-col', 'y_pred', '--seed', '1'];
    const output = await auditJson('--pool', pool, ...named);
    expect(output).toMatchObject({ groups: 2, groupNames: ['Female', 'Male'], test: 'betting', verdict: 'violation' });
    expect(() => validate(output, auditOutputSchemaOf(output))).not.toThrow();
    const repeated = await auditJson('--pool', pool, ...named, '--replicates', '3', '--min-group-size', '5');
    expect(() => validate(repeated, auditOutputSchemaOf(repeated))).not.toThrow();
    expect(repeated.groupSizeRule).toEqual({
      rule: 'groups with fewer than 5 rows are excluded from the audit',
      excluded: [],
    });
    // The same decisions as the two-group audit's oracle: Female is group a (1000 rows), Male b.
    const twoGroup = await auditJson('--pool', pool, ...mapping, '--seed', '1');
    const oracle = output.oracle as { difference: number };
    expect(oracle.difference).toBeCloseTo(twoGroup.oracleGap as number, 6);
    const text = await runCliInProcess(['audit', '--pool', pool, ...named, '--test', 'confidence-sequence']);
    expect(text.code).toBe(2);
    expect(text.stderr).toMatch(/--test \(a pool of named groups\): expected betting .* or wald-glr/);
  });

  it('refuses a mapping with --synthetic, and --threads outside [1, 1024], naming the flag', async () => {
    const mapped = await runCliInProcess(['audit', '--synthetic', fair, '--group-col', 'sex', '--seed', '1']);
    expect(mapped.code).toBe(2);
    expect(mapped.stderr).toMatch(/--group-column: expected a column mapping only with --pool/);
    const threads = await runCliInProcess(['audit', '--synthetic', fair, '--seed', '1', '--threads', '0']);
    expect(threads.code).toBe(2);
    expect(threads.stderr).toMatch(/--threads: expected an integer in \[1, 1024\], found 0/);
  });

  it('refuses a third group value, naming the row and the two groups', async () => {
    const path = join(scratch, 'three-groups.csv');
    writeFileSync(path, 'sex,label,decision\nFemale,1,1\nMale,0,1\nOther,1,0\n');
    const run = await runCliInProcess([
      'audit',
      '--pool',
      path,
      '--group-col',
      'sex',
      '--group-a',
      'Female',
      '--seed',
      '1',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `${path}: row 3 (line 4), column "sex": expected one of two groups: "Female" (group a) and "Male" (group ` +
        `b), found "Other"`,
    );
  });
});
