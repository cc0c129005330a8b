import { describe, expect, it } from 'vitest';
import {
  costSensitiveProblem,
  demographicParityMoments,
  groupCounts,
} from '../../../src/models/reduction/demographic-parity-moments.js';
import { createRandom } from '../../../src/util/random.js';

describe('demographicParityMoments(decisions, group, counts)', () => {
  it('gives +-(E[h | A = a] - E[h]) for each group', () => {
    const group = Uint8Array.from([0, 0, 0, 1, 1]);
    const decisions = Uint8Array.from([1, 0, 0, 1, 1]);
    // E[h] = 3/5, E[h | 0] = 1/3, E[h | 1] = 1.
    const moments = demographicParityMoments(decisions, group, groupCounts(group));
    expect(Array.from(moments)).toEqual(
      [1 / 3 - 3 / 5, 3 / 5 - 1 / 3, 1 - 3 / 5, 3 / 5 - 1].map((v) => expect.closeTo(v, 12)),
    );
  });
});

describe('costSensitiveProblem(label, group, counts, multipliers)', () => {
  it('with zero multipliers is plain classification: reduced label = label, every weight 1', () => {
    const label = Uint8Array.from([1, 0, 1, 1, 0, 0]);
    const group = Uint8Array.from([0, 0, 1, 1, 1, 0]);
    const problem = costSensitiveProblem(label, group, groupCounts(group), new Float64Array(4));
    expect(Array.from(problem.label)).toEqual(Array.from(label));
    for (const w of problem.weight) expect(w).toBeCloseTo(1, 12);
  });

  it('makes the weighted error differ from the Lagrangian by a constant for every classifier', () => {
    // Agarwal et al. 2018, section 3.1: the best response to lambda minimises
    // err(h) + sum_k lambda_k gamma_k(h), which must equal c * weighted error + const.
    const random = createRandom('lagrangian');
    const n = 9;
    const label = new Uint8Array(n);
    const group = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      label[i] = random() < 0.5 ? 1 : 0;
      group[i] = i < 4 ? 1 : 0;
    }
    const counts = groupCounts(group);
    const multipliers = Float64Array.from([3, 0.5, 0.2, 7]);
    const problem = costSensitiveProblem(label, group, counts, multipliers);
    const totalCost = problem.weight.reduce((sum, w) => sum + w, 0);
    const differences: number[] = [];
    for (let mask = 0; mask < 1 << n; mask += 37) {
      const h = new Uint8Array(n);
      for (let i = 0; i < n; i++) h[i] = (mask >> i) & 1;
      let error = 0;
      let weightedError = 0;
      for (let i = 0; i < n; i++) {
        if (h[i] !== label[i]) error += 1 / n;
        if (h[i] !== problem.label[i]) weightedError += problem.weight[i];
      }
      const moments = demographicParityMoments(h, group, counts);
      let lagrangian = error;
      for (let k = 0; k < 4; k++) lagrangian += multipliers[k] * moments[k];
      // Weights were rescaled to mean 1: undo it to compare in the Lagrangian's units.
      differences.push(
        lagrangian - weightedError * (sumOfAbsoluteCosts(label, group, counts, multipliers) / totalCost),
      );
    }
    for (const difference of differences) expect(difference).toBeCloseTo(differences[0], 10);
  });
});

/** The sum of |c_i| before rescaling, recomputed from the definition in the doc comment. */
function sumOfAbsoluteCosts(
  label: Uint8Array,
  group: Uint8Array,
  counts: ReturnType<typeof groupCounts>,
  multipliers: Float64Array,
): number {
  const n = label.length;
  const d = [multipliers[0] - multipliers[1], multipliers[2] - multipliers[3]];
  let total = 0;
  for (let i = 0; i < n; i++) {
    total += Math.abs((1 - 2 * label[i]) / n + d[group[i]] / counts.perGroup[group[i]] - (d[0] + d[1]) / n);
  }
  return total;
}
