import { describe, expect, it } from 'vitest';
import { allocateByStratum, selectionSize, stratifiedSplit } from '../../src/data/stratified-split.js';
import { createRandom } from '../../src/util/random.js';

describe('selectionSize(rows, fraction)', () => {
  it("selectionSize rounds up as scikit-learn's train_test_split does", () => {
    expect(selectionSize(6172, 0.45)).toBe(2778); // paper B Table 2, COMPAS N
    expect(selectionSize(30000, 0.45)).toBe(13500); // CCD N
    expect(selectionSize(81000, 0.45)).toBe(36450); // HateDay N
    expect(selectionSize(2778, 0.5)).toBe(1389); // COMPAS n
    expect(selectionSize(45222, 0.3)).toBe(13567); // ceil(13,566.6)
    expect(selectionSize(0, 0.3)).toBe(0);
  });
});

describe('allocateByStratum(sizes, total, random)', () => {
  it('allocateByStratum gives floors, then the largest remainders', () => {
    // Adult paper-A training part: 31,655 of 34,014 negatives and 11,208 positives;
    // shares 23,809.499 and 7,845.501, so the one left over goes to the positives.
    expect(allocateByStratum([34014, 11208], 31655, createRandom(1))).toEqual([23809, 7846]);
  });

  it('allocateByStratum breaks exact ties by the seeded draw, never exceeding a stratum', () => {
    const outcomes = new Set<string>();
    for (let seed = 0; seed < 20; seed++) outcomes.add(allocateByStratum([1, 1], 1, createRandom(seed)).join(','));
    expect(outcomes).toEqual(new Set(['1,0', '0,1']));
    expect(allocateByStratum([0, 5], 3, createRandom(1))).toEqual([0, 3]);
    expect(allocateByStratum([], 0, createRandom(1))).toEqual([]);
  });
});

describe('stratifiedSplit(random, rows, fraction, strata)', () => {
  const strata = Uint8Array.from({ length: 1000 }, (_, i) => (i % 10 < 3 ? 1 : 0)); // 300 ones

  it("stratifiedSplit keeps each stratum's share in the selected part", () => {
    const split = stratifiedSplit(createRandom('s'), 1000, 0.45, strata);
    expect(split.selected.length).toBe(450);
    expect(split.rest.length).toBe(550);
    let ones = 0;
    for (const row of split.selected) ones += strata[row];
    expect(ones).toBe(135); // 0.45 × 300
  });

  it('stratifiedSplit returns disjoint ascending parts covering every row', () => {
    const split = stratifiedSplit(createRandom('s'), 1000, 0.3, null);
    const all = [...split.selected, ...split.rest].sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    for (const part of [split.selected, split.rest]) {
      for (let i = 1; i < part.length; i++) expect(part[i]).toBeGreaterThan(part[i - 1]);
    }
  });

  it('stratifiedSplit is fixed by the seed and changes with it', () => {
    const a = stratifiedSplit(createRandom('seed-1'), 1000, 0.3, strata);
    const b = stratifiedSplit(createRandom('seed-1'), 1000, 0.3, strata);
    const c = stratifiedSplit(createRandom('seed-2'), 1000, 0.3, strata);
    expect(Array.from(a.selected)).toEqual(Array.from(b.selected));
    expect(Array.from(a.selected)).not.toEqual(Array.from(c.selected));
  });

  it('stratifiedSplit on a single row selects it', () => {
    const split = stratifiedSplit(createRandom(1), 1, 0.3, null);
    expect(Array.from(split.selected)).toEqual([0]);
    expect(split.rest.length).toBe(0);
  });
});
