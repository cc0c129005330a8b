import { BernoulliGlrStream } from '../../stats/bernoulli-glr-stream.js';
import { type ExhaustionRule, GlrThresholdTest } from '../../stats/glr-threshold-test.js';
import { GuardedGaussianGlrStream } from '../../stats/guarded-gaussian-glr-stream.js';
import type { SequentialThresholds } from '../../stats/thresholds.js';
import { createRandom } from '../../util/random.js';
import { BalancedOrder } from '../balanced-order.js';
import type { OutcomeCounts } from './certify-count-paths.js';
import {
  CoupledQueries,
  decideCoupledPair,
  decideCoupledPath,
  type PairRow,
  pairRow,
  recordCoupledPair,
  recordCoupledPath,
} from './coupled-count-paths.js';
import { LazyBernoulliGlr } from './lazy-bernoulli-glr.js';

export type { OutcomeCounts } from './certify-count-paths.js';

import type { AuditPool } from '../pool.js';
import { type PreparedAudit, prepareAudit } from '../prepare-audit.js';
import { runTestAudit } from '../run-test-audit.js';
import {
  type CalibrationCell,
  type CalibrationChunk,
  type CalibrationPlan,
  chunkCellCount,
} from './calibration-plan.js';
import { countPool } from './count-pool.js';
import { nullProjection } from './null-projection.js';
import {
  type CountCell,
  emptyPathCounts,
  FULL_WINDOW,
  PathExtremes,
  type PathSettings,
  type RowPool,
  recordRowPaths,
  type ThresholdPathCounts,
  type TuningWindow,
} from './threshold-paths.js';

/** Per-plan scratch built on first use in this thread: the projected pools (price cells after the plan's cells). */
const rowPools = new WeakMap<CalibrationPlan, Array<{ rows: RowPool; balanced: BalancedOrder | null }>>();
const preparedPools = new WeakMap<CalibrationPlan, PreparedAudit[]>();

/** The cells a chunk simulates, with their indices in the per-plan scratch (price cells follow the plan's cells). */
function chunkCells(plan: CalibrationPlan, chunk: CalibrationChunk): Array<{ cell: CalibrationCell; slot: number }> {
  const cells: Array<{ cell: CalibrationCell; slot: number }> = [];
  for (let index = chunk.cell; index < chunk.cell + chunkCellCount(chunk); index++) {
    cells.push(
      chunk.price === true
        ? { cell: plan.priceCells[index], slot: plan.cells.length + index }
        : { cell: plan.cells[index], slot: index },
    );
  }
  return cells;
}

function pathSettings(plan: CalibrationPlan): PathSettings {
  const { tolerance, budget, minimumPerGroup, order } = plan.setting;
  return { tolerance, budget, minimumPerGroup, order };
}

/** The projected values of a score / logit cell. */
function projectedValues(plan: CalibrationPlan, cell: CalibrationCell): Float64Array {
  const { group, value } = plan.setting;
  return nullProjection(group!, value!, cell.gap);
}

function rowPoolOf(
  plan: CalibrationPlan,
  cell: CalibrationCell,
  slot: number,
): { rows: RowPool; balanced: BalancedOrder | null } {
  let pools = rowPools.get(plan);
  if (pools === undefined) {
    pools = [];
    rowPools.set(plan, pools);
  }
  let entry = pools[slot];
  if (entry === undefined) {
    const group = plan.setting.group!;
    const order = new Int32Array(group.length);
    for (let i = 0; i < order.length; i++) order[i] = i;
    entry = {
      rows: { group, value: projectedValues(plan, cell), order, swaps: new Int32Array(group.length) },
      balanced: plan.setting.order === 'balanced' ? new BalancedOrder(group) : null,
    };
    pools[slot] = entry;
  }
  return entry;
}

