import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calibratedPool } from '../../../papers/paper-a/calibrated-pools.js';
import {
  type ErrorControlReproduction,
  reproduceErrorControl,
} from '../../../papers/paper-a/error-control/reproduce.js';
import { declaredLogitBounds } from '../../../papers/paper-a/error-control/settings.js';
import { errorControlTable } from '../../../papers/paper-a/error-control/table.js';
import { parseOverride } from '../../../src/harness/config.js';
import type { CellSummary } from '../../../src/report/cell-results.js';
import { writeReport } from '../../../src/report/write-report.js';
import { filesOf } from '../../helpers/folder-snapshot.js';

// Small: 3 replicates and B = 300 (the calibrations scale with the budget), paper A's pools.
const overrides = [parseOverride('replicates=3'), parseOverride('budget=300')];

describe('reproduceErrorControl({ calibrated: true }) with 3 replicates and B = 300', () => {
  let out: string;
  let result: ErrorControlReproduction;
  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'error-control-'));
    result = await reproduceErrorControl({ outDirectory: out, calibrated: true, overrides, threads: 2, png: false });
    // 22 s with the calibrations cached on a quiet machine; from an empty cache at load 15, past 120 s.
  }, 600_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it(
    "audits paper A's eight calibrated pools with the three tests at four gaps each, into " + 'results/error-control/',
    () => {
      expect(result.pools.map((pool) => pool.name)).toEqual([
        'acs-robust-dp',
        'acs-unstable-dp',
        'acs-robust-base',
        'acs-unstable-base',
        'adult-robust-dp',
        'adult-unstable-dp',
        'adult-robust-base',
        'adult-unstable-base',
      ]);
      expect(result.realAdult).toBe('not asked for (--calibrated)');
      // 8 pools x 2 metrics x 3 access regimes x 3 tests x 4 gaps.
      expect(result.cells).toBe(576);
      for (const file of [
        'results.arrow',
        'run.json',
        'report.html',
        'README.md',
        'tables/error-control.md',
        'charts/worst-false-violation.svg',
        'pools/adult-robust-base.arrow',
      ]) {
        expect(existsSync(join(out, file)), file).toBe(true);
      }
    },
  );

  it(
    'its table has one row per pool, metric, access regime and test, with the errors that matter and what each ' +
      'test controls',
    () => {
      const table = readFileSync(join(out, 'tables', 'error-control.csv'), 'utf8')
        .trim()
        .split('\n');
      expect(table).toHaveLength(1 + 8 * 2 * 3 * 3);
      expect(table[0]).toMatch(
        new RegExp(
          '^pool,data,metric,access,test,controls,tolerance,worst_false_violation,worst_false_viola' +
            'tion_se,worst_at_gap,false_compliance_at_tolerance',
        ),
      );
      const adultDecision = table.filter(
        (line) => line.startsWith('Adult Robust-Base,') && line.includes(',SP,decision,'),
      );
      expect(adultDecision.map((line) => line.split(',')[4])).toEqual(['wald-glr', 'calibrated-glr', 'betting']);
      expect(adultDecision[0]).toContain('none (operational thresholds)');
      // Table 1's SP gap of Adult Robust-Base, on the calibrated pool: 0.1716 (men higher: b minus a negative).
      expect(Number(adultDecision[0].split(',')[12])).toBeCloseTo(-0.1716, 4);
    },
  );

  it('`fairaudit report` on the folder rebuilds the same table and report from the folder alone', async () => {
    const before = readFileSync(join(out, 'tables', 'error-control.csv'), 'utf8');
    rmSync(join(out, 'tables'), { recursive: true });
    await writeReport(out, { png: false });
    expect(readFileSync(join(out, 'tables', 'error-control.csv'), 'utf8')).toBe(before);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('Worst false-violation rate over compliant gaps');
  });
  it('reproduced into another, deeper folder (calibrations cached), gives the same tree but for run.json ' +
    'provenance', async () => {
    const elsewhere = join(out, 'elsewhere', 'deeper');
    await reproduceErrorControl({ outDirectory: elsewhere, calibrated: true, overrides, threads: 1, png: false });
    const files = filesOf(elsewhere);
    expect(files).toEqual(filesOf(out).filter((file) => !file.startsWith('elsewhere/')));
    for (const file of files) {
      const [a, b] = [readFileSync(join(out, file)), readFileSync(join(elsewhere, file))];
      if (file.endsWith('run.json')) {
        const [left, right] = [JSON.parse(a.toString('utf8')), JSON.parse(b.toString('utf8'))];
        delete left.provenance;
        delete right.provenance;
        expect(right, file).toEqual(left);
      } else {
        expect(a.equals(b), `${file} differs`).toBe(true);
        expect(a.toString('latin1').includes(out), `${file} names the results path`).toBe(false);
      }
    }
  }, 600_000);
});

describe('declaredLogitBounds(pools, logitTolerance)', () => {
  it(
    "covers every logit the study audits: each pool's largest |logit| plus the largest shift of group b, as an " +
      'integer range',
    () => {
      const pool = calibratedPool('adult', 'robust-base');
      let largest = 0;
      for (const value of pool.logit!) largest = Math.max(largest, Math.abs(value));
      const { lower, upper } = declaredLogitBounds([pool], 0.2);
      expect(lower).toBe(-upper);
      expect(Number.isInteger(upper)).toBe(true);
      expect(upper).toBeGreaterThanOrEqual(largest + 0.2);
    },
  );
});

describe('errorControlTable(summaries, pools)', () => {
  // One pool and test at the study's four gaps; the cell moved to the tolerance has the
  // given truth (re-deciding whole rows can land just inside the tolerance).
  function cells(truthAtTolerance: string): CellSummary[] {
    const cell = (gap: number | null, truth: string, pAccept: number): CellSummary => ({
      cell: String(gap),
      settings: {
        pool: 'p',
        metric: 'eo',
        access: 'decision',
        tolerance: 0.05,
        alpha: 0.05,
        beta: 0.2,
        gap: gap ?? Number.NaN,
      },
      replicates: 50,
      values: {
        test_name: 'betting',
        truth,
        p_reject: 0,
        p_reject_se: 0,
        p_accept: pAccept,
        p_accept_se: 0.02,
        p_inconclusive: 1 - pAccept,
        true_gap: gap ?? 0.08,
        queries_mean: 100,
      },
    });
    return [
      cell(null, 'violating', 0.04),
      cell(0, 'compliant', 1),
      cell(0.5, 'compliant', 1),
      cell(1, truthAtTolerance, 0.98),
    ];
  }
  const pools = [{ name: 'p', label: 'P', data: 'test' }];

  it(
    'reports P(accept) at the tolerance as false compliance when the moved pool is on the boundary or ' + 'violates',
    () => {
      expect(errorControlTable(cells('boundary'), pools).rows[0].false_compliance_at_tolerance).toBe(0.98);
      expect(errorControlTable(cells('violating'), pools).rows[0].false_compliance_at_tolerance).toBe(0.98);
    },
  );

  it(
    'leaves it blank when the nearest gap by counts is inside the tolerance (accepting a compliant pool is ' + 'right)',
    () => {
      const row = errorControlTable(cells('compliant'), pools).rows[0];
      expect(row.false_compliance_at_tolerance).toBeNull();
      expect(row.false_compliance_at_tolerance_se).toBeNull();
      expect(row.false_compliance_at_own_gap).toBe(0.04);
    },
  );
});
