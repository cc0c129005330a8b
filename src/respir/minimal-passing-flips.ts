import { createRandom } from '../util/random.js';
import { bestEffortManipulation, type Manipulation } from './adversary.js';
import type { CandidatePopulation } from './candidate-population.js';
import { type ExactMinimalFlips, exactMinimalFlipsWithEvaluator } from './exact-minimal-flips.js';
import { createPassProbabilityEvaluator, type PassProbabilityEvaluator } from './exact-pass-probability.js';
import { type ObliviousAuditSetup, passRate, prepareObliviousAudit } from './oblivious-audit-simulation.js';
import { eligibleCounts } from './respir-manipulation-plan.js';
import { strongestManipulation } from './strongest-manipulation.js';

/** The result of the bisection over the flip count. */
export interface MinimalPassingFlips {
  /** Fewest flips on C whose estimated pass rate reaches 1 − δ; −1 when no manipulation can reach it. */
  flips: number;
  /** Estimated pass rate at that count (at the largest count tried when unreachable). */
  passRate: number;
  /** The bisection's upper end: the exact minimum's upper bound, or the best effort's flips when larger. */
  maximumUsefulFlips: number;
  /** Flip counts whose pass rate was estimated. */
  steps: number;
}

/** What a cell's bisections share: the exact evaluator, the exact minimum and the strongest manipulation per flip
 * count. */
interface CellMemo {
  evaluator: PassProbabilityEvaluator;
  exact: ExactMinimalFlips;
  strongest: Map<number, Manipulation>;
}

// Per candidate set (the kind prepares one per cell and reuses it for every replicate),
// then per audit and target. Deterministic values only: no randomness is kept here.
const memos = new WeakMap<CandidatePopulation, Map<string, CellMemo>>();

function cellMemo(setup: Omit<ObliviousAuditSetup, 'manipulation'>, passProbability: number): CellMemo {
  let byAudit = memos.get(setup.population);
  if (byAudit === undefined) {
    byAudit = new Map();
    memos.set(setup.population, byAudit);
  }
  const key = JSON.stringify([setup.auditSetSize, setup.design, setup.tolerance, passProbability]);
  let memo = byAudit.get(key);
  if (memo === undefined) {
    const evaluator = createPassProbabilityEvaluator({
      population: setup.population,
      auditSetSize: setup.auditSetSize,
      design: setup.design,
      tolerance: setup.tolerance,
    });
    const counts = setup.population.eligiblePositives;
    const exact = exactMinimalFlipsWithEvaluator(evaluator, [counts[0], counts[1]], passProbability);
    memo = { evaluator, exact, strongest: new Map() };
    byAudit.set(key, memo);
  }
  return memo;
}

/**
 * minimalPassingFlips(setup, passProbability, drawsPerStep, seed) estimates by Monte
 * Carlo the fewest flips on C with which the provider passes the respir audit with
 * probability at least 1 − δ: for a flip count m the provider uses the strongest
 * manipulation with m flips (strongestManipulation: the exact pass probability is
 * maximised over every split between groups and directions, ties spread evenly), the
 * pass rate is estimated from drawsPerStep audit-set draws — the same draws for every m:
 * common random numbers from `seed`, each draw using a fixed count of uniforms whatever
 * the strata (hypergeometricKernel) — and m is found by bisection between 0 and the
 * exact minimum's upper bound (exactMinimalFlips; the best effort's flips when larger).
 * It is the simulation check of exactMinimalFlips. `setup.manipulation` is ignored.
 * O(log(m) × (drawsPerStep × strata × sd + m evaluations)), the exact parts computed
 * once per cell and reused.
 * @param setup the simulated audit without a manipulation
 * @param passProbability 1 − δ
 * @param drawsPerStep simulated audits per flip count tried
 * @param seed the seed of the simulation
 * @returns the fewest flips whose simulated pass rate reaches 1 − δ
 * @example
 * const found = minimalPassingFlips(setup, 0.8, 2000, 'flips');
 */
export function minimalPassingFlips(
  setup: Omit<ObliviousAuditSetup, 'manipulation'>,
  passProbability: number,
  drawsPerStep: number,
  seed: string,
): MinimalPassingFlips {
  const counts = eligibleCounts(setup.population);
  const memo = cellMemo(setup, passProbability);
  let steps = 0;
  const manipulationAt = (flips: number): Manipulation => {
    let manipulation = memo.strongest.get(flips);
    if (manipulation === undefined) {
      manipulation = strongestManipulation(memo.evaluator, [counts.positives[0], counts.positives[1]], flips);
      memo.strongest.set(flips, manipulation);
    }
    return manipulation;
  };
  const rateAt = (flips: number): number => {
    steps++;
    return passRate(
      prepareObliviousAudit({ ...setup, manipulation: manipulationAt(flips) }),
      drawsPerStep,
      createRandom(seed),
    );
  };
  const bestEffort = bestEffortManipulation(counts).flips;
  const maximumUsefulFlips = Math.max(bestEffort, memo.exact.upperBound ?? 0);
  const atZero = rateAt(0);
  if (atZero >= passProbability) return { flips: 0, passRate: atZero, maximumUsefulFlips, steps };
  if (!memo.exact.reachable) return { flips: -1, passRate: atZero, maximumUsefulFlips, steps };
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
