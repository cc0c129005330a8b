import { createRandom } from '../util/random.js';
import { bestEffortManipulation, bestManipulationKernel } from './adversary.js';
import { type ObliviousAuditSetup, passRate, prepareObliviousAudit } from './oblivious-audit-simulation.js';
import { eligibleCounts } from './respir-manipulation-plan.js';

/** The result of the bisection over the flip count. */
export interface MinimalPassingFlips {
  /** Fewest flips on C whose estimated pass rate reaches 1 − δ; −1 when even the lowest reachable gap does not. */
  flips: number;
  /** Estimated pass rate at that count (at the largest count tried when unreachable). */
  passRate: number;
  /** The best effort's flips, |d_C| to zero within half the finest flip step (the bisection's upper end). */
  maximumUsefulFlips: number;
  /** Flip counts whose pass rate was estimated. */
  steps: number;
}

/**
 * minimalPassingFlips(setup, passProbability, drawsPerStep, seed) estimates the fewest
 * flips on C with which the provider passes the respir audit with probability at
 * least 1 − δ: for a flip count m the provider uses the m flips that bring |d_C|
 * lowest (bestManipulation), the pass rate is estimated from drawsPerStep audit-set
 * draws (the same draws for every m: common random numbers from `seed`), and m is
 * found by bisection between 0 and the best effort's flips (bestEffortManipulation; the pass
 * rate grows with m as |d_C| shrinks). `setup.manipulation` is ignored. O(log(m) ×
 * drawsPerStep × strata × sd).
 */
export function minimalPassingFlips(
  setup: Omit<ObliviousAuditSetup, 'manipulation'>,
  passProbability: number,
  drawsPerStep: number,
  seed: string,
): MinimalPassingFlips {
  const counts = eligibleCounts(setup.population);
  let steps = 0;
  const rateAt = (flips: number): number => {
    steps++;
    const manipulation = bestManipulationKernel(counts, flips);
    return passRate(prepareObliviousAudit({ ...setup, manipulation }), drawsPerStep, createRandom(seed));
  };
  const maximumUsefulFlips = bestEffortManipulation(counts).flips;
  const atZero = rateAt(0);
  if (atZero >= passProbability) return { flips: 0, passRate: atZero, maximumUsefulFlips, steps };
  const atMaximum = rateAt(maximumUsefulFlips);
  if (atMaximum < passProbability) return { flips: -1, passRate: atMaximum, maximumUsefulFlips, steps };
  let failing = 0;
  let passing = maximumUsefulFlips;
  let passingRate = atMaximum;
  while (passing - failing > 1) {
    const middle = Math.floor((failing + passing) / 2);
    const rate = rateAt(middle);
    if (rate >= passProbability) {
      passing = middle;
      passingRate = rate;
    } else {
      failing = middle;
    }
  }
  return { flips: passing, passRate: passingRate, maximumUsefulFlips, steps };
}
