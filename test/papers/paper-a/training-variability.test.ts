import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calibratedPools, type SourcedPool, type TrainedPoolsProvider } from '../../../papers/paper-a/pool-sources.js';
import { type PaperAReproduction, reproducePaperA } from '../../../papers/paper-a/reproduce.js';
import type { SeedPoolsProvider } from '../../../papers/paper-a/seed-pools.js';
import { parseOverride } from '../../../src/harness/config.js';
import { writeReport } from '../../../src/report/write-report.js';

// Stand-ins for trained Adult models so the seed stage runs in seconds: seed 0 is the
// calibrated Adult pools (Table 1's gaps) relabelled as trained; each other seed pair
// moves every pool's SP gap by switching on the decision of its first 100 * k women.
function trainedAdult(k: number): SourcedPool[] {
  return calibratedPools('adult', '').map((entry) => {
    const decision = entry.auditPool.decision.slice();
    let switched = 0;
    for (let i = 0; i < decision.length && switched < 100 * k; i++) {
      if (entry.auditPool.group[i] === 1 && decision[i] === 0) {
        decision[i] = 1;
        switched++;
      }
    }
    return {
      ...entry,
      auditPool: { ...entry.auditPool, decision },
      origin: 'trained-model' as const,
      reason: null,
      cached: true,
    };
  });
}
const adultOnly: TrainedPoolsProvider = async (dataset) =>
  dataset === 'adult'
    ? { available: true, pools: trainedAdult(0) }
    : { available: false, reason: 'no ACS features (test stand-in).' };
const asked: Array<{ dataset: string; modelSeeds: number; splitSeeds: number }> = [];
const seedPools: SeedPoolsProvider = async (dataset, counts) => {
  asked.push({ dataset, ...counts });
  const axes = ['base', 'model', 'split'] as const;
  return {
    available: true,
    pairs: axes.map((axis, k) => ({
      splitSeed: axis === 'split' ? 's/1' : 's',
      modelSeed: axis === 'model' ? 'm/1' : 'm',
      axis,
      pools: trainedAdult(k),
    })),
  };
};

describe('reproducePaperA({ seeds: { modelSeeds: 2, splitSeeds: 2 } }) with stand-in trained Adult pools', () => {
  let out: string;
  let result: PaperAReproduction;
  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'paper-a-seeds-'));
    result = await reproducePaperA({
      outDirectory: out,
      trainedPools: adultOnly,
      seedPools,
      seeds: { modelSeeds: 2, splitSeeds: 2 },
      overrides: [parseOverride('replicates=2')],
      sensitivity: false,
      png: false,
      threads: 1,
    });
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('asks for the trained dataset only, and runs the main grid on each other seed pair under seeds/', () => {
    expect(asked).toEqual([{ dataset: 'adult', modelSeeds: 2, splitSeeds: 2 }]);
    for (const folder of ['seeds/model-seed-1', 'seeds/split-seed-1']) {
      expect(existsSync(join(out, folder, 'results.arrow')), folder).toBe(true);
      expect(existsSync(join(out, folder, 'pools', 'adult-robust-dp.arrow')), folder).toBe(true);
      expect(existsSync(join(out, folder, 'pools', 'acs-robust-dp.arrow')), folder).toBe(false);
    }
    const layout = JSON.parse(readFileSync(join(out, 'report-layout.json'), 'utf8'));
    expect(
      layout.options.variability.runs.map((run: { axis: string; directory: string }) => [run.axis, run.directory]),
    ).toEqual([
      ['base', '.'],
      ['model', 'seeds/model-seed-1'],
      ['split', 'seeds/split-seed-1'],
    ]);
    expect(result.seeds).toEqual({ modelSeeds: 2, splitSeeds: 2, pairs: 3 });
  });

  it('gives every Adult cell a verdict from the three (or missing) and leaves ACS calibrated', () => {
    const c = result.comparison;
    expect(c.notReproduced).toBe(82);
    expect(c.differs).toBe(0);
    expect(c.reproduced + c.withinVariability + c.outsideVariability + c.missing).toBe(82);
    // Seed 0 has Table 1's gaps exactly; the shifted pairs' gaps differ, so the gap cells stay reproduced.
    const table = readFileSync(join(out, 'tables/paper-a-comparison.csv'), 'utf8').split('\n');
    const header = table[0].split(',');
    for (const column of [
      'seeds',
      'seeds_min',
      'seeds_median',
      'seeds_max',
      'seeds_mean',
      'seeds_sd',
      'model_seeds',
      'split_seeds',
      'seed_labels',
    ]) {
      expect(header).toContain(column);
    }
    const gap = table.find((line) => line.includes('paper-a/table1/adult/robust-base/sp/gap')) ?? '';
    expect(gap).toMatch(/,reproduced,/);
    expect(gap).toMatch(/,3,/); // three seed pairs with a value
    const acs = table.find((line) => line.includes('paper-a/table1/acs/robust-base/sp/gap')) ?? '';
    expect(acs).toMatch(/not reproduced \(calibrated synthetic\)/);
  });

  it('draws a seed-dot chart per table and names the verdicts in the README', () => {
    for (const table of ['table-1', 'table-2', 'table-3', 'table-4', 'table-5', 'figure-1']) {
      expect(existsSync(join(out, `charts/paper-a-seeds-${table}.svg`)), table).toBe(true);
    }
    const svg = readFileSync(join(out, 'charts/paper-a-seeds-table-1.svg'), 'utf8');
    expect(svg).toContain('Table 1: each trained cell over 3 seed pairs');
    expect(svg).toContain('Adult / Robust-Base · SP Gap');
    expect(readFileSync(join(out, 'README.md'), 'utf8')).toMatch(
      /Training variability: every trained model retrained under 2 model seeds and 2 split seeds \(3 seed pairs/,
    );
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('paper-a-seeds-table-1');
  });

  it(
    "is rebuilt identically by 'fairaudit report' from the folder (report-layout.json keeps the seed " + 'runs)',
    async () => {
      const before = [
        'tables/paper-a-comparison.csv',
        'charts/paper-a-seeds-table-2.svg',
        'charts/paper-a-seeds-table-2.vl.json',
      ].map((file) => readFileSync(join(out, file), 'utf8'));
      await writeReport(out, { png: false });
      const after = [
        'tables/paper-a-comparison.csv',
        'charts/paper-a-seeds-table-2.svg',
        'charts/paper-a-seeds-table-2.vl.json',
      ].map((file) => readFileSync(join(out, file), 'utf8'));
      expect(after).toEqual(before);
    },
  );
});

describe('reproducePaperA without seeds', () => {
  it('never calls the seed provider (K = 1 is the single run)', async () => {
    const out = mkdtempSync(join(tmpdir(), 'paper-a-noseeds-'));
    const before = asked.length;
    const result = await reproducePaperA({
      outDirectory: out,
      trainedPools: adultOnly,
      seedPools,
      overrides: [parseOverride('replicates=2')],
      sensitivity: false,
      png: false,
      threads: 1,
    });
    expect(asked.length).toBe(before);
    expect(result.seeds).toBeNull();
    expect(JSON.parse(readFileSync(join(out, 'report-layout.json'), 'utf8')).options.variability).toBeUndefined();
    rmSync(out, { recursive: true, force: true });
  });
});