function preparedOf(plan: CalibrationPlan, description: CalibrationCell, slot: number): PreparedAudit {
  let pools = preparedPools.get(plan);
  if (pools === undefined) {
    pools = [];
    preparedPools.set(plan, pools);
  }
  let prepared = pools[slot];
  if (prepared === undefined) {
    const access = plan.setting.access;
    let pool: AuditPool;
    if (description.counts !== null) pool = countPool(description.counts, `calibration ${description.key}`);
    else {
      const group = plan.setting.group!;
      const values = projectedValues(plan, description);
      pool = {
        size: group.length,
        group,
        label: new Uint8Array(group.length).fill(1),
        decision: new Uint8Array(group.length),
        score: access === 'score' ? values : null,
        logit: access === 'logit' ? values : null,
        id: null,
        source: `calibration ${description.key}`,
      };
    }
    prepared = prepareAudit(pool, 'sp', access);
    pools[slot] = prepared;
  }
  return prepared;
}

/**
 * runTuningChunk(plan, chunk) simulates chunk.paths audits of each of the chunk's cells
 * (chunkCellCount of them from chunk.cell) with the chunk's own generator and returns, per
 * cell, what they say about every threshold pair of the grid (ThresholdPathCounts;
 * null-side histograms for compliant cells, alternative-side for violating ones, both on
 * the boundary), exact inside `window` (default the whole grid). Decision-access cells
 * read one shared query sequence per path (CoupledQueries: each cell's paths have their
 * exact law, one draw serves every cell). Pure in its inputs (the same chunk gives the
 * same counts on any thread), so chunks can be spread over worker threads and merged with
 * mergePathCounts. O(cells x chunk.paths x min(budget, pool size)) GLR updates at most.
 */
export function runTuningChunk(
  plan: CalibrationPlan,
  chunk: CalibrationChunk,
  window: TuningWindow = FULL_WINDOW,
): ThresholdPathCounts[] {
  const cells = chunkCells(plan, chunk);
  const random = createRandom(chunk.seed);
  const records = cells.map(({ cell }) => {
    const recordNull = cell.role !== 'alternative';
    const recordAlternative = cell.role !== 'null';
    return {
      counts: emptyPathCounts(plan.grid, recordNull, recordAlternative),
      extremes: new PathExtremes(plan.grid, recordNull, recordAlternative, window),
    };
  });
  const first = cells[0].cell;
  if (first.counts !== null) {
    const { countA, countB } = first.counts;
    const cap = Math.min(plan.setting.budget, countA + countB);
    const glr = new LazyBernoulliGlr(cap);
    const queries = new CoupledQueries(countA, countB, cap, plan.setting.order);
    const settings = pathSettings(plan);
    // Cells that differ by one positive are walked as a pair (recordCoupledPair): the same records, less walking.
    const spare = new LazyBernoulliGlr(cap);
    const walks = coupledWalks(cells.map(({ cell }) => cell.counts as CountCell));
    for (let path = 0; path < chunk.paths; path++) {
      queries.start(random);
      for (const { index, pair, row } of walks) {
        const cell = cells[index].cell.counts as CountCell;
        const { counts, extremes } = records[index];
        if (row === null) recordCoupledPath(cell, queries, glr, settings, extremes, counts);
        else {
          const other = records[pair];
          const otherCell = cells[pair].cell.counts as CountCell;
          recordCoupledPair(
            cell,
            otherCell,
            row,
            queries,
            glr,
            spare,
            settings,
            extremes,
            other.extremes,
            counts,
            other.counts,
          );
        }
      }
    }
  } else {
    cells.forEach(({ cell, slot }, index) => {
      const { rows, balanced } = rowPoolOf(plan, cell, slot);
      const { counts, extremes } = records[index];
      recordRowPaths(
        rows,
        new GuardedGaussianGlrStream(),
        pathSettings(plan),
        balanced,
        extremes,
        random,
        chunk.paths,
        counts,
      );
    });
  }
  return records.map((record) => record.counts);
}

/**
 * runCertificationChunk(plan, thresholds, chunk) runs chunk.paths complete audits of each
 * of the chunk's cells with the GLR test at the given thresholds and counts the decisions,
 * per cell: decision-access certification cells along shared query sequences
 * (CoupledQueries, decideCoupledPath: the audits of runTestAudit on each cell's count pool
 * in law, with the GLR evaluated only where it may decide), otherwise through the audit
 * loop of a real audit (runTestAudit on a prepared pool with those counts or values).
 * Pure in its inputs. O(cells x chunk.paths x queries).
 */
