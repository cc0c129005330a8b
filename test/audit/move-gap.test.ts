import { describe, expect, it } from 'vitest';
import { nullProjection } from '../../src/audit/calibration/null-projection.js';
import { redecideToGap, shiftToProxyGap } from '../../src/audit/move-gap.js';
import { prepareAudit } from '../../src/audit/prepare-audit.js';
import { generateSyntheticPool } from '../../src/data/synthetic-pool.js';
import { InputError } from '../../src/util/errors.js';
import { createRandom } from '../../src/util/random.js';

const recipe = {
  size: 2000,
  groupShare: 0.4,
  labelRate: [0.45, 0.4],
  decisionRate: [0.4, 0.4],
  logitScale: 1,
  seed: 'move-gap',
};

describe('redecideToGap(pool, metric, targetGap, random, group, rounding)', () => {
  it('moves the SP gap to the target in whole rows of group b and keeps groups, labels and group a', () => {
    const pool = generateSyntheticPool(recipe);
    // group b has 800 rows; a gap of 0.1 needs 80 more positive decisions in b.
    const { pool: moved, changedRows } = redecideToGap(pool, 'sp', 0.1, createRandom('m'));
    expect(changedRows).toBe(80);
    expect(prepareAudit(moved, 'sp', 'decision').oracleSignedGap).toBeCloseTo(0.1, 12);
    expect(moved.group).toEqual(pool.group);
    expect(moved.label).toEqual(pool.label);
    for (let row = 0; row < pool.size; row++) {
      if (pool.group[row] === 0) expect(moved.decision[row]).toBe(pool.decision[row]);
      if (moved.decision[row] !== pool.decision[row]) {
        // a re-decided row's score and logit are mirrored, so decision = [score > 1/2] still holds
        expect(moved.score![row]).toBeCloseTo(1 - pool.score![row], 15);
        expect(moved.logit![row]).toBe(-pool.logit![row]);
        expect(moved.decision[row]).toBe(moved.score![row] > 0.5 ? 1 : 0);
      }
    }
  });

  it('for EO re-decides only label-1 rows, and a negative target takes decisions away', () => {
    const pool = generateSyntheticPool({ ...recipe, truePositiveRate: [0.7, 0.7] });
    const { pool: moved } = redecideToGap(pool, 'eo', -0.05, createRandom('eo'));
    for (let row = 0; row < pool.size; row++)
      if (pool.label[row] === 0) expect(moved.decision[row]).toBe(pool.decision[row]);
    const prepared = prepareAudit(moved, 'eo', 'decision');
    expect(Math.abs(prepared.oracleSignedGap + 0.05)).toBeLessThanOrEqual(0.5 / prepared.countB);
  });

  it(
    'rounding outward reaches |gap| >= |target| with the fewest rows, inward keeps |gap| <= |target| with the ' +
      'most, on either side and for either group',
    () => {
      const pool = generateSyntheticPool({ ...recipe, truePositiveRate: [0.7, 0.7] });
      // Gaps are ratios of counts: compared with a 1e-12 slack for the floating-point division.
      for (const target of [0.05, -0.05, 0.0333]) {
        for (const group of [0, 1] as const) {
          const gapOf = (rounding: 'outward' | 'inward' | 'nearest') =>
            prepareAudit(redecideToGap(pool, 'eo', target, createRandom('r'), group, rounding).pool, 'eo', 'decision');
          const outward = gapOf('outward');
          const inward = gapOf('inward');
          const step = 1 / (group === 1 ? outward.countB : outward.countA);
          expect(Math.abs(outward.oracleSignedGap)).toBeGreaterThanOrEqual(Math.abs(target) - 1e-12);
          expect(Math.abs(outward.oracleSignedGap) - Math.abs(target)).toBeLessThan(step);
          expect(Math.abs(inward.oracleSignedGap)).toBeLessThanOrEqual(Math.abs(target) + 1e-12);
          expect(Math.abs(target) - Math.abs(inward.oracleSignedGap)).toBeLessThan(step);
          expect(Math.sign(outward.oracleSignedGap)).toBe(Math.sign(target));
          // nearest is one of the two
          expect([outward.oracleSignedGap, inward.oracleSignedGap]).toContain(gapOf('nearest').oracleSignedGap);
        }
      }
    },
  );

  it('an exactly reachable target is reached exactly by every rounding (no floating-point row too many)', () => {
    const pool = generateSyntheticPool(recipe);
    for (const rounding of ['outward', 'inward', 'nearest'] as const) {
      expect(redecideToGap(pool, 'sp', 0.1, createRandom('m'), 1, rounding).changedRows).toBe(80);
    }
  });

  it('throws InputError naming the target when group b has too few rows to re-decide', () => {
    const pool = generateSyntheticPool(recipe);
    expect(() => redecideToGap(pool, 'sp', 0.7, createRandom('x'))).toThrow(InputError);
    expect(() => redecideToGap(pool, 'sp', 0.7, createRandom('x'))).toThrow(
      /redecideToGap: targetGap: expected a sp gap reachable .*found 0.7/,
    );
  });
});

