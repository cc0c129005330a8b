import { describe, expect, it } from 'vitest';
import { equivalenceTest } from '../../../src/stats/two-sample/equivalence-test.js';
import { holmAdjustment } from '../../../src/stats/two-sample/holm-adjustment.js';
import { mcnemarExactTest } from '../../../src/stats/two-sample/mcnemar-exact-test.js';
import { normalQuantile, normalUpperTail } from '../../../src/stats/two-sample/normal-distribution.js';
import { pairedTTest } from '../../../src/stats/two-sample/paired-t-test.js';
import { studentTQuantile, studentTUpperTail } from '../../../src/stats/two-sample/student-t-distribution.js';
import { twoProportionScoreTest } from '../../../src/stats/two-sample/two-proportion-score-test.js';
import { differenceInterval } from '../../../src/stats/two-sample/two-sample-difference.js';
import { sampleMoments, welchTest } from '../../../src/stats/two-sample/welch-test.js';

// Reference values: SciPy 1.17.1 under python3, the commands quoted beside each.
describe('normalUpperTail(z), normalQuantile(p)', () => {
  it('matches scipy.stats.norm.sf and norm.ppf', () => {
    expect(normalUpperTail(1.959963984540054)).toBeCloseTo(0.025, 14); // norm.sf(1.959963984540054)
    expect(normalUpperTail(-1.3)).toBeCloseTo(0.9031995154143897, 13); // norm.sf(-1.3)
    expect(normalUpperTail(0.3)).toBeCloseTo(0.3820885778110474, 13); // norm.sf(0.3)
    expect(normalUpperTail(2.7)).toBeCloseTo(0.0034669738030406647, 14); // norm.sf(2.7)
    expect(normalUpperTail(8.5) / 9.47953482220325e-18).toBeCloseTo(1, 10); // norm.sf(8.5)
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 12); // norm.ppf(0.975)
    expect(normalQuantile(1e-6)).toBeCloseTo(-4.753424308822899, 10); // norm.ppf(1e-6)
    expect(normalUpperTail(Number.NaN)).toBeNaN();
  });
});

describe('studentTUpperTail(t, df), studentTQuantile(p, df)', () => {
  it('matches scipy.stats.t.sf and t.ppf, fractional degrees of freedom included', () => {
    expect(studentTUpperTail(2.0, 10)).toBeCloseTo(0.03669401738537018, 13); // t.sf(2.0, 10)
    expect(studentTUpperTail(-1.5, 3.7)).toBeCloseTo(0.8932009153989933, 13); // t.sf(-1.5, 3.7)
    expect(studentTQuantile(0.975, 10)).toBeCloseTo(2.228138851986274, 10); // t.ppf(0.975, 10)
    expect(studentTQuantile(0.995, 4.5)).toBeCloseTo(4.272823993011293, 9); // t.ppf(0.995, 4.5)
    expect(studentTUpperTail(1.3, Number.POSITIVE_INFINITY)).toBeCloseTo(normalUpperTail(1.3), 15);
  });
});

describe('twoProportionScoreTest(baseSuccesses, baseTrials, headSuccesses, headTrials)', () => {
  it('equals the chi-square test without continuity correction', () => {
    // chi2_contingency([[45, 55], [60, 40]], correction=False)[1]
    expect(twoProportionScoreTest(45, 100, 60, 100).pValue).toBeCloseTo(0.033672068856345896, 13);
    // chi2_contingency([[3, 997], [12, 988]], correction=False)[1]
    const rare = twoProportionScoreTest(3, 1000, 12, 1000);
    expect(rare.pValue).toBeCloseTo(0.019671589469643973, 13);
    expect(rare.difference).toBeCloseTo(0.009, 15);
    expect(rare.standardError).toBeCloseTo(Math.sqrt((0.003 * 0.997 + 0.012 * 0.988) / 1000), 15);
  });
  it('gives p = 1 for all-zero and all-one counts in both samples', () => {
    expect(twoProportionScoreTest(0, 50, 0, 80).pValue).toBe(1);
    expect(twoProportionScoreTest(50, 50, 80, 80).pValue).toBe(1);
    expect(twoProportionScoreTest(0, 50, 80, 80).pValue).toBeLessThan(1e-20);
  });
});

describe('welchTest(base, head), sampleMoments(values)', () => {
  it('matches scipy.stats.ttest_ind(head, base, equal_var=False)', () => {
    const base = sampleMoments([1, 2, 3, 4, 5]);
    const head = sampleMoments([2, 4, 5, 6, 7, 6]);
    expect(base).toEqual({ count: 5, mean: 3, variance: 2.5 });
    expect(head.variance).toBeCloseTo(3.2, 14); // numpy.var([2,4,5,6,7,6], ddof=1)
    const result = welchTest(base, head);
    expect(result.difference).toBeCloseTo(2, 14);
    expect(result.pValue).toBeCloseTo(0.08087034740198816, 12);
  });
  it('sampleMoments skips NaN; samples without spread give p = 1 or 0', () => {
    expect(sampleMoments([Number.NaN, 4])).toEqual({ count: 1, mean: 4, variance: 0 });
    expect(sampleMoments([]).mean).toBeNaN();
    const flat = { count: 10, mean: 3, variance: 0 };
    expect(welchTest(flat, flat).pValue).toBe(1);
    expect(welchTest(flat, { ...flat, mean: 4 }).pValue).toBe(0);
  });
});

