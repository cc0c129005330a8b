import { describe, expect, it } from 'vitest';
import { generateSyntheticPool, type SyntheticPoolSpec } from '../../src/data/synthetic-pool.js';

const spec: SyntheticPoolSpec = {
  size: 10_000,
  groupShare: 0.3,
  labelRate: [0.5, 0.4],
  decisionRate: [0.45, 0.3],
  truePositiveRate: [0.8, 0.6],
  logitScale: 2,
  seed: 'test',
};

function rate(pool: ReturnType<typeof generateSyntheticPool>, group: number, onlyPositives: boolean): number {
  let rows = 0;
  let positive = 0;
  for (let i = 0; i < pool.size; i++) {
    if (pool.group[i] !== group || (onlyPositives && pool.label[i] !== 1)) continue;
    rows++;
    positive += pool.decision[i];
  }
  return positive / rows;
}

describe('generateSyntheticPool(spec)', () => {
  it('matches the recipe exactly: group sizes, decision rates (SP gap) and true positive rates (EO gap)', () => {
    const pool = generateSyntheticPool(spec);
    expect(pool.size).toBe(10_000);
    expect(pool.group.reduce((a, b) => a + b, 0)).toBe(3000);
    // Group a: 7000 rows, 3500 positives, 2800 of them decided 1, 3150 decided 1 in all.
    expect(rate(pool, 0, false)).toBe(0.45);
    expect(rate(pool, 1, false)).toBe(0.3);
    expect(rate(pool, 0, true)).toBe(0.8);
    expect(rate(pool, 1, true)).toBe(0.6);
  });

  it('keeps scores and logits consistent with decisions', () => {
    const pool = generateSyntheticPool(spec);
    for (let i = 0; i < pool.size; i++) {
      const logit = pool.logit![i];
      const score = pool.score![i];
      expect(pool.decision[i] === 1 ? logit > 0 && score > 0.5 : logit < 0 && score < 0.5).toBe(true);
      expect(score).toBeCloseTo(1 / (1 + Math.exp(-logit)), 15);
    }
  });

  it('is reproducible from its seed and differs for another seed', () => {
    const a = generateSyntheticPool(spec);
    const b = generateSyntheticPool(spec);
    const c = generateSyntheticPool({ ...spec, seed: 'other' });
    expect(b.logit).toEqual(a.logit);
    expect(b.group).toEqual(a.group);
    expect(c.group).not.toEqual(a.group);
  });

  it('throws InputError for a recipe that cannot be realised', () => {
    expect(() =>
      generateSyntheticPool(
        { ...spec, labelRate: [0.9, 0.4], truePositiveRate: [1, 0.6], decisionRate: [0.5, 0.3] },
        'recipe',
      ),
    ).toThrow('recipe: decisionRate: expected a decision rate for group a that fits its label rate 0.9');
    expect(() => generateSyntheticPool({ ...spec, size: 2, groupShare: 0.1 }, 'recipe')).toThrow('recipe: groupShare');
  });
});
