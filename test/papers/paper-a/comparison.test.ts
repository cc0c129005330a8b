import { describe, expect, it } from 'vitest';
import { explainPaperAComparison } from '../../../papers/paper-a/comparison.js';
import { calibratedPools, type PoolProvenance, poolProvenance } from '../../../papers/paper-a/pool-sources.js';
import { PAPER_A_POOLS } from '../../../papers/paper-a/pools.js';
import { shortReason } from '../../../papers/paper-a/reproduce.js';
import type { CellSummary } from '../../../src/report/cell-results.js';
import type { ComparisonRow } from '../../../src/report/compare-published.js';
import type { PublishedCell } from '../../../src/report/published.js';

const published = (
  id: string,
  statistic: string,
  value: number | string,
  where: Record<string, string>,
  table = 'Table 2',
): PublishedCell => ({
  id,
  table,
  row: 'Adult Robust-Base',
  column: 'c',
  kind: typeof value === 'number' ? 'mean' : 'label',
  value,
  labels: {},
  where,
  statistic,
});

const row = (id: string, statistic: string, status: ComparisonRow['status']): ComparisonRow => ({
  id,
  table: 'Table 2',
  row: 'Adult Robust-Base',
  column: 'c',
  kind: 'mean',
  statistic,
  published: 191,
  publishedSpread: 215,
  reproduced: 120,
  difference: -71,
  tolerance: 50,
  status,
  regression: false,
  note: '',
});

const adultRobustBase = PAPER_A_POOLS.find((pool) => pool.name === 'adult-robust-base')!;
const realPool = (cached: boolean): PoolProvenance => ({
  name: adultRobustBase.name,
  origin: 'trained-model',
  reason: null,
  cached,
});
const summary = (gap: number): CellSummary => ({
  cell: 'c',
  settings: { pool: 'adult-robust-base', metric: 'sp', access: 'decision' },
  replicates: 20,
  values: { oracle_gap: gap },
});

describe('explainPaperAComparison(rows, cells, summaries, pools)', () => {
  const where = { pool: 'adult-robust-base', metric: 'sp', access: 'decision' };
  // Published gap 0.1716: paper A Table 1, Adult Robust-Base, SP.
  const cells = [
    published('q', 'queries_mean', 191, where),
    published('g', 'oracle_gap', 0.1716, { ...where }, 'Table 1'),
    published('s', 'queries_mean', 94, { ...where, access: 'score' }),
  ];

  it('marks every cell of a calibrated pool "not reproduced", even when within tolerance', () => {
    const pools = calibratedPools('adult', 'No data.').map((pool) => poolProvenance(pool));
    const [explained] = explainPaperAComparison([row('g', 'oracle_gap', 'within')], cells, [summary(0.1716)], pools);
    expect(explained.verdict).toBe('not reproduced (calibrated synthetic)');
    expect(explained.why).toMatch(/by construction/);
    expect(explained.why).toMatch(/NOT A REPRODUCTION/);
  });

  it(
    'gives a trained-model cell within tolerance the verdict "reproduced" and the same data words cached or not ' +
      '(the cache state is run.json provenance)',
    () => {
      const [explained] = explainPaperAComparison(
        [row('q', 'queries_mean', 'within')],
        cells,
        [summary(0.1716)],
        [realPool(true)],
      );
      expect(explained.verdict).toBe('reproduced');
      expect(explained.data).toBe('real data, trained model');
    },
  );

  it('explains a differing audit cell by the moved oracle gap (0.1797 against the published 0.1716)', () => {
    const [explained] = explainPaperAComparison(
      [row('q', 'queries_mean', 'outside')],
      cells,
      [summary(0.1797)],
      [realPool(false)],
    );
    expect(explained.verdict).toBe('differs');
    expect(explained.why).toMatch(/0\.1797 against the published 0\.1716/);
    expect(explained.why).toMatch(/how far the gap lies from δ/);
  });

  it(
    'names the unstated score tolerance for a differing score-access cell, and Monte Carlo error when nothing ' +
      'else applies',
    () => {
      const [score] = explainPaperAComparison(
        [row('s', 'queries_mean', 'outside')],
        cells,
        [summary(0.1716)],
        [realPool(false)],
      );
      expect(score.why).toMatch(/score-space tolerance is not stated/);
      const [plain] = explainPaperAComparison(
        [row('q', 'queries_mean', 'outside')],
        cells,
        [summary(0.1716)],
        [realPool(false)],
      );
      expect(plain.why).toMatch(/Monte Carlo error/);
    },
  );
});

describe('shortReason(message)', () => {
  it('keeps the first line and the sentence that says why the data cannot be used', () => {
    const message = [
      'dataset "acs-income" is incomplete: expected the files of one of these forms, found none complete.',
      'Looked in: mirror /data.',
      '  - folktables-export: acsincome_ca_features.csv: missing. a folktables export',
      'The canonical source is the Census. A mirror holding only the labels and group columns cannot train a ' +
        'model: the ten features are missing.',
      'Provide it in one of two ways:',
    ].join('\n');
    expect(shortReason(message)).toBe(
      'dataset "acs-income" is incomplete: expected the files of one of these forms, found none complete. A ' +
        'mirror holding only the labels and group columns cannot train a model: the ten features are missing.',
    );
    expect(shortReason('one line')).toBe('one line');
  });
});