describe('shiftToProxyGap(pool, metric, access, targetGap)', () => {
  it("moves the mean score gap exactly, keeps group b's residuals and leaves decisions alone", () => {
    const pool = generateSyntheticPool(recipe);
    const { pool: moved } = shiftToProxyGap(pool, 'sp', 'logit', 0.3);
    const prepared = prepareAudit(moved, 'sp', 'logit');
    expect(prepared.totalB / prepared.countB - prepared.totalA / prepared.countA).toBeCloseTo(0.3, 12);
    expect(moved.decision).toEqual(pool.decision);
    let firstShift: number | null = null;
    for (let row = 0; row < pool.size; row++) {
      const difference = moved.logit![row] - pool.logit![row];
      if (pool.group[row] === 0) expect(difference).toBe(0);
      else {
        firstShift ??= difference;
        expect(difference).toBeCloseTo(firstShift, 12);
      }
    }
  });

  it(
    'moves scores on the logit scale: the mean score gap hits the target, scores stay in [0, 1] in their order, ' +
      'decisions stay',
    () => {
      const pool = generateSyntheticPool(recipe);
      for (const target of [0.5, 0, -0.3]) {
        const { pool: moved } = shiftToProxyGap(pool, 'eo', 'score', target);
        const prepared = prepareAudit(moved, 'eo', 'score');
        expect(prepared.totalB / prepared.countB - prepared.totalA / prepared.countA).toBeCloseTo(target, 9);
        expect(moved.decision).toEqual(pool.decision);
        const rowsB = Array.from({ length: pool.size }, (_, row) => row).filter((row) => pool.group[row] === 1);
        for (const row of rowsB) expect(moved.score![row]).toBeGreaterThanOrEqual(0);
        for (const row of rowsB) expect(moved.score![row]).toBeLessThanOrEqual(1);
        // sigmoid(logit(s) + c) is increasing in s: group b keeps its order.
        const byOriginal = [...rowsB].sort((x, y) => pool.score![x] - pool.score![y]);
        for (let i = 1; i < byOriginal.length; i++)
          expect(moved.score![byOriginal[i]]).toBeGreaterThanOrEqual(moved.score![byOriginal[i - 1]]);
        for (let row = 0; row < pool.size; row++)
          if (pool.group[row] === 0) expect(moved.score![row]).toBe(pool.score![row]);
      }
    },
  );

  it(
    "a score of exactly 0 or 1 moves from the row's finite logit (a saturated model), and stays put without a " +
      'logit column',
    () => {
      const base = generateSyntheticPool(recipe);
      // Saturate every score of group b: 1 or 0 by its decision, its logit clipped to ±logit(1 - 1e-6).
      const score = Float64Array.from(base.score!);
      const logit = Float64Array.from(base.logit!);
      for (let row = 0; row < base.size; row++) {
        if (base.group[row] !== 1) continue;
        score[row] = base.decision[row];
        logit[row] = (base.decision[row] === 1 ? 1 : -1) * Math.log((1 - 1e-6) / 1e-6);
      }
      const saturated = { ...base, score, logit };
      const target = 0.2; // beyond what fixed 0s and 1s allow: b's mean is pinned at its decision rate, 0.4
      const { pool: moved } = shiftToProxyGap(saturated, 'sp', 'score', target);
      const prepared = prepareAudit(moved, 'sp', 'score');
      expect(prepared.totalB / prepared.countB - prepared.totalA / prepared.countA).toBeCloseTo(target, 9);
      expect(moved.decision).toEqual(base.decision);
      expect(() => shiftToProxyGap({ ...saturated, logit: null }, 'sp', 'score', target)).toThrow(
        /without a finite logit stay put/,
      );
    },
  );

  it('throws InputError naming the reachable range when no shift reaches the score gap', () => {
    const pool = generateSyntheticPool(recipe);
    expect(() => shiftToProxyGap(pool, 'sp', 'score', 0.99)).toThrow(
      /shiftToProxyGap: targetGap: expected a score gap within \[-?[0-9.]+, [0-9.]+\]/,
    );
  });
});

describe('nullProjection(group, value, gap)', () => {
  it("puts the mean gap at the target and keeps group a and group b's residuals", () => {
    const group = Uint8Array.from([0, 0, 0, 1, 1]);
    const value = Float64Array.from([0.1, 0.2, 0.6, 0.5, 0.9]);
    const projected = nullProjection(group, value, -0.05);
    // mean a = 0.3, mean b = 0.7: b moves by -0.05 - 0.4 = -0.45
    expect(Array.from(projected.slice(0, 3))).toEqual([0.1, 0.2, 0.6]);
    expect(projected[3]).toBeCloseTo(0.05, 15);
    expect(projected[4]).toBeCloseTo(0.45, 15);
  });
});