export function runCertificationChunk(
  plan: CalibrationPlan,
  thresholds: SequentialThresholds,
  chunk: CalibrationChunk,
): OutcomeCounts[] {
  const cells = chunkCells(plan, chunk);
  const { tolerance, budget, minimumPerGroup, order } = plan.setting;
  const random = createRandom(chunk.seed);
  const first = cells[0].cell;
  if (first.counts !== null) {
    // Decision-access cells: shared query sequences, the GLR evaluated only where it may decide. The price is what
    // real audits cost, so its audits decide the known gap at exhaustion as real ones do; certification counts
    // threshold crossings only (an exhaustion decision is never an error on an exact cell).
    const outcomes = cells.map(() => emptyOutcome());
    const { countA, countB } = first.counts;
    const cap = Math.min(budget, countA + countB);
    const glr = new LazyBernoulliGlr(cap);
    const queries = new CoupledQueries(countA, countB, cap, order);
    const certification = {
      tolerance,
      budget,
      minimumPerGroup,
      order,
      upper: thresholds.upper,
      lower: thresholds.lower,
    };
    // Cells that differ by one positive are walked as a pair (decideCoupledPair): the same outcomes, less walking.
    const spare = new LazyBernoulliGlr(cap);
    const walks = coupledWalks(cells.map(({ cell }) => cell.counts as CountCell));
    const exhaustion = chunk.price === true;
    for (let path = 0; path < chunk.paths; path++) {
      queries.start(random);
      for (const { index, pair, row } of walks) {
        const cell = cells[index].cell.counts as CountCell;
        if (row === null) decideCoupledPath(cell, queries, glr, certification, outcomes[index], exhaustion);
        else {
          const other = cells[pair].cell.counts as CountCell;
          const [into, intoOther] = [outcomes[index], outcomes[pair]];
          decideCoupledPair(cell, other, row, queries, glr, spare, certification, into, intoOther, exhaustion);
        }
      }
    }
    return outcomes;
  }
  return cells.map(({ cell, slot }) => {
    const prepared = preparedOf(plan, cell, slot);
    const stream = prepared.family === 'bernoulli' ? new BernoulliGlrStream() : new GuardedGaussianGlrStream();
    // The price is what real audits cost, so its audits decide the known gap at exhaustion as real ones do;
    // certification counts threshold crossings only (an exhaustion decision is never an error on an exact cell).
    const exhaustion: ExhaustionRule | null =
      chunk.price === true
        ? {
            countA: prepared.countA,
            countB: prepared.countB,
            values: prepared.family === 'bernoulli' ? 'counts' : 'means',
          }
        : null;
    const test = new GlrThresholdTest(
      stream,
      tolerance,
      thresholds.upper,
      thresholds.lower,
      minimumPerGroup,
      exhaustion,
    );
    const outcome = emptyOutcome();
    for (let path = 0; path < chunk.paths; path++) {
      const result = runTestAudit(prepared, test, budget, order, random);
      outcome.paths++;
      outcome[result.decision]++;
      outcome.queries += result.queries;
    }
    return outcome;
  });
}

/**
 * coupledWalks(cells) pairs neighbouring cells where the second is the first plus one
 * positive (pairRow), as a calibration's compliant and violating cells at one base rate are:
 * each entry walks cells[index], and cells[pair] with it when row is not null.
 */
function coupledWalks(cells: readonly CountCell[]): Array<{ index: number; pair: number; row: PairRow | null }> {
  const walks: Array<{ index: number; pair: number; row: PairRow | null }> = [];
  for (let index = 0; index < cells.length; index++) {
    const row = index + 1 < cells.length ? pairRow(cells[index], cells[index + 1]) : null;
    walks.push({ index, pair: row === null ? -1 : index + 1, row });
    if (row !== null) index++;
  }
  return walks;
}

function emptyOutcome(): OutcomeCounts {
  return { paths: 0, reject: 0, accept: 0, inconclusive: 0, queries: 0 };
}

/** mergeOutcomeCounts(into, from) adds from's counts to into's. */
export function mergeOutcomeCounts(into: OutcomeCounts, from: OutcomeCounts): void {
  into.paths += from.paths;
  into.reject += from.reject;
  into.accept += from.accept;
  into.inconclusive += from.inconclusive;
  into.queries += from.queries;
}
