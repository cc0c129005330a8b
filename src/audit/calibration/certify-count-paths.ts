import type { Random } from '../../util/random.js';
import { restoreOrder, shufflePosition } from '../partial-shuffle.js';
import type { PreparedAudit } from '../prepare-audit.js';
import type { ShuffledQueryOrder } from '../query-order.js';
import { balancedOrderOf } from '../run-test-audit.js';
import type { LazyBernoulliGlr } from './lazy-bernoulli-glr.js';

/** Decisions of a batch of simulated audits, and their query counts. Adds up across chunks. */
export interface OutcomeCounts {
  paths: number;
  reject: number;
  accept: number;
  inconclusive: number;
  /** Sum of the queries of all paths. */
  queries: number;
}

/** How the certification audits run: the GLR test's settings. */
export interface CertificationSettings {
  readonly tolerance: number;
  readonly budget: number;
  readonly minimumPerGroup: number;
  readonly order: ShuffledQueryOrder;
  readonly upper: number;
  readonly lower: number;
}

/**
 * certifyCountPaths(prepared, glr, settings, random, paths, into) runs `paths` audits of a
 * decision-access pool with the GLR test at the given thresholds and no exhaustion rule,
 * exactly as runTestAudit with GlrThresholdTest does (the same query order from the same
 * draws of `random`: the partial shuffle of prepared.order, or the pool's BalancedOrder;
 * reject once the statistic is >= upper, accept once <= lower, once both groups have
 * minimumPerGroup observations; inconclusive after min(budget, pool size) queries), and
 * adds the decisions to `into`. The statistic is evaluated only at queries where it may
 * reach a threshold (LazyBernoulliGlr.mayReach), so the decisions and query counts are
 * those of evaluating it at every query. O(paths x queries) counter updates. Kernel: no
 * validation (glr built with a capacity >= min(budget, pool size)).
 */
export function certifyCountPaths(
  prepared: PreparedAudit,
  glr: LazyBernoulliGlr,
  settings: CertificationSettings,
  random: Random,
  paths: number,
  into: OutcomeCounts,
): void {
  const { tolerance, minimumPerGroup, upper, lower } = settings;
  const cap = Math.min(settings.budget, prepared.size);
  const { group, value, order, swaps } = prepared;
  const balanced = settings.order === 'balanced' ? balancedOrderOf(prepared) : null;
  for (let path = 0; path < paths; path++) {
    glr.reset(tolerance);
    let seenA = 0;
    let seenB = 0;
    let queries = 0;
    let decision: 'reject' | 'accept' | 'inconclusive' = 'inconclusive';
    try {
      while (queries < cap) {
        const row = balanced !== null ? balanced.next(random) : shufflePosition(order, swaps, queries, random);
        queries++;
        const g = group[row];
        if (g === 0) seenA++;
        else seenB++;
        glr.add(g, value[row]);
        if (seenA >= minimumPerGroup && seenB >= minimumPerGroup && glr.ready && glr.mayReach(upper, lower)) {
          const statistic = glr.evaluate();
          if (statistic >= upper) {
            decision = 'reject';
            break;
          }
          if (statistic <= lower) {
            decision = 'accept';
            break;
          }
        }
      }
    } finally {
      if (balanced !== null) balanced.restore();
      else restoreOrder(order, swaps, queries);
    }
    into.paths++;
    into[decision]++;
    into.queries += queries;
  }
}
