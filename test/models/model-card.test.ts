import { describe, expect, it } from 'vitest';
import type { AuditPool } from '../../src/audit/pool.js';
import { poolFigures } from '../../src/models/model-card.js';
import { poolFromLogits } from '../../src/models/scored-pool.js';
import { syntheticTabularData } from '../../src/models/synthetic-tabular.js';
import { createRandom } from '../../src/util/random.js';

function pool(group: number[], label: number[], decision: number[]): AuditPool {
  return {
    size: group.length,
    group: Uint8Array.from(group),
    label: Uint8Array.from(label),
    decision: Uint8Array.from(decision),
    score: null,
    logit: null,
    id: null,
    source: 'test',
  };
}

describe('poolFigures(pool)', () => {
  it('counts accuracy, per-group rates and the SP and EO gaps', () => {
    // Group a: decisions 1,0,0,1 on labels 1,1,0,0; group b: 1,1 on labels 1,0.
    const figures = poolFigures(pool([0, 0, 0, 0, 1, 1], [1, 1, 0, 0, 1, 0], [1, 0, 0, 1, 1, 1]));
    expect(figures.accuracy).toBeCloseTo(3 / 6, 12);
    expect(figures.groups.a).toEqual({
      rows: 4,
      positives: 2,
      positiveRate: 0.5,
      truePositiveRate: 0.5,
      accuracy: 0.5,
    });
    expect(figures.groups.b).toEqual({ rows: 2, positives: 1, positiveRate: 1, truePositiveRate: 1, accuracy: 0.5 });
    expect(figures.statisticalParityGap).toBe(0.5);
    expect(figures.equalOpportunityGap).toBe(0.5);
  });

  it('gives NaN rates, not a crash, for an empty pool or a group without rows or positives', () => {
    const empty = poolFigures(pool([], [], []));
    expect(empty.poolRows).toBe(0);
    expect(empty.accuracy).toBeNaN();
    const oneGroup = poolFigures(pool([0, 0], [0, 0], [1, 0]));
    expect(oneGroup.groups.b.positiveRate).toBeNaN();
    expect(oneGroup.groups.a.truePositiveRate).toBeNaN();
    expect(oneGroup.statisticalParityGap).toBeNaN();
  });
});

describe('poolFromLogits(data, logits, source)', () => {
  it('keeps huge logits finite in score, decides at score >= 0.5, and copies group, label and ids', () => {
    const data = syntheticTabularData(
      { rows: 4, numericColumns: 1, categoricalLevels: [], groupEffect: 0 },
      createRandom('p'),
    );
    const logits = Float64Array.from([1000, -1000, 0, -1e-3]);
    const scored = poolFromLogits(data, logits, 'model:test');
    expect(Array.from(scored.score!)).toEqual([1, 0, 0.5, 1 / (1 + Math.exp(1e-3))]);
    expect(Array.from(scored.decision)).toEqual([1, 0, 1, 0]);
    expect(Array.from(scored.id!)).toEqual([0, 1, 2, 3]);
    expect(Array.from(scored.group)).toEqual(Array.from(data.group));
    expect(scored.logit).toBe(logits);
  });
});
