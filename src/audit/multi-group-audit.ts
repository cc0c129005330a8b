import { ACCEPT, REJECT, type SequentialTest } from '../stats/sequential-test.js';
import { inputError } from '../util/errors.js';
import type { Random } from '../util/random.js';
import { type GroupMetric, type GroupRate, rowCountsOf } from './metric.js';
import { restoreOrder, shufflePosition } from './partial-shuffle.js';
import { type AuditPool, groupCountOf } from './pool.js';
import type { SequentialDecision } from './sequential-audit.js';

/** A K-group pool's rows for one rate, flat: each row's group and observed value, and scratch for the order. */
export interface MultiGroupRows {
  /** The rate's rows, or eodds: every row, coded label · K + group (equalizedOddsRows). */
  readonly rate: GroupMetric;
  /** Rows of the rate's denominator in each code (index = group code, or label · K + group for eodds). */
  readonly groupSizes: readonly number[];
  readonly group: Uint8Array;
  readonly value: Float64Array;
  readonly order: Int32Array;
  readonly swaps: Int32Array;
}

/**
 * multiGroupRows(pool, rate, observed) selects the rows of the rate's denominator (sp:
 * all; eo: label 1; pe: label 0) with their groups and observed values (the decision, or
 * a score column), and allocates the scratch of the query order. Throws InputError naming
 * the pool when a group has no such row (its rate is undefined, so no test can judge it).
 * O(rows).
 * @param pool a pool of any number of groups
 * @param rate which rows
 * @param observed what the auditor sees of each row (pool.decision, or pool.score)
 * @returns the flat rows
 * @example multiGroupRows(pool, 'eo', pool.decision).groupSizes // label-1 rows per group
 */
export function multiGroupRows(pool: AuditPool, rate: GroupRate, observed: ArrayLike<number>): MultiGroupRows {
  const groups = groupCountOf(pool);
  const groupSizes = new Array<number>(groups).fill(0);
  let size = 0;
  for (let row = 0; row < pool.size; row++) {
    if (!rowCountsOf(rate, pool.label[row])) continue;
    groupSizes[pool.group[row]]++;
    size++;
  }
  const empty = groupSizes.indexOf(0);
  if (empty >= 0) {
    const rows = rate === 'sp' ? 'rows' : rate === 'eo' ? 'rows with label = 1' : 'rows with label = 0';
    throw inputError({
      where: `${pool.source}: metric ${rate}`,
      expected: `${rows} in every group (or exclude small groups: --min-group-size)`,
      found: `none in group "${pool.groupNames?.[empty] ?? empty}"`,
    });
  }
  const group = new Uint8Array(size);
  const value = new Float64Array(size);
  let k = 0;
  for (let row = 0; row < pool.size; row++) {
    if (!rowCountsOf(rate, pool.label[row])) continue;
    group[k] = pool.group[row];
    value[k] = observed[row];
    k++;
  }
  return { rate, groupSizes, group, value, order: Int32Array.from(group, (_, i) => i), swaps: new Int32Array(size) };
}

/** What one K-group sequential audit found. */
export interface MultiGroupAuditResult {
  readonly decision: SequentialDecision;
  /** Queries until the test stopped, or min(budget, rows) (inconclusive). */
  readonly queries: number;
}

/**
 * runMultiGroupAudit(rows, test, budget, random) runs one sequential audit over K groups:
 * it queries rows in a uniformly random order without replacement (a partial
 * Fisher-Yates shuffle driven by `random`), folds each row's group and value into the
 * test, and stops at its verdict or after min(budget, rows) queries. The test is reset
 * first and the scratch order restored, so the result depends only on the rows, the test
 * and the generator's stream. O(queries) plus the test's cost. Kernel: no validation.
 * @param rows the pool's rows for the rate (multiGroupRows)
 * @param test a K-group SequentialTest (add(group 0..K-1, value))
 * @param budget the most queries
 * @param random the seeded generator of the order
 * @returns the decision and the queries it took
 * @example runMultiGroupAudit(rows, test, 4000, createRandom(deriveSeed('audit', 0)))
 */
export function runMultiGroupAudit(
  rows: MultiGroupRows,
  test: SequentialTest,
  budget: number,
  random: Random,
): MultiGroupAuditResult {
  test.reset();
  const cap = Math.min(budget, rows.group.length);
  let decision: SequentialDecision = 'inconclusive';
  let queries = 0;
  while (queries < cap) {
    const row = shufflePosition(rows.order, rows.swaps, queries, random);
    queries++;
    test.add(rows.group[row], rows.value[row]);
    if (test.verdict === REJECT) {
      decision = 'reject';
      break;
    }
    if (test.verdict === ACCEPT) {
      decision = 'accept';
      break;
    }
  }
  restoreOrder(rows.order, rows.swaps, queries);
  return { decision, queries };
}
