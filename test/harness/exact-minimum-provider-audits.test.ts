import { describe, expect, test } from 'vitest';
import {
  countedPool,
  EXACT_MINIMUM_WORKLOAD,
  exactMinimumDrawRate,
  exactMinimumWorkloadSetting,
  exactMinimumManipulation,
  measureExactMinimumProvider,
  observedRate,
} from '../../src/harness/exact-minimum-provider-audits.js';
import { createPassProbabilityEvaluator } from '../../src/respir/exact-pass-probability.js';
import { createRandom } from '../../src/util/random.js';

const setting = exactMinimumWorkloadSetting(30, 10);
const { pool } = setting;

describe('exactMinimumWorkloadSetting(audits, canaryCount)', () => {
  test('is the measured workload: groups of 1,200 and 800 with 420 and 400 positives, |S| = 500', () => {
    const sizes = [0, 0];
    const positives = [0, 0];
    for (let row = 0; row < pool.group.length; row++) {
      sizes[pool.group[row]]++;
      positives[pool.group[row]] += pool.decision[row];
    }
    expect([sizes, positives]).toEqual([[...EXACT_MINIMUM_WORKLOAD.groupSizes], [...EXACT_MINIMUM_WORKLOAD.positives]]);
    expect(setting).toMatchObject({ auditSetSize: 500, canaryCount: 10, audits: 30, design: 'uniform' });
    expect(pool).toEqual(countedPool([1200, 800], [420, 400], 'exact-minimum-provider'));
  });
});

describe('observedRate(successes, trials, predicted, confidence)', () => {
  // References: scipy.stats.beta.ppf(0.005, s, n - s + 1) and beta.ppf(0.995, s + 1, n - s),
  // the two-sided 99% Clopper-Pearson interval (SciPy 1.x).
  test.each([
    [164, 200, 0.7401372827594692, 0.8841053592389464],
    [24, 30, 0.5572444284919889, 0.9455204445614752],
    [0, 30, 0, 0.16189390280673965],
    [30, 30, 0.8381060971932603, 1],
  ])('observedRate(%i, %i) has the 99%% interval [%f, %f]', (successes, trials, lower, upper) => {
    const rate = observedRate(successes, trials, 0.5, 0.99);
    expect(rate.interval[0]).toBeCloseTo(lower, 9);
    expect(rate.interval[1]).toBeCloseTo(upper, 9);
    expect(rate.rate).toBe(successes / trials);
  });

  test('observedRate says whether the prediction lies in the interval', () => {
    expect(observedRate(164, 200, 0.808, 0.99).predictedInInterval).toBe(true);
    expect(observedRate(164, 200, 0.9, 0.99).predictedInInterval).toBe(false);
    expect(observedRate(164, 200, 0.7, 0.99).predictedInInterval).toBe(false);
  });
});

describe('exactMinimumManipulation(setting)', () => {
  test('flips exactly the certified minimum, and one flip fewer on either group falls short of 1 − δ', () => {
    const { minimum, decisions, flippedRows } = exactMinimumManipulation(setting);
    expect(minimum.exact).toBe(true);
    expect(flippedRows).toBe(minimum.flips);
    expect(Math.abs(minimum.changes[0]) + Math.abs(minimum.changes[1])).toBe(minimum.flips);
    const positives = [0, 0];
    for (let i = 0; i < pool.size; i++) positives[pool.group[i]] += decisions[i];
    expect(positives).toEqual(minimum.positives);
    expect(minimum.passProbability.lower).toBeGreaterThanOrEqual(0.8);
    // The same evaluator as exactMinimalFlips: the served counts pass, one flip less does not.
    const evaluator = createPassProbabilityEvaluator({
      population: { groupSizes: [1200, 800], eligibleSizes: [1200, 800], eligiblePositives: [420, 400] },
      auditSetSize: 500,
      design: 'uniform',
      tolerance: 0.05,
    });
    const [served0, served1] = minimum.positives;
    expect(evaluator.outcomes(served0, served1).pass.lower).toBeGreaterThanOrEqual(0.8);
    const step = (change: number) => (change < 0 ? 1 : change > 0 ? -1 : 0);
    const fewer = evaluator.outcomes(served0 + step(minimum.changes[0]), served1 + step(minimum.changes[1]));
    expect(fewer.pass.upper).toBeLessThan(0.8);
  });
});

describe('measureExactMinimumProvider(setting)', () => {
  test('audit sets drawn as the audits draw them pass at the computed probability (seeded, replayable)', () => {
    const draws = 4000;
    const rate = exactMinimumDrawRate({ ...setting, random: createRandom('exact-minimum-draws') }, draws);
    expect(rate.trials).toBe(draws);
    // An independent sum over the hypergeometric laws (Python, exact binomials) gives 0.80178054706.
    expect(rate.predicted).toBeCloseTo(0.8017805, 6);
    expect(rate.predictedInInterval).toBe(true);
    // The same seed replays the same sets, hence the same count.
    const again = exactMinimumDrawRate({ ...setting, random: createRandom('exact-minimum-draws') }, draws);
    expect(again.successes).toBe(rate.successes);
  });

  test('30 real VOPRF audits pass at the computed probability; canaries catch the cheat at Eq. 3 rate', async () => {
    // S and the canaries from a seeded generator, so the test cannot fail by chance; the measurement script draws
    // them from node:crypto, as `pir audit` does.
    const measurement = await measureExactMinimumProvider({ ...setting, random: createRandom('exact-minimum-test') });
    expect(measurement.flips).toBe(exactMinimumManipulation(setting).minimum.flips);
    expect(measurement.pass.trials).toBe(30);
    expect(measurement.passSeriesRejected).toBe(0);
    expect(measurement.detectionSeriesOtherRejections).toBe(0);
    // Each check fails by chance with probability ≤ 1%: the 99% intervals.
    expect(measurement.pass.predictedInInterval).toBe(true);
    expect(measurement.detection.predictedInInterval).toBe(true);
    // Eq. 3 with q = 1 over N = 2000, k = 10 (paper B §4.3).
    expect(measurement.detection.predicted).toBeCloseTo(1 - (1 - measurement.flips / 2000) ** 10, 12);
  }, 120_000);
});
