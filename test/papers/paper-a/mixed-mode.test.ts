import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calibratedPools, type TrainedPoolsProvider } from '../../../papers/paper-a/pool-sources.js';
import { type PaperAReproduction, reproducePaperA } from '../../../papers/paper-a/reproduce.js';
import { trainedPools } from '../../../papers/paper-a/trained-pools.js';
import { parseOverride } from '../../../src/harness/config.js';

// A stand-in for trained Adult models (the calibrated pools relabelled as trained), so the
// mixed real/calibrated path runs in seconds; real training is exercised by `fairaudit reproduce`.
const adultOnly: TrainedPoolsProvider = async (dataset) =>
  dataset === 'adult'
    ? {
        available: true,
        pools: calibratedPools('adult', '').map((entry) => ({
          ...entry,
          origin: 'trained-model' as const,
          reason: null,
          cached: true,
        })),
      }
    : { available: false, reason: 'the ACS mirror has no feature columns (test stand-in).' };

describe('reproducePaperA({ trainedPools }) with Adult available and ACS not', () => {
  let out: string;
  let result: PaperAReproduction;
  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'paper-a-mixed-'));
    result = await reproducePaperA({
      outDirectory: out,
      trainedPools: adultOnly,
      overrides: [parseOverride('replicates=2')],
      sensitivity: false,
      beyond: false,
      png: false,
      threads: 1,
    });
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('runs Adult on the provided pools and ACS on calibrated pools, and says so', () => {
    expect(result.mode).toBe('mixed: Adult on real data; ACS calibrated synthetic (not reproduced)');
    expect(result.pools.filter((pool) => pool.origin === 'trained-model').map((pool) => pool.name)).toEqual([
      'adult-robust-dp',
      'adult-unstable-dp',
      'adult-robust-base',
      'adult-unstable-base',
    ]);
    const readme = readFileSync(join(out, 'README.md'), 'utf8');
    expect(readme).toMatch(/PARTLY CALIBRATED SYNTHETIC DATA/);
    expect(readme).toMatch(/the ACS mirror has no feature columns/);
    expect(existsSync(join(out, 'score-tolerance'))).toBe(false);
  });

  it('gives the 82 ACS cells the verdict "not reproduced" and the 82 Adult cells a real verdict', () => {
    expect(result.comparison.total).toBe(164);
    expect(result.comparison.notReproduced).toBe(82);
    expect(result.comparison.reproduced + result.comparison.differs).toBe(82);
    // The stand-in pools have Table 1's gaps, so the analytic Adult gap cells are reproduced.
    const table = readFileSync(join(out, 'tables/paper-a-comparison.csv'), 'utf8');
    const gapLine = table.split('\n').find((line) => line.includes('paper-a/table1/adult/robust-base/sp/gap'));
    expect(gapLine).toMatch(/,reproduced,/);
  });
});

describe('trainedPools()("acs") on the mirror', () => {
  const mirror = process.env.FAIRAUDIT_DATA_DIR;
  it.skipIf(!mirror || !existsSync(join(mirror, 'acs_income_ca_2018')))(
    "comes back unavailable with the loader's reason (the mirror has labels and SEX only) [needs FAIRAUDIT_DATA_DIR]",
    async () => {
      const result = await trainedPools({ dataDirectory: mirror })('acs');
      expect(result.available).toBe(false);
      if (!result.available) expect(result.reason).toMatch(/acs/i);
    },
  );
});
