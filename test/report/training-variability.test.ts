import { describe, expect, it } from 'vitest';
import type { ComparisonRow } from '../../src/report/compare-published.js';
import {
  isSeedRecord,
  type SeedComparison,
  trainingVariability,
  variabilityRecord,
  verdictCounts,
} from '../../src/report/training-variability.js';

function row(
  id: string,
  published: number | string,
  reproduced: number | string | null,
  tolerance: number | null,
  status: ComparisonRow['status'],
): ComparisonRow {
  return {
    id,
    table: 'Table 1',
    row: 'Adult / Robust-DP',
    column: id,
    kind: typeof published === 'number' ? 'mean' : 'derived',
    statistic: 'x',
    published,
    publishedSpread: null,
    reproduced,
    difference: typeof published === 'number' && typeof reproduced === 'number' ? reproduced - published : null,
    tolerance,
    status,
    regression: false,
    note: status === 'missing' ? 'no value' : '',
  };
}

// Four seed pairs: base, two varied model seeds, one varied split seed. Cell "gap" has published 0.10:
// values 0.14 (t 0.01), 0.13 (t 0.01), 0.11 (t 0.005), 0.16 (t 0.01) -> widened range [0.105, 0.17]: 0.10 is below by
// 0.005.
// Cell "queries" published 200: values 150 (t 30), 190 (t 30), 240 (t 30), 170 (t 30) -> [120, 270]: within.
// Cell "decision" published accept: base reject, then reject, accept, reject -> 1 of 4 seeds gives it.
// Cell "same" is within tolerance at the base pair -> reproduced; cell "none" is missing at the base pair.
const seeds: SeedComparison[] = [
  {
    splitSeed: 's',
    modelSeed: 'm',
    axis: 'base',
    rows: [
      row('gap', 0.1, 0.14, 0.01, 'outside'),
      row('queries', 200, 150, 30, 'outside'),
      row('decision', 'accept', 'reject', null, 'outside'),
      row('same', 1, 1.01, 0.05, 'within'),
      row('none', 1, null, null, 'missing'),
    ],
  },
  {
    splitSeed: 's',
    modelSeed: 'm/1',
    axis: 'model',
    rows: [
      row('gap', 0.1, 0.13, 0.01, 'outside'),
      row('queries', 200, 190, 30, 'within'),
      row('decision', 'accept', 'reject', null, 'outside'),
      row('same', 1, 0.9, 0.05, 'outside'),
    ],
  },
  {
    splitSeed: 's',
    modelSeed: 'm/2',
    axis: 'model',
    rows: [
      row('gap', 0.1, 0.11, 0.005, 'outside'),
      row('queries', 200, 240, 30, 'outside'),
      row('decision', 'accept', 'Accept', null, 'within'),
      row('same', 1, 1, 0.05, 'within'),
    ],
  },
  {
    splitSeed: 's/1',
    modelSeed: 'm',
    axis: 'split',
    rows: [
      row('gap', 0.1, 0.16, 0.01, 'outside'),
      row('queries', 200, 170, 30, 'outside'),
      row('decision', 'accept', 'reject', null, 'outside'),
    ],
  },
];

