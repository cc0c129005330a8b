import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ErrorControlReproduction, reproduceErrorControl } from '../../../papers/paper-a/error-control/reproduce.js';
import { declaredLogitBounds } from '../../../papers/paper-a/error-control/settings.js';
import { calibratedPool } from '../../../papers/paper-a/calibrated-pools.js';
import { parseOverride } from '../../../src/harness/config.js';
import { writeReport } from '../../../src/report/write-report.js';

// Small: 3 replicates and B = 300 (the calibrations scale with the budget), paper A's pools.
const overrides = [parseOverride('replicates=3'), parseOverride('budget=300')];

describe('reproduceErrorControl({ calibrated: true }) with 3 replicates and B = 300', () => {
  let out: string;
  let result: ErrorControlReproduction;
  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'error-control-'));
    result = await reproduceErrorControl({ outDirectory: out, calibrated: true, overrides, threads: 2, png: false });
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('audits paper A\'s eight calibrated pools with the three tests at four gaps each, into results/error-control/', () => {
    expect(result.pools.map((pool) => pool.name)).toEqual([
      'acs-robust-dp', 'acs-unstable-dp', 'acs-robust-base', 'acs-unstable-base',
      'adult-robust-dp', 'adult-unstable-dp', 'adult-robust-base', 'adult-unstable-base',
    ]);
    expect(result.realAdult).toBe('not asked for (--calibrated)');
    // 8 pools x 2 metrics x 3 access regimes x 3 tests x 4 gaps.
    expect(result.cells).toBe(576);
    for (const file of ['results.arrow', 'run.json', 'report.html', 'README.md', 'tables/error-control.md', 'charts/worst-false-violation.svg', 'pools/adult-robust-base.arrow']) {
      expect(existsSync(join(out, file)), file).toBe(true);
    }
  });

  it('its table has one row per pool, metric, access regime and test, with the errors that matter and what each test controls', () => {
    const table = readFileSync(join(out, 'tables', 'error-control.csv'), 'utf8').trim().split('\n');
    expect(table).toHaveLength(1 + 8 * 2 * 3 * 3);
    expect(table[0]).toMatch(/^pool,data,metric,access,test,controls,tolerance,worst_false_violation,worst_false_violation_se,worst_at_gap,false_compliance_at_tolerance/);
    const adultDecision = table.filter((line) => line.startsWith('Adult Robust-Base,') && line.includes(',SP,decision,'));
    expect(adultDecision.map((line) => line.split(',')[4])).toEqual(['wald-glr', 'calibrated-glr', 'betting']);
    expect(adultDecision[0]).toContain('none (operational thresholds)');
    // Table 1's SP gap of Adult Robust-Base, on the calibrated pool: 0.1716 (men higher: b minus a negative).
    expect(Number(adultDecision[0].split(',')[12])).toBeCloseTo(-0.1716, 4);
  });

  it('`fairaudit report` on the folder rebuilds the same table and report from the folder alone', async () => {
    const before = readFileSync(join(out, 'tables', 'error-control.csv'), 'utf8');
    rmSync(join(out, 'tables'), { recursive: true });
    await writeReport(out, { png: false });
    expect(readFileSync(join(out, 'tables', 'error-control.csv'), 'utf8')).toBe(before);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('Worst false-violation rate over compliant gaps');
  });
});

describe('declaredLogitBounds(pools, logitTolerance)', () => {
  it('covers every logit the study audits: each pool\'s largest |logit| plus the largest shift of group b, as an integer range', () => {
    const pool = calibratedPool('adult', 'robust-base');
    let largest = 0;
    for (const value of pool.logit!) largest = Math.max(largest, Math.abs(value));
    const { lower, upper } = declaredLogitBounds([pool], 0.2);
    expect(lower).toBe(-upper);
    expect(Number.isInteger(upper)).toBe(true);
    expect(upper).toBeGreaterThanOrEqual(largest + 0.2);
  });
});
