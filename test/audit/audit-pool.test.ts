import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditPool, calibrateForAuditPool, type SingleAuditSummary } from '../../src/audit/audit-pool.js';
import { generateSyntheticPool } from '../../src/data/synthetic-pool.js';

const pool = generateSyntheticPool({
  size: 1000,
  groupShare: 0.4,
  labelRate: [0.5, 0.5],
  decisionRate: [0.45, 0.15],
  logitScale: 1,
  seed: 'audit-pool',
});
const small = { budget: 300, tolerance: 0.1, alpha: 0.1, seed: '4', replicates: 10 } as const;

describe('auditPool(pool, settings, name, lookup) with the error-controlled tests', () => {
  it(
    'test calibrated-glr calibrates on worker threads, with a duration notice and progress, when the cache lacks ' +
      'it, then reads it; calibrateForAuditPool computes the same ahead',
    async () => {
      const cacheDirectory = mkdtempSync(join(tmpdir(), 'fairaudit-audit-pool-'));
      const settings = {
        ...small,
        // The whole pool: at budget 300 the calibrated test leaves 83% of clear violations open
        // (a vacuous certificate).
        budget: 1000,
        test: 'calibrated-glr' as const,
        calibration: { paths: 500, seed: 's', confidence: 0.95, baseRates: [0, 0.5, 1] },
      };
      const notices: string[] = [];
      const progress: number[] = [];
      const summary = await auditPool(
        pool,
        settings,
        undefined,
        { cacheDirectory, onNotice: (notice) => notices.push(notice) },
        { threads: 2, onProgress: (_stage, done) => progress.push(done) },
      );
      expect(summary.test).toBe('calibrated-glr');
      expect(summary.calibration?.cached).toBe(false);
      expect(readdirSync(cacheDirectory)).toEqual([`${summary.calibration?.fingerprint}.json`]);
      expect(notices.join('\n')).toMatch(/calibrat/i);
      expect(progress.length).toBeGreaterThan(0);
      expect(await auditPool(pool, settings, undefined, { cacheDirectory })).toEqual({
        ...summary,
        calibration: { ...summary.calibration, cached: true },
      });
      const ahead = await calibrateForAuditPool(
        pool,
        settings,
        undefined,
        { cacheDirectory: mkdtempSync(join(tmpdir(), 'fairaudit-audit-pool-')) },
        { threads: 2 },
      );
      expect(ahead?.record.fingerprint).toBe(summary.calibration?.fingerprint);
      // The summary prints thresholds to 6 decimals (lower -2.5500000000000003 on the grid prints -2.55).
      const printed = [ahead?.record.upper, ahead?.record.lower].map((value) => Number(value?.toFixed(6)));
      expect(printed).toEqual([summary.upperThreshold, summary.lowerThreshold]);
      expect(await calibrateForAuditPool(pool, { ...small })).toBeNull();
    },
  );

  it(
    "paper A's settings give paper A's summary (test wald-glr, Wald thresholds, start rule 1); betting has no " +
      'thresholds',
    async () => {
      const paperA = await auditPool(pool, { ...small, test: 'wald-glr' });
      // python3 -c "import math; print(round(math.log(0.8/0.1),6), round(math.log(0.2/0.9),6))": 2.079442 -1.504077
      expect(paperA).toMatchObject({
        test: 'wald-glr',
        upperThreshold: 2.079442,
        lowerThreshold: -1.504077,
        minimumPerGroup: 1,
        order: 'random',
      });
      const betting = await auditPool(pool, { ...small, test: 'betting', order: 'balanced' });
      expect(betting).toMatchObject({ test: 'betting', order: 'balanced' });
      expect('upperThreshold' in betting).toBe(false);
      expect(await auditPool(pool, { ...small, access: 'score', thresholds: { upper: 6, lower: -2 } })).toMatchObject({
        test: 'given-thresholds',
        minimumPerGroup: 5,
        guarantee: expect.stringMatching(/^given-thresholds: no error guarantee/),
      });
    },
  );

  it(
    'throws InputError naming the setting through `name`: a pool with one group in the metric pool, an order ' +
      'given to the betting test',
    async () => {
      const oneGroup = generateSyntheticPool({
        size: 100,
        groupShare: 0.5,
        labelRate: [0, 0.5],
        decisionRate: [0.4, 0.4],
        logitScale: 1,
        seed: 'x',
      });
      await expect(auditPool(oneGroup, { ...small, metric: 'eo' })).rejects.toThrow(/group a/);
      // A level no calibrated threshold pair can meet is named as the caller names it, not by the library function.
      const impossible = {
        ...small,
        budget: 50,
        alpha: 1e-4,
        test: 'calibrated-glr' as const,
        calibration: { paths: 200, seed: 's', confidence: 0.95, baseRates: [0.5] },
      };
      const cacheDirectory = mkdtempSync(join(tmpdir(), 'fairaudit-audit-pool-'));
      await expect(auditPool(pool, impossible, (key) => `--${key}`, { cacheDirectory })).rejects.toThrow(
        /^--alpha: expected a level this setting can meet .*the smallest alpha it can meet is [0-9.e-]+/,
      );
      await expect(
        auditPool(pool, { ...small, test: 'betting', order: 'given', replicates: 1 }, (key) => `--${key}`),
      ).rejects.toThrow(/--order: expected "random" or "balanced" with test betting/);
    },
  );
});

describe('auditPool(pool, settings) continued with the same seed and a larger budget', () => {
  // 4000 rows at an SP gap of 0.05, the tolerance: the boundary, where audits stay open longest.
  const boundary = generateSyntheticPool({
    size: 4000,
    groupShare: 0.4,
    labelRate: [0.45, 0.4],
    decisionRate: [0.4, 0.35],
    logitScale: 1,
    seed: 'continuation',
  });

  it('is the same audit queried further: decisions within the smaller budget stay, with their queries', async () => {
    let continued = 0;
    for (let seed = 0; seed < 30; seed++) {
      const settings = { test: 'betting', seed: `c${seed}`, tolerance: 0.05 } as const;
      const first = (await auditPool(boundary, { ...settings, budget: 300 })) as SingleAuditSummary;
      const longer = (await auditPool(boundary, { ...settings, budget: 1200 })) as SingleAuditSummary;
      if (first.decision === 'inconclusive') {
        continued++;
        expect(first.continuation).toMatch(/^continue: the same seed with a budget above 300 continues/);
        expect(longer.queries).toBeGreaterThan(300);
      } else {
        expect([longer.decision, longer.queries]).toEqual([first.decision, first.queries]);
        expect(first.continuation).toBeUndefined();
      }
    }
    expect(continued).toBeGreaterThan(10); // at the boundary most audits are open after 300 queries
  });

  it('the GLR tests say they cannot be continued', async () => {
    const summary = await auditPool(boundary, {
      test: 'wald-glr',
      seed: '1',
      budget: 50,
      tolerance: 0.05,
      replicates: 5,
    });
    expect(summary.continuation).toMatch(/^no continuation: this test has no error guarantee to keep; test betting/);
  });
});
