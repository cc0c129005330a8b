import { describe, expect, it } from 'vitest';
import { toSparseRows } from '../../../src/models/mlp/sparse-rows.js';
import { mlpLogits, trainMlp } from '../../../src/models/mlp/train-mlp.js';
import { demographicParityMoments, groupCounts } from '../../../src/models/reduction/demographic-parity-moments.js';
import { exponentiatedGradient } from '../../../src/models/reduction/exponentiated-gradient.js';
import { syntheticTabularData } from '../../../src/models/synthetic-tabular.js';
import { createRandom } from '../../../src/util/random.js';

const data = syntheticTabularData(
  { rows: 3000, numericColumns: 4, categoricalLevels: [4, 3], groupEffect: 1.5 },
  createRandom('eg-data'),
);
const input = toSparseRows(data.features, data.rows, data.columns);
const settings = { hiddenLayers: [8], dropoutRate: 0, learningRate: 1e-2, epochs: 3, batchSize: 32 };

function fit(label: Uint8Array, weight: Float64Array, iteration: number) {
  const { network } = trainMlp(input, label, weight, settings, createRandom(`best-response-${iteration}`));
  const logits = mlpLogits(network, input);
  return { model: network, trainingDecisions: Uint8Array.from(logits, (z) => (z >= 0 ? 1 : 0)) };
}

function parityGap(decisions: ArrayLike<number>): number {
  const moments = demographicParityMoments(decisions, data.group, groupCounts(data.group));
  return Math.abs(moments[2] - moments[0]);
}

describe('exponentiatedGradient(label, group, settings, fitBestResponse)', () => {
  it('lowers the demographic-parity gap of the mixture below that of the unconstrained classifier', () => {
    const result = exponentiatedGradient(data.label, data.group, { differenceBound: 0.02, maxIterations: 8 }, fit);
    expect(result.models).toHaveLength(8);
    // The first best response answers lambda with equal +/- multipliers: plain classification.
    const unconstrained = result.trace[0];
    const baseGap = Math.abs(unconstrained.moments[0] - unconstrained.moments[2]);
    const mixtureGap = parityGap(result.trainingProbability);
    expect(baseGap).toBeGreaterThan(0.15);
    expect(mixtureGap).toBeLessThan(0.7 * baseGap);
    // The multiplier on "group 1 above average" grows while that constraint is violated.
    expect(result.trace[7].multipliers[2]).toBeGreaterThan(result.trace[0].multipliers[2]);
  });

  it("with mixture 'linear-program' meets the tolerance on the training rows better than the average", () => {
    const settings = { differenceBound: 0.02, maxIterations: 8 };
    const average = exponentiatedGradient(data.label, data.group, settings, fit);
    const program = exponentiatedGradient(data.label, data.group, { ...settings, mixture: 'linear-program' }, fit);
    expect(program.weights.reduce((sum, w) => sum + w, 0)).toBeCloseTo(1, 12);
    expect(parityGap(program.trainingProbability)).toBeLessThan(parityGap(average.trainingProbability));
    // gamma_(1,+) = (n_0 / n) * gap, so a feasible mixture has gap <= 0.02 / (n_0 / n) (about 0.034).
    expect(parityGap(program.trainingProbability)).toBeLessThan(0.04);
  });

  it('is deterministic given the best-response seeds', () => {
    const first = exponentiatedGradient(data.label, data.group, { differenceBound: 0.05, maxIterations: 2 }, fit);
    const second = exponentiatedGradient(data.label, data.group, { differenceBound: 0.05, maxIterations: 2 }, fit);
    expect(Array.from(second.trainingProbability)).toEqual(Array.from(first.trainingProbability));
  });

  it(
    'takes the multiplier bound B apart from the constraint bound (Fairlearn: B = 1/eps, difference_bound ' + '0.01)',
    () => {
      // Algorithm 1 starts at theta = 0: lambda_1,k = B exp(0) / (1 + 4 exp(0)) = B / 5 for each of the 4 constraints.
      const fairlearn = exponentiatedGradient(
        data.label,
        data.group,
        { differenceBound: 0.01, multiplierBound: 50, maxIterations: 2 },
        fit,
      );
      expect(fairlearn.trace[0].multipliers).toEqual([10, 10, 10, 10]);
      // Without it, B = 1 / differenceBound = 100.
      const agarwal = exponentiatedGradient(data.label, data.group, { differenceBound: 0.01, maxIterations: 1 }, fit);
      expect(agarwal.trace[0].multipliers).toEqual([20, 20, 20, 20]);
    },
  );

  it(
    'throws InputError for a differenceBound outside (0, 1), a multiplierBound that is not positive, or no ' +
      'iterations',
    () => {
      expect(() =>
        exponentiatedGradient(data.label, data.group, { differenceBound: 0, maxIterations: 2 }, fit),
      ).toThrow(/differenceBound: expected a number in \(0, 1\), found 0/);
      expect(() =>
        exponentiatedGradient(
          data.label,
          data.group,
          { differenceBound: 0.01, multiplierBound: 0, maxIterations: 2 },
          fit,
        ),
      ).toThrow(/multiplierBound: expected a positive number, found 0/);
      expect(() =>
        exponentiatedGradient(data.label, data.group, { differenceBound: 0.1, maxIterations: 0 }, fit),
      ).toThrow(/maxIterations: expected an integer >= 1, found 0/);
    },
  );
});