describe('trainingVariability(seeds)', () => {
  const cells = trainingVariability(seeds);
  const cell = (id: string) => cells.find((entry) => entry.id === id)!;

  it('gives each number its spread over all pairs and over each axis (the base pair on both)', () => {
    const gap = cell('gap');
    expect(gap.seed0).toBe(0.14);
    expect(gap.spread?.min).toBe(0.11);
    expect(gap.spread?.max).toBe(0.16);
    expect(gap.spread?.median).toBeCloseTo((0.13 + 0.14) / 2, 12);
    expect(gap.spread?.mean).toBeCloseTo(0.135, 12);
    expect(gap.modelSeeds?.values).toEqual([0.14, 0.13, 0.11]);
    expect(gap.splitSeeds?.values).toEqual([0.14, 0.16]);
  });

  it(
    'says "outside training variability" with the side and distance when the published number is off the ' +
      'widened range',
    () => {
      const gap = cell('gap');
      expect(gap.range?.[0]).toBeCloseTo(0.105, 12);
      expect(gap.range?.[1]).toBeCloseTo(0.17, 12);
      expect(gap.verdict).toBe('outside training variability');
      expect(gap.reason).toMatch(/published 0\.1 lies below the 4 seeds' range 0\.105–0\.17 .* by 0\.005/);
    },
  );

  it('says "within training variability" inside the widened range, or when some seed gives the published label', () => {
    expect(cell('queries').verdict).toBe('within training variability');
    expect(cell('queries').range).toEqual([120, 270]);
    expect(cell('decision').verdict).toBe('within training variability');
    expect(cell('decision').counts).toEqual({ reject: 3, Accept: 1 });
    expect(cell('decision').reason).toMatch(/1 of 4 seeds give the published "accept"/);
  });

  it('keeps "reproduced" when the base pair is within its tolerance, and "missing" when it has no value', () => {
    expect(cell('same').verdict).toBe('reproduced');
    expect(cell('none').verdict).toBe('missing');
    expect(cell('none').values.map((seed) => seed.value)).toEqual([null, null, null, null]);
    expect(verdictCounts(cells)).toEqual({
      reproduced: 1,
      'within training variability': 2,
      'outside training variability': 1,
      missing: 1,
    });
  });

  it('says "outside" for a label no seed gives', () => {
    const [only] = trainingVariability([
      { splitSeed: 's', modelSeed: 'm', axis: 'base', rows: [row('d', 'accept', 'reject', null, 'outside')] },
    ]);
    expect(only.verdict).toBe('outside training variability');
    expect(only.reason).toBe('no seed of 1 gives the published "accept" (reject 1)');
  });

  it('variabilityRecord(cell) fills the seeds columns', () => {
    expect(variabilityRecord(cell('gap'))).toMatchObject({
      seeds: 4,
      seeds_min: 0.11,
      seeds_max: 0.16,
      model_seeds: '0.11–0.14',
      split_seeds: '0.14–0.16',
      seed_labels: '',
    });
    expect(variabilityRecord(cell('decision'))).toMatchObject({
      seeds: 4,
      seeds_min: null,
      seed_labels: 'reject 3, Accept 1',
    });
  });

  it('throws RangeError unless seeds[0] is the base pair', () => {
    expect(() => trainingVariability([])).toThrow(RangeError);
    expect(() => trainingVariability(seeds.slice(1))).toThrow(RangeError);
  });
});

describe('isSeedRecord(value, isRun)', () => {
  const run = (axis: string, extra: Record<string, unknown> = {}) => ({
    splitSeed: 's0',
    modelSeed: 'm0',
    axis,
    ...extra,
  });
  const record = {
    modelSeeds: 2,
    splitSeeds: 1,
    runs: [run('base', { directory: '.' }), run('model', { directory: 'seeds/model-seed-1' })],
  };
  const hasFolder = (entry: Record<string, unknown>) => typeof entry.directory === 'string';

  it('accepts a seed grid whose base pair comes first and whose runs pass the paper check', () => {
    expect(isSeedRecord(record, hasFolder)).toBe(true);
  });

  it(
    'refuses the base pair elsewhere, an unknown axis, seeds that are not text, fractional counts, no runs, and ' +
      'a run the paper check refuses',
    () => {
      expect(isSeedRecord({ ...record, runs: [...record.runs].reverse() }, hasFolder)).toBe(false);
      expect(isSeedRecord({ ...record, runs: [record.runs[0], run('epoch', { directory: 'x' })] }, hasFolder)).toBe(
        false,
      );
      expect(isSeedRecord({ ...record, runs: [{ ...record.runs[0], splitSeed: 0 }] }, hasFolder)).toBe(false);
      expect(isSeedRecord({ ...record, modelSeeds: 1.5 }, hasFolder)).toBe(false);
      expect(isSeedRecord({ ...record, runs: [] }, hasFolder)).toBe(false);
      expect(isSeedRecord({ ...record, runs: [run('base')] }, hasFolder)).toBe(false);
      expect(isSeedRecord(null, hasFolder)).toBe(false);
    },
  );
});
