import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { auditOutputSchemaOf } from '../../src/audit/audit-output-schema.js';
import { validate } from '../../src/util/schema.js';
import { runCliInProcess } from '../helpers/cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'fairaudit-multi-group-metrics-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * A CSV of three named groups A, B, C of 3,000 rows each, labels alternating 0/1, and each
 * group's decision-1 rows exactly at its true-positive rate (label 1) and false-positive rate
 * (label 0): the oracle's rates are these numbers, so the clear cases below are known in advance.
 */
function poolCsv(name: string, rates: Readonly<Record<'A' | 'B' | 'C', readonly [number, number]>>): string {
  const lines = ['race,y,pred'];
  for (const [group, [truePositive, falsePositive]] of Object.entries(rates)) {
    for (let i = 0; i < 3000; i++) {
      const label = i % 2;
      const rate = label === 1 ? truePositive : falsePositive;
      lines.push(`${group},${label},${Math.floor(i / 2) < rate * 1500 ? 1 : 0}`);
    }
  }
  const path = join(scratch, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** Equal TPRs (0.5), FPRs 0.2, 0.2, 0.6: predictive equality and equalized odds fail, equal opportunity holds. */
const unequalFalsePositives = poolCsv('fpr.csv', { A: [0.5, 0.2], B: [0.5, 0.2], C: [0.5, 0.6] });
/** Every rate equal: every metric holds. */
const equal = poolCsv('equal.csv', { A: [0.5, 0.2], B: [0.5, 0.2], C: [0.5, 0.2] });
/** Selection rates 0.95, 0.9, 0.85: max − min 0.1 fails δ = 0.05, min / max 0.89 passes the four-fifths rule. */
const nearFourFifths = poolCsv('near.csv', { A: [0.95, 0.95], B: [0.9, 0.9], C: [0.85, 0.85] });

const columns = ['--group-col', 'race', '--label-col', 'y', '--decision-col', 'pred', '--seed', '1'];

async function auditJson(pool: string, ...args: string[]): Promise<Record<string, unknown>> {
  const run = await runCliInProcess(['audit', '--pool', pool, ...columns, ...args, '--json']);
  if (![0, 3, 4].includes(run.code)) throw new Error(run.stderr);
  const output = JSON.parse(run.stdout) as Record<string, unknown>;
  validate(output, auditOutputSchemaOf(output));
  return output;
}

describe('fairaudit audit on named groups: pe, eodds and the ratio aggregation', () => {
  it('--metric pe audits the label-0 rows: rejects FPRs 0.2, 0.2, 0.6, accepts equal ones, as the oracle', async () => {
    const unequal = await auditJson(unequalFalsePositives, '--metric', 'pe');
    expect(unequal).toMatchObject({ metric: 'pe', groups: 3, poolSize: 4500, oracleDecision: 'reject' });
    expect(unequal).toMatchObject({ decision: 'reject', verdict: 'violation' });
    expect(unequal.oracle).toMatchObject({ rate: 'pe' });
    expect((unequal.oracle as { difference: number }).difference).toBeCloseTo(0.4, 12);
    expect(unequal.hypothesis).toBe('H0 max − min of the PE rates (false-positive, label 0) over 3 groups ≤ 0.05');
    const fair = await auditJson(equal, '--metric', 'pe', '--budget', '4500');
    expect(fair).toMatchObject({ oracleDecision: 'accept', decision: 'accept', verdict: 'compliant' });
    // The same pool's TPRs are equal: equal opportunity holds where predictive equality fails.
    const opportunity = await auditJson(unequalFalsePositives, '--metric', 'eo', '--budget', '4500');
    expect(opportunity).toMatchObject({ metric: 'eo', oracleDecision: 'accept', decision: 'accept' });
  });

  it('--metric eodds runs TPR and FPR tests on all rows: an FPR gap alone rejects; equal rates accept', async () => {
    const unequal = await auditJson(unequalFalsePositives, '--metric', 'eodds');
    expect(unequal).toMatchObject({ metric: 'eodds', poolSize: 9000, oracleDecision: 'reject', decision: 'reject' });
    expect(unequal.oracle).toMatchObject({ rate: 'eo', difference: 0 });
    expect(unequal.falsePositiveOracle).toMatchObject({ rate: 'pe' });
    expect((unequal.falsePositiveOracle as { difference: number }).difference).toBeCloseTo(0.4, 12);
    expect(unequal.hypothesis).toMatch(
      /EO rates \(true-positive, label 1\) and of the PE rates .*each \(equalized odds\)/,
    );
    expect(unequal.guarantee).toMatch(/^equalized odds: reject if either rate's test rejects \(each at alpha \/ 2\)/);
    const fair = await auditJson(equal, '--metric', 'eodds', '--budget', '9000');
    expect(fair).toMatchObject({ oracleDecision: 'accept', decision: 'accept', verdict: 'compliant' });
    const text = await runCliInProcess(['audit', '--pool', unequalFalsePositives, ...columns, '--metric', 'eodds']);
    expect(text.stdout).toMatch(/EO \(true-positive rate\): max − min 0\.0000/);
    expect(text.stdout).toMatch(/PE \(false-positive rate\): max − min 0\.4000; min \/ max 0\.3333/);
  });

  it('--aggregation ratio tests min ≥ ρ · max: four-fifths passes a 0.1 gap that the difference fails', async () => {
    const ratio = ['--aggregation', 'ratio', '--test', 'wald-glr'];
    const near = await auditJson(nearFourFifths, ...ratio);
    expect(near).toMatchObject({ aggregation: 'ratio', ratio: 0.8, oracleDecision: 'accept', decision: 'accept' });
    expect(near.hypothesis).toBe('H0 min ≥ 0.8 · max of the SP rates over 3 groups (impact ratio ≥ 0.8)');
    expect(near.guarantee).toMatch(/wald-glr over 3 groups .*: no error guarantee$/);
    const difference = await auditJson(nearFourFifths, '--test', 'wald-glr');
    expect(difference).toMatchObject({ aggregation: 'difference', oracleDecision: 'reject', decision: 'reject' });
    // ρ = 0.95 asks more than min / max 0.89 gives.
    const strict = await auditJson(nearFourFifths, ...ratio, '--ratio', '0.95');
    expect(strict).toMatchObject({ ratio: 0.95, oracleDecision: 'reject', decision: 'reject' });
    // FPRs 0.2, 0.2, 0.6: an impact ratio of 1/3.
    const pe = await auditJson(unequalFalsePositives, ...ratio, '--metric', 'pe');
    expect(pe).toMatchObject({ metric: 'pe', oracleDecision: 'reject', decision: 'reject' });
  });

  it('refuses the betting test with --aggregation ratio, naming wald-glr and its lack of a guarantee', async () => {
    const run = await runCliInProcess(['audit', '--pool', nearFourFifths, ...columns, '--aggregation', 'ratio']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--test \(a pool of named groups\): expected wald-glr with --aggregation ratio/);
    expect(run.stderr).toMatch(/no error guarantee.*found "betting"/);
  });
});

describe('fairaudit audit on a 0/1 pool', () => {
  const pool = '{"size":3000,"groupShare":0.4,"labelRate":[0.5,0.5],"decisionRate":[0.3,0.4]}';
  it.each([
    ['--metric', 'pe', /--metric \(a 0\/1 pool\): expected sp or eo \(pe and eodds audit pools of named groups/],
    ['--metric', 'eodds', /--metric \(a 0\/1 pool\): expected sp or eo .*found "eodds"/],
    ['--aggregation', 'ratio', /--aggregation \(a 0\/1 pool\): expected difference \(ratio audits pools of named/],
  ])('refuses %s %s with exit 2, saying what it audits', async (flag, value, message) => {
    const run = await runCliInProcess(['audit', '--synthetic', pool, '--seed', '1', flag, value]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe('');
  });

  it('audits sp and eo on the two-group path, the new flags at their defaults changing no byte', async () => {
    for (const metric of ['sp', 'eo']) {
      const plain = await runCliInProcess(['audit', '--synthetic', pool, '--seed', '1', '--metric', metric, '--json']);
      const explicit = await runCliInProcess([
        ...['audit', '--synthetic', pool, '--seed', '1', '--metric', metric, '--json'],
        ...['--aggregation', 'difference', '--ratio', '0.8'],
      ]);
      expect(explicit.stdout).toBe(plain.stdout);
      const output = JSON.parse(plain.stdout);
      // The two-group shape: group a's and b's rows of the metric (eo: the label-1 rows only).
      expect(output).toMatchObject({
        metric,
        groupCounts: metric === 'sp' ? { a: 1800, b: 1200 } : { a: 900, b: 600 },
      });
      expect(output).not.toHaveProperty('aggregation');
    }
  });
});
