import { describe, expect, it } from 'vitest';
import { createEqualizedOddsTest, createMultiGroupTest } from '../../../src/audit/create-multi-group-test.js';
import { BernoulliGlrStream } from '../../../src/stats/bernoulli-glr-stream.js';
import { GlrThresholdTest } from '../../../src/stats/glr-threshold-test.js';
import { EqualizedOddsTest } from '../../../src/stats/multi-group/equalized-odds-test.js';
import { multiGroupBernoulliGlrKernel } from '../../../src/stats/multi-group/multi-group-bernoulli-glr.js';
import { MultiGroupBettingTest } from '../../../src/stats/multi-group/multi-group-betting-test.js';
import { multiGroupGaussianGlrKernel } from '../../../src/stats/multi-group/multi-group-gaussian-glr.js';
import { MultiGroupGlrStream } from '../../../src/stats/multi-group/multi-group-glr-stream.js';
import { MultiGroupGlrTest } from '../../../src/stats/multi-group/multi-group-glr-test.js';
import { ACCEPT, CONTINUE, REJECT, type SequentialTest } from '../../../src/stats/sequential-test.js';
import { waldThresholds } from '../../../src/stats/thresholds.js';
import { TwoSampleBettingTest } from '../../../src/stats/two-sample-betting-test.js';
import { InputError } from '../../../src/util/errors.js';
import { createRandom, type Random, shuffleInPlace } from '../../../src/util/random.js';

/** A 0/1 pool with `positives[g]` ones among `sizes[g]` rows of group g, in a seeded random order. */
function shuffledPool(sizes: number[], positives: number[], random: Random): Array<[number, number]> {
  const rows: Array<[number, number]> = [];
  sizes.forEach((size, g) => {
    for (let r = 0; r < size; r++) rows.push([g, r < positives[g] ? 1 : 0]);
  });
  return shuffleInPlace(random, rows);
}

/** Runs a test over the rows until it decides; returns [verdict, queries]. */
function run(test: SequentialTest, rows: Array<[number, number]>): [number, number] {
  test.reset();
  for (let t = 0; t < rows.length; t++) {
    test.add(rows[t][0], rows[t][1]);
    if (test.verdict !== CONTINUE) return [test.verdict, t + 1];
  }
  return [CONTINUE, rows.length];
}

describe('MultiGroupGlrStream(K, likelihood, scale, shift).add(group, value)', () => {
  it(
    'keeps the statistic equal to the batch kernel after every add (Bernoulli and Gaussian, difference and ' + 'ratio)',
    () => {
      const random = createRandom('multi-group stream');
      for (const likelihood of ['bernoulli', 'gaussian'] as const) {
        for (const [scale, shift] of [
          [1, 0.05],
          [1 / 0.8, 0],
        ]) {
          const k = 4;
          const stream = new MultiGroupGlrStream(k, likelihood, scale, shift);
          const counts = new Float64Array(k);
          const sums = new Float64Array(k);
          const values: number[][] = [[], [], [], []];
          let worst = 0;
          for (let t = 0; t < 3000; t++) {
            const g = Math.floor(random() * k);
            const base = 0.3 + 0.05 * g;
            const value = likelihood === 'bernoulli' ? (random() < base ? 1 : 0) : base + 0.2 * (random() - 0.5);
            stream.add(g, value);
            counts[g]++;
            sums[g] += value;
            values[g].push(value);
            if (!stream.ready || t % 37 !== 0) continue;
            let expected: number;
            if (likelihood === 'bernoulli') expected = multiGroupBernoulliGlrKernel(counts, sums, k, scale, shift);
            else {
              const means = counts.map((n, h) => sums[h] / n);
              let residual = 0;
              values.forEach((group, h) => {
                for (const v of group) residual += (v - means[h]) ** 2;
              });
              expected = multiGroupGaussianGlrKernel(counts, means, residual, k, scale, shift);
            }
            worst = Math.max(worst, Math.abs(stream.statistic - expected) / Math.max(1, Math.abs(expected)));
          }
          expect(worst).toBeLessThan(1e-9);
        }
      }
    },
  );
});

describe('MultiGroupGlrTest(stream, upper, lower, 1, null, tolerance) at K = 2', () => {
  it("stops when and as paper A's two-group GlrThresholdTest does, on 200 seeded audits", () => {
    const random = createRandom('multi-group wald two groups');
    const { upper, lower } = waldThresholds(0.05, 0.2);
    const two = new GlrThresholdTest(new BernoulliGlrStream(), 0.05, upper, lower, 1);
    const many = new MultiGroupGlrTest(new MultiGroupGlrStream(2, 'bernoulli', 1, 0.05), upper, lower, 1, null, 0.05);
    for (let audit = 0; audit < 200; audit++) {
      const rows = shuffledPool([600, 400], [240, audit % 2 === 0 ? 160 : 140], random);
      expect(run(many, rows)).toEqual(run(two, rows));
    }
  });
  it('decides a pool read to its end exactly with the exhaustion rule (gap of exactly δ is compliant)', () => {
    const stream = new MultiGroupGlrStream(3, 'bernoulli', 1, 0.05);
    const test = new MultiGroupGlrTest(stream, 1e9, -1e9, 1, { groupSizes: [20, 20, 20], values: 'counts' }, 0.05);
    const random = createRandom('exhaustion');
    expect(run(test, shuffledPool([20, 20, 20], [7, 8, 8], random))[0]).toBe(ACCEPT);
    expect(run(test, shuffledPool([20, 20, 20], [7, 9, 8], random))[0]).toBe(REJECT);
  });
});