describe('pairedTTest(differences)', () => {
  it('matches scipy.stats.ttest_rel([2,3,3,5,6], [1,1,3,4,3])', () => {
    const head = [2, 3, 3, 5, 6];
    const base = [1, 1, 3, 4, 3];
    const result = pairedTTest(head.map((value, i) => value - base[i]));
    expect(result.pValue).toBeCloseTo(0.05160595781117475, 12);
    expect(result.degreesOfFreedom).toBe(4);
  });
  it('gives p = 1 for all-zero differences, 0 for a constant shift', () => {
    expect(pairedTTest([0, 0, 0]).pValue).toBe(1);
    expect(pairedTTest([2, 2, 2]).pValue).toBe(0);
  });
});

describe('mcnemarExactTest(baseOnly, headOnly, pairs)', () => {
  it('matches scipy.stats.binomtest(headOnly, baseOnly + headOnly, 0.5).pvalue', () => {
    expect(mcnemarExactTest(3, 12, 100).pValue).toBeCloseTo(0.03515625, 14); // binomtest(12, 15, 0.5)
    expect(mcnemarExactTest(30, 40, 500).pValue).toBeCloseTo(0.281978921793656, 12); // binomtest(40, 70, 0.5)
    expect(mcnemarExactTest(3, 12, 100).difference).toBeCloseTo(0.09, 15);
  });
  it('gives p = 1 without discordant pairs, and when they split evenly', () => {
    expect(mcnemarExactTest(0, 0, 100).pValue).toBe(1);
    expect(mcnemarExactTest(5, 5, 100).pValue).toBe(1);
  });
});

describe('holmAdjustment(pValues)', () => {
  it('steps down (Holm 1979), keeps the input order and NaN', () => {
    // By hand: sorted 0.01, 0.03, 0.04 -> 3·0.01, max(0.03, 2·0.03), max(0.06, 1·0.04).
    const adjusted = holmAdjustment([0.01, 0.04, 0.03]);
    expect(adjusted[0]).toBeCloseTo(0.03, 15);
    expect(adjusted[1]).toBeCloseTo(0.06, 15);
    expect(adjusted[2]).toBeCloseTo(0.06, 15);
    expect(holmAdjustment([0.5, Number.NaN, 0.9])).toEqual([1, Number.NaN, 1]);
    expect(holmAdjustment([])).toEqual([]);
  });
});

describe('equivalenceTest(result, margin), differenceInterval(result, confidence)', () => {
  const base = { test: 'x', pValue: 1 };
  it('is the larger of the two one-sided p-values (TOST)', () => {
    // max(norm.sf((0.01 + 0.05)/0.01), norm.sf((0.05 - 0.01)/0.01))
    const normal = { ...base, difference: 0.01, standardError: 0.01, degreesOfFreedom: Number.POSITIVE_INFINITY };
    expect(equivalenceTest(normal, 0.05)).toBeCloseTo(3.167124183311986e-5, 16);
    // max(t.sf((0.02 + 0.05)/0.03, 12), t.sf((0.05 - 0.02)/0.03, 12))
    expect(equivalenceTest({ ...base, difference: 0.02, standardError: 0.03, degreesOfFreedom: 12 }, 0.05)).toBeCloseTo(
      0.16852452897679218,
      12,
    );
    expect(equivalenceTest({ ...normal, standardError: 0 }, 0.05)).toBe(0);
    expect(equivalenceTest({ ...normal, difference: 0.2, standardError: 0 }, 0.05)).toBe(1);
  });
  it('differenceInterval is difference ± the t or normal quantile times the standard error', () => {
    const [low, high] = differenceInterval(
      { ...base, difference: 1, standardError: 0.5, degreesOfFreedom: Number.POSITIVE_INFINITY },
      0.95,
    );
    expect(low).toBeCloseTo(1 - 0.5 * 1.959963984540054, 12);
    expect(high).toBeCloseTo(1 + 0.5 * 1.959963984540054, 12);
  });
});

describe('bootstrapRatio(base, head, confidence, resamples, random)', () => {
  it('gives the geometric mean of the round ratios and a percentile interval around it', async () => {
    const { bootstrapRatio } = await import('../../../src/stats/two-sample/bootstrap-ratio.js');
    const { createRandom } = await import('../../../src/util/random.js');
    const base = [10, 12, 11, 10, 13, 12];
    const head = [8, 9.5, 8.9, 8.1, 10.3, 9.7];
    const result = bootstrapRatio(base, head, 0.95, 2000, createRandom('test'));
    // By hand: exp(mean(log(head / base))).
    const expected = Math.exp(base.reduce((sum, b, i) => sum + Math.log(head[i] / b), 0) / base.length);
    expect(result.ratio).toBeCloseTo(expected, 14);
    expect(result.low).toBeLessThan(result.ratio);
    expect(result.high).toBeGreaterThan(result.ratio);
    // Every round's ratio lies in [0.79, 0.81]: so does every resample's geometric mean.
    expect(result.low).toBeGreaterThanOrEqual(0.79);
    expect(result.high).toBeLessThanOrEqual(0.81);
    expect(bootstrapRatio([5, 5], [5, 5], 0.9, 100, createRandom('x'))).toEqual({
      ratio: 1,
      low: 1,
      high: 1,
      rounds: 2,
    });
  });
});
