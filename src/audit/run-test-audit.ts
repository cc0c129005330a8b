import type { FixedSampleDecision } from '../stats/fixed-sample-decision.js';
import { REJECT, type SequentialTest } from '../stats/sequential-test.js';
import type { Random } from '../util/random.js';
import { BalancedOrder } from './balanced-order.js';
import { restoreScratch, shufflePosition } from './partial-shuffle.js';
import type { PreparedAudit } from './prepare-audit.js';
import type { QueryOrder } from './query-order.js';
import {
  addQueried,
  continueRandomOrder,
  fixedSampleOf,
  type QueriedSums,
  type SequentialDecision,
} from './sequential-audit.js';

/** What one audit with a SequentialTest found. */
export interface TestAuditResult {
  readonly decision: SequentialDecision;
  /** Queries until the test stopped, or min(budget, pool size). */
  readonly queries: number;
}

/** A TestAuditResult with the fixed-sample decision on the first min(budget, pool size) rows of the same order. */
export interface TestAuditWithFixedSample extends TestAuditResult {
  readonly fixedDecision: FixedSampleDecision;
  readonly fixedSamples: number;
  readonly fixedGap: number;
}

/** Per-pool BalancedOrder scratch (each worker thread has its own module instance). */
const balancedOrders = new WeakMap<PreparedAudit, BalancedOrder>();

/** balancedOrderOf(prepared) is the pool's BalancedOrder scratch, built on first use. O(pool size) once. */
export function balancedOrderOf(prepared: PreparedAudit): BalancedOrder {
  let order = balancedOrders.get(prepared);
  if (order === undefined) {
    order = new BalancedOrder(prepared.group);
    balancedOrders.set(prepared, order);
  }
  return order;
}

/**
 * runTestAudit(prepared, test, budget, order, random) runs one sequential audit of the
 * prepared pool with any SequentialTest: it queries rows in the given order, folds each
 * observed value into the test, and stops at the test's verdict or after min(budget, pool
 * size) queries (inconclusive). The test is reset first. The scratch orders are restored,
 * so the result depends only on the pool, the test, the settings and the generator's
 * stream. O(queries) plus the test's own cost. Kernel: the caller validates (budget an
 * integer >= 1; random non-null unless order is 'given').
 */
export function runTestAudit(
  prepared: PreparedAudit,
  test: SequentialTest,
  budget: number,
  order: QueryOrder,
  random: Random | null,
): TestAuditResult {
  return auditWithTest(prepared, test, budget, order, random, null);
}

/**
 * runTestAuditWithFixedSample(prepared, test, budget, order, random, tolerance) is
 * runTestAudit plus the fixed-sample decision against `tolerance` on the first
 * min(budget, pool size) rows of the same order (the order is continued past the stop:
 * fixedSampleOf, exact on counts for hard decisions), as runSequentialAudit reports it
 * for paper A's test. O(min(budget, pool size)) plus the test's cost.
 */
export function runTestAuditWithFixedSample(
  prepared: PreparedAudit,
  test: SequentialTest,
  budget: number,
  order: QueryOrder,
  random: Random | null,
  tolerance: number,
): TestAuditWithFixedSample {
  return auditWithTest(prepared, test, budget, order, random, tolerance) as TestAuditWithFixedSample;
}

function verdictOf(test: SequentialTest): SequentialDecision {
  const verdict = test.verdict;
  return verdict === 0 ? 'inconclusive' : verdict === REJECT ? 'reject' : 'accept';
}

/** The audit loop of both: `tolerance` null skips the fixed-sample decision (and its sums). */
function auditWithTest(
  prepared: PreparedAudit,
  test: SequentialTest,
  budget: number,
  order: QueryOrder,
  random: Random | null,
  tolerance: number | null,
): TestAuditResult | TestAuditWithFixedSample {
  const cap = Math.min(budget, prepared.size);
  const { group, value } = prepared;
  const sums: QueriedSums = { countA: 0, sumA: 0, countB: 0, sumB: 0 };
  const fixed = tolerance !== null;
  test.reset();
  let queries = 0;
  let decision: SequentialDecision;
  if (order === 'balanced') {
    const sequence = balancedOrderOf(prepared);
    try {
      while (queries < cap) {
        const row = sequence.next(random!);
        queries++;
        test.add(group[row], value[row]);
        if (fixed) addQueried(sums, group[row], value[row]);
        if (test.verdict !== 0) break;
      }
      decision = verdictOf(test);
      if (fixed && cap !== prepared.size) {
        for (let position = queries; position < cap; position++) {
          const row = sequence.next(random!);
          addQueried(sums, group[row], value[row]);
        }
      }
    } finally {
      sequence.restore();
    }
  } else {
    const shuffle = order === 'random';
    const scratch = prepared.order;
    const swaps = prepared.swaps;
    let shuffled = 0;
    try {
      while (queries < cap) {
        const row = shuffle ? shufflePosition(scratch, swaps, queries, random!) : queries;
        queries++;
        shuffled = queries;
        test.add(group[row], value[row]);
        if (fixed) addQueried(sums, group[row], value[row]);
        if (test.verdict !== 0) break;
      }
      decision = verdictOf(test);
      if (fixed && cap !== prepared.size) shuffled = continueRandomOrder(prepared, sums, queries, cap, shuffle, random);
    } finally {
      // Also when the test throws (a logit outside its declared bounds): the scratch stays usable.
      if (shuffle) restoreScratch(scratch, prepared.identity, swaps, shuffled);
    }
  }
  if (!fixed) return { decision, queries };
  return { decision, queries, ...fixedSampleOf(prepared, sums, cap, tolerance), fixedSamples: cap };
}