describe('MultiGroupBettingTest(settings)', () => {
  it('at K = 2 decides exactly as TwoSampleBettingTest, on 100 seeded audits', () => {
    const random = createRandom('multi-group betting two groups');
    const settings = { tolerance: 0.05, alpha: 0.05, beta: 0.2, units: 'proportional' as const, integerValues: true };
    const two = new TwoSampleBettingTest({ ...settings, countA: 600, countB: 400 });
    const many = new MultiGroupBettingTest({ ...settings, groupSizes: [600, 400] });
    for (let audit = 0; audit < 100; audit++) {
      const rows = shuffledPool([600, 400], [240, [160, 100, 200][audit % 3]], random);
      expect(run(many, rows)).toEqual(run(two, rows));
    }
  });
  it('rejects a clear K = 4 violation and accepts a pool with equal rates read far enough', () => {
    const random = createRandom('multi-group betting power');
    const test = new MultiGroupBettingTest({
      groupSizes: [3000, 2000, 1000, 500],
      tolerance: 0.05,
      alpha: 0.05,
      beta: 0.2,
      units: 'proportional',
      integerValues: true,
    });
    expect(run(test, shuffledPool([3000, 2000, 1000, 500], [1200, 800, 400, 100], random))[0]).toBe(REJECT);
    expect(run(test, shuffledPool([3000, 2000, 1000, 500], [1200, 800, 400, 200], random))[0]).toBe(ACCEPT);
  });
  it('rejects a compliant K = 3 configuration (rates at the window ends) in at most alpha + 3 SE of 300 audits', () => {
    const random = createRandom('multi-group betting level');
    const sizes = [1000, 600, 40];
    const test = new MultiGroupBettingTest({
      groupSizes: sizes,
      tolerance: 0.1,
      alpha: 0.05,
      beta: 0.2,
      units: 'proportional',
      integerValues: true,
    });
    let rejections = 0;
    for (let audit = 0; audit < 300; audit++)
      if (run(test, shuffledPool(sizes, [450, 330, 22], random))[0] === REJECT) rejections++;
    expect(rejections / 300).toBeLessThanOrEqual(0.05 + 3 * Math.sqrt((0.05 * 0.95) / 300));
  });
});

/** A test whose verdict is set by hand. */
class ScriptedTest implements SequentialTest {
  verdict = CONTINUE;
  readonly seen: Array<[number, number]> = [];
  next = CONTINUE;
  reset(): void {
    this.verdict = CONTINUE;
  }
  add(group: number, value: number): void {
    this.seen.push([group, value]);
    this.verdict = this.next;
  }
}

describe('EqualizedOddsTest(falsePositiveTest, truePositiveTest, K)', () => {
  it('routes label * K + group to the right test, rejects when either rejects, accepts once both accepted', () => {
    const fpr = new ScriptedTest();
    const tpr = new ScriptedTest();
    const test = new EqualizedOddsTest(fpr, tpr, 3);
    test.add(2, 1);
    test.add(3 + 1, 0);
    expect(fpr.seen).toEqual([[2, 1]]);
    expect(tpr.seen).toEqual([[1, 0]]);
    fpr.next = ACCEPT;
    test.add(0, 0);
    expect(test.verdict).toBe(CONTINUE);
    fpr.next = CONTINUE;
    test.add(0, 0);
    tpr.next = ACCEPT;
    test.add(3, 1);
    expect(test.verdict).toBe(ACCEPT);
    test.reset();
    tpr.next = REJECT;
    test.add(5, 1);
    expect(test.verdict).toBe(REJECT);
  });
});

describe('createMultiGroupTest(options)', () => {
  const options = {
    groupSizes: [600, 300, 100],
    test: 'betting' as const,
    access: 'decision' as const,
    aggregation: 'difference' as const,
    tolerance: 0.05,
    alpha: 0.05,
    beta: 0.2,
  };
  it('builds each test with its guarantee in words', () => {
    expect(createMultiGroupTest(options).guarantee).toMatch(/any stopping time/);
    expect(createMultiGroupTest({ ...options, test: 'wald-glr' }).guarantee).toMatch(/no error guarantee/);
    const calibrated = createMultiGroupTest({
      ...options,
      test: 'calibrated-glr',
      thresholds: { upper: 5, lower: -3 },
    });
    expect(calibrated.test).toBeInstanceOf(MultiGroupGlrTest);
    expect(createEqualizedOddsTest(options, { ...options, groupSizes: [300, 200, 50] }).test).toBeInstanceOf(
      EqualizedOddsTest,
    );
  });
  it('throws InputError naming the key for bad options', () => {
    expect(() => createMultiGroupTest({ ...options, groupSizes: [600] })).toThrow(/groupSizes/);
    expect(() => createMultiGroupTest({ ...options, groupSizes: [600, 0] })).toThrow(/groupSizes\[1\]/);
    expect(() => createMultiGroupTest({ ...options, aggregation: 'ratio', tolerance: 0.8 })).toThrow(/betting/);
    expect(() => createMultiGroupTest({ ...options, test: 'calibrated-glr' })).toThrow(/thresholds/);
    expect(() => createMultiGroupTest({ ...options, test: 'wald-glr', tolerance: 1.5 })).toThrow(InputError);
    expect(() => createMultiGroupTest({ ...options, alpha: 0 })).toThrow(/alpha/);
  });
});
