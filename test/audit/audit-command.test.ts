import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeData, RecordBatch, Schema, Struct, Table, tableFromArrays, tableToIPC } from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import type { AuditPool } from '../../src/audit/pool.js';
import { readPoolFile, writePoolFile } from '../../src/audit/pool-io.js';
import { packageRoot } from '../../src/util/paths.js';
import { createRandom } from '../../src/util/random.js';
import { runCliInProcess, spawnCliSync } from '../helpers/cli.js';

// End to end: spawn bin/fairaudit, which runs the compiled dist/ (the vitest global
// setup, test/setup/build.ts, builds it when it is missing or stale).
const fixtures = join(packageRoot(), 'test', 'fixtures', 'pools');
const scratch = mkdtempSync(join(tmpdir(), 'fairaudit-audit-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** An Arrow pool whose schema names `decision` twice, with different values (all 1, then all 0). */
function twoDecisionColumns(): string {
  const base = tableFromArrays({
    group: new Uint8Array([0, 1, 0, 1]),
    label: new Uint8Array([1, 0, 1, 0]),
    decision: new Uint8Array([1, 1, 1, 1]),
  });
  const other = tableFromArrays({ decision: new Uint8Array([0, 0, 0, 0]) });
  const fields = [...base.schema.fields, ...other.schema.fields];
  const children = [...base.batches[0].data.children, ...other.batches[0].data.children];
  const table = new Table(
    new Schema(fields),
    new RecordBatch(new Schema(fields), makeData({ type: new Struct(fields), length: 4, children })),
  );
  const path = join(scratch, 'two-decisions.arrow');
  writeFileSync(path, tableToIPC(table, 'file'));
  return path;
}

function fairaudit(...args: string[]) {
  return spawnCliSync(args);
}

/** A pool whose hard-decision rates are 0.3 (a) and 0.6 (b), written as Arrow. */
function violatingPoolFile(): string {
  const size = 6000;
  const random = createRandom('cli-pool');
  const pool: AuditPool = {
    size,
    group: Uint8Array.from({ length: size }, (_, i) => i % 2),
    label: Uint8Array.from({ length: size }, (_, i) => (i % 3 === 0 ? 0 : 1)),
    decision: Uint8Array.from({ length: size }, (_, i) => (random() < (i % 2 === 0 ? 0.3 : 0.6) ? 1 : 0)),
    score: Float64Array.from({ length: size }, (_, i) => (i % 2 === 0 ? 0.3 : 0.6) + 0.1 * (random() - 0.5)),
    logit: null,
    id: null,
    source: 'synthetic',
  };
  const path = join(scratch, 'violating.arrow');
  writePoolFile(path, pool);
  return path;
}

describe('fairaudit audit --pool FILE (spawned)', () => {
  it('audit --json prints decision, queries, statistic, the oracle and the fixed-sample decision', () => {
    const pool = violatingPoolFile();
    const { code, stdout, stderr } = fairaudit(
      'audit',
      '--pool',
      pool,
      '--metric',
      'sp',
      '--access',
      'decision',
      '--test',
      'wald-glr',
      '--seed',
      '7',
      '--json',
    );
    expect(code).toBe(0);
    expect(stderr).toMatch(
      /^fairaudit: warning: wald-glr is paper A's test as published: its false-violation rate is not controlled/,
    );
    const result = JSON.parse(stdout);
    expect(result.decision).toBe('reject');
    expect(result.queries).toBeGreaterThan(2);
    expect(result.queries).toBeLessThan(4000);
    expect(result.statistic).toBeGreaterThanOrEqual(2.7725887);
    expect(result.oracleDecision).toBe('reject');
    expect(result.oracleGap).toBeCloseTo(readOracleGap(pool), 5);
    expect(result.fixedDecision).toBe('reject');
    expect(result.fixedSamples).toBe(4000);
    // Same seed, same audit.
    const again = JSON.parse(fairaudit('audit', '--pool', pool, '--seed', '7', '--test', 'wald-glr', '--json').stdout);
    expect(again.queries).toBe(result.queries);
  });

  it('audit --replicates R prints decision frequencies and the mean and std of queries', () => {
    const pool = violatingPoolFile();
    const { code, stdout } = fairaudit(
      'audit',
      '--pool',
      pool,
      '--metric',
      'eo',
      '--access',
      'score',
      '--score-tolerance',
      '0.05',
      '--test',
      'wald-glr',
      '--seed',
      's',
      '--replicates',
      '10',
      '--json',
    );
    expect(code).toBe(0);
    const summary = JSON.parse(stdout);
    expect(summary.replicates).toBe(10);
    expect(summary.decisions.reject + summary.decisions.accept + summary.decisions.inconclusive).toBe(10);
    expect(summary.decisions.reject).toBe(10);
    expect(summary.meanQueries).toBeGreaterThan(0);
    expect(summary.stdQueries).toBeGreaterThanOrEqual(0);
    expect(summary.poolSize).toBe(4000);
    const text = fairaudit('audit', '--pool', pool, '--seed', 's', '--replicates', '3');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /verdicts: +VIOLATION 3, COMPLIANT 0, INCONCLUSIVE 0 of 3 audits of H0 \|SP gap\| ≤ 0\.05; queries/,
    );
    expect(text.stdout).toMatch(
      /guarantee: +betting: P\(false violation\) ≤ 0\.05 and P\(false compliance\) ≤ 0\.2 at any stopping time/,
    );
  });

  it('audit --order given runs the pool order without a seed', () => {
    const { code, stdout } = fairaudit(
      'audit',
      '--pool',
      join(fixtures, 'small.csv'),
      '--order',
      'given',
      '--test',
      'wald-glr',
      '--tolerance',
      '0.2',
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/oracle: +hard-decision gap \(b − a\) \+0\.0000 on the whole pool -> accept/);
    expect(stdout).toMatch(/fixed-sample: accept on 6 rows/);
  });

  it('exits 2 with the message on stderr for a bad pool (spawned)', () => {
    const { code, stderr } = fairaudit('audit', '--pool', join(fixtures, 'bad-decision.csv'), '--seed', '1');
    expect(code).toBe(2);
    expect(stderr).toMatch(/bad-decision\.csv: row 2 \(line 3\), column "decision": expected 0 or 1, found "2"/);
  });

  it('audit --help lists the flags', () => {
    const { code, stdout } = fairaudit('audit', '--help');
    expect(code).toBe(0);
    for (const flag of [
      '--pool',
      '--metric',
      '--access',
      '--tolerance',
      '--budget',
      '--alpha',
      '--beta',
      '--seed',
      '--order',
      '--replicates',
      '--json',
    ]) {
      expect(stdout).toContain(flag);
    }
  });
});

function readOracleGap(path: string): number {
  const pool = readPoolFile(path);
  const positives = [0, 0];
  const counts = [0, 0];
  for (let i = 0; i < pool.size; i++) {
    counts[pool.group[i]]++;
    positives[pool.group[i]] += pool.decision[i];
  }
  return Math.abs(positives[1] / counts[1] - positives[0] / counts[0]);
}

/** Runs the CLI in this process (the same main() bin/fairaudit calls), capturing its output. */
function inProcess(...args: string[]) {
  return runCliInProcess(args);
}

describe('fairaudit audit --synthetic RECIPE --replicates R (in process, through main())', () => {
  it('audits a generated pool and counts the decisions taken within --early queries', async () => {
    const recipe = '{"size": 4000, "groupShare": 0.4, "labelRate": [0.45, 0.4], "decisionRate": [0.4, 0.38]}';
    const { code, stdout } = await inProcess(
      'audit',
      '--synthetic',
      recipe,
      '--access',
      'score',
      '--seed',
      '1',
      '--replicates',
      '40',
      '--early',
      '25',
      '--json',
    );
    expect(code).toBe(0);
    const summary = JSON.parse(stdout);
    // The recipe fixes the decision counts: b − a = 608/1600 - 960/2400 = -0.02 exactly.
    expect(summary.oracleGap).toBe(-0.02);
    expect(summary.oracleDecision).toBe('accept');
    expect(summary.replicates).toBe(40);
    expect(summary.earlyDecisions.within).toBe(25);
    expect(summary.earlyDecisions.reject + summary.earlyDecisions.accept).toBeLessThanOrEqual(40);
    expect(summary.pool).toEqual({ synthetic: JSON.parse(recipe) });
  });
});

describe('fairaudit audit bad input (in process, through main())', () => {
  it('exits 2 naming the file, row, column or flag for every bad input of the issue', async () => {
    const cases: Array<[string[], RegExp]> = [
      [
        ['--pool', join(fixtures, 'decisions-only.csv'), '--access', 'score', '--seed', '1'],
        /decisions-only\.csv: column "score"/,
      ],
      [
        ['--pool', join(fixtures, 'decisions-only.csv'), '--access', 'logit', '--seed', '1'],
        /decisions-only\.csv: column "logit"/,
      ],
      [
        ['--pool', join(fixtures, 'bad-decision.csv'), '--seed', '1'],
        /bad-decision\.csv: row 2 \(line 3\), column "decision"/,
      ],
      [['--pool', join(fixtures, 'nan-score.csv'), '--seed', '1'], /nan-score\.csv: row 2 \(line 3\), column "score"/],
      [
        ['--pool', join(fixtures, 'one-group.csv'), '--seed', '1'],
        /one-group\.csv: metric sp: expected rows of both groups/,
      ],
      [
        ['--pool', join(fixtures, 'small.csv'), '--seed', '1', '--tolerance', '1.5'],
        /--tolerance: expected a number in \(0, 1\), found 1\.5/,
      ],
      [['--pool', join(fixtures, 'small.csv'), '--seed', '1', '--tolerance', '0'], /--tolerance/],
      [['--pool', join(fixtures, 'small.csv'), '--seed', '1', '--budget', '0'], /--budget/],
      [['--pool', join(fixtures, 'small.csv'), '--seed', '1', '--alpha', 'x'], /--alpha/],
      [['--pool', join(fixtures, 'small.csv'), '--seed', '1', '--beta', '0.99'], /--beta: expected alpha \+ beta < 1/],
      [
        ['--pool', join(fixtures, 'small.csv'), '--seed', '1', '--decision-tolerance', '0.05'],
        /Unknown arguments?: decision-tolerance/,
      ],
      [
        ['--pool', join(fixtures, 'small.csv'), '--seed', '1', '--score-tolerance', '1.5'],
        /--score-tolerance: expected a number in \(0, 1\), found 1\.5/,
      ],
      [['--pool', join(fixtures, 'small.csv')], /--seed/],
      [['--pool', join(fixtures, 'small.csv'), '--seed', '1', '--metric', 'dp'], /metric/],
      [['--pool', join(fixtures, 'small.csv'), '--seed', '1', '--frobnicate'], /frobnicate/],
      [['--pool', join(scratch, 'absent.csv'), '--seed', '1'], /absent\.csv/],
      [['--seed', '1'], /--pool \/ --synthetic: expected exactly one of them, found "neither"/],
      [['--synthetic', '{"size": 100', '--seed', '1'], /--synthetic: expected a JSON object/],
      [
        [
          '--synthetic',
          '{"size": 100, "groupShare": 0.4, "labelRate": [0.5, 0.5], "decisionRate": [0.3, 2]}',
          '--seed',
          '1',
        ],
        /--synthetic: decisionRate/,
      ],
      [
        [
          '--synthetic',
          '{"size": 100, "groupShare": 0.4, "labelRate": [0.5, 0.5], "decisionRate": [0.3, 0.3]}',
          '--seed',
          '1',
          '--early',
          '0',
        ],
        /--early/,
      ],
      // A RangeError (exit 1) from the typed arrays before the reader checked the rows.
      [
        [
          '--synthetic',
          '{"size": 1e12, "groupShare": 0.4, "labelRate": [0.5, 0.5], "decisionRate": [0.3, 0.3]}',
          '--seed',
          '1',
        ],
        /^fairaudit: --synthetic: size: expected an integer in \[2, 50000000\], found 1000000000000\n$/,
      ],
      // Unknown keys used to be ignored, so a misspelt rate ran with another pool.
      [
        [
          '--synthetic',
          '{"size": 100, "groupShare": 0.4, "labelRate": [0.5, 0.5], "decisionRate": [0.3, 0.3], "decisonRate": ' +
            '[0.1, 0.1]}',
          '--seed',
          '1',
        ],
        new RegExp(
          '^fairaudit: --synthetic: decisonRate: expected one of the keys size, groupShare, ' +
            String.raw`labelRate, decisionRate, truePositiveRate, logitScale, seed \(did you mean ` +
            String.raw`"decisionRate"\?\), found the unknown key "decisonRate"\n$`,
        ),
      ],
      [
        ['--synthetic', '{"size": 100, "__proto__": {"size": 5}}', '--seed', '1'],
        /^fairaudit: --synthetic: __proto__: expected a setting key, found the reserved key "__proto__"/,
      ],
      // Read without end before the cap.
      [
        ['--pool', '/dev/zero', '--seed', '1'],
        /^fairaudit: \/dev\/zero: expected a readable pool file of at most 500 MiB, found a larger file\n$/,
      ],
      // Two decision columns in Arrow were read as the first one.
      [
        ['--pool', twoDecisionColumns(), '--seed', '1'],
        /two-decisions\.arrow: schema: expected each column named once, found "column \\"decision\\" twice"\n$/,
      ],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = await inProcess('audit', ...args);
      expect({ args, code, stderr }).toEqual({ args, code: 2, stderr });
      expect(stderr).toMatch(message);
    }
  });
});
