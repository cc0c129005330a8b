import { describe, expect, it } from 'vitest';
import type { ModelCard } from '../../src/models/model-card.js';
import { seedVariability, spreadOf } from '../../src/models/seed-variability.js';
import type { TrainedModel } from '../../src/models/train-models.js';

describe('spreadOf(values)', () => {
  it('gives min, median, max, mean and the sample sd (values 1, 2, 4, 9: mean 4, sd sqrt(38/3))', () => {
    const spread = spreadOf([4, 1, 9, 2]);
    expect([spread.min, spread.median, spread.max, spread.mean]).toEqual([1, 3, 9, 4]);
    // (1-4)^2 + (2-4)^2 + (4-4)^2 + (9-4)^2 = 9 + 4 + 0 + 25 = 38, over n - 1 = 3
    expect(spread.sd).toBeCloseTo(Math.sqrt(38 / 3), 14);
    expect(spreadOf([0.5])).toMatchObject({ median: 0.5, sd: 0, count: 1 });
    expect(() => spreadOf([])).toThrow(RangeError);
  });
});

describe('seedVariability(grid, base)', () => {
  const model = (name: string, sp: number): TrainedModel =>
    ({
      name,
      card: { accuracy: 0.8, statisticalParityGap: sp, equalOpportunityGap: sp / 2 } as ModelCard,
    }) as TrainedModel;
  const base = { splitSeed: 's', modelSeed: 'm' };
  const grid = [
    { ...base, models: [model('a', 0.1)] },
    { splitSeed: 's', modelSeed: 'm/1', models: [model('a', 0.3)] },
    { splitSeed: 's/1', modelSeed: 'm', models: [model('a', 0.2)] },
    { splitSeed: 's/2', modelSeed: 'm', models: [model('a', 0.6)] },
  ];

  it('puts the base pair on both axes and each other pair on its own', () => {
    const [variability] = seedVariability(grid, base);
    expect(variability.model).toBe('a');
    expect(variability.modelSeeds?.statisticalParityGap.values).toEqual([0.1, 0.3]);
    expect(variability.splitSeeds?.statisticalParityGap.values).toEqual([0.1, 0.2, 0.6]);
    expect(variability.splitSeeds?.equalOpportunityGap.max).toBe(0.3);
  });

  it('gives null for an axis with only the base pair', () => {
    expect(seedVariability(grid.slice(0, 2), base)[0].splitSeeds).toBeNull();
  });
});
