import type { AccessRegime } from '../../audit/access-regime.js';
import { toleranceOfAccess } from '../../audit/audit-settings.js';

const DECISIONS = new Set(['reject', 'accept', 'inconclusive']);

/**
 * operatingCharacteristicRowProblem(settings, columns, row): why an operating-characteristic
 * result row cannot be what its cell computes, or null. It re-derives what a row
 * determines: a decision among reject/accept/inconclusive, queries from 0 to the budget
 * (an inconclusive audit stopped before it only when the pool ran out, so it made at
 * least one query); `truth` the side of |true_gap| against the tolerance of the cell's
 * access regime (boundary within 1e-9, the kind's own margin); true_gap the decision gap
 * under decision access and the proxy gap otherwise, with proxy_gap NaN exactly under
 * decision access; gaps of rates within [-1, 1] and changed_rows a count. O(1).
 * @param settings the cell's validated settings
 * @param columns the outcome columns of a batch or chunk
 * @param row the row's index in them
 * @returns the problem in words, or null
 * @example operatingCharacteristicRowProblem(cell.settings, decoded.columns, 0) // null for a row as run wrote it
 */
export function operatingCharacteristicRowProblem(
  settings: Readonly<Record<string, unknown>>,
  columns: Readonly<Record<string, ArrayLike<number | string>>>,
  row: number,
): string | null {
  const value = (name: string) => (columns[name] as ArrayLike<unknown> | undefined)?.[row];
  const decision = value('decision') as string;
  if (!DECISIONS.has(decision)) return `decision ${decision}: expected reject, accept or inconclusive`;
  const queries = value('queries') as number;
  if (typeof settings.budget === 'number' && !(Number.isInteger(queries) && queries >= 0 && queries <= settings.budget))
    return `queries ${queries}: expected 0 to the budget ${settings.budget}`;
  const changed = value('changed_rows') as number;
  if (!(Number.isInteger(changed) && changed >= 0)) return `changed_rows ${changed}: expected a count, at least 0`;
  const decisionGap = value('decision_gap') as number;
  if (!(Math.abs(decisionGap) <= 1)) return `decision_gap ${decisionGap}: expected a difference of rates, in [-1, 1]`;
  const access = settings.access as AccessRegime;
  const trueGap = value('true_gap') as number;
  const proxyGap = value('proxy_gap') as number;
  if (access === 'decision') {
    if (!Number.isNaN(proxyGap)) return `proxy_gap ${proxyGap}: expected NaN under decision access`;
    if (!Object.is(trueGap, decisionGap))
      return `true_gap ${trueGap}: expected the decision gap ${decisionGap} under decision access`;
  } else {
    if (!Object.is(trueGap, proxyGap))
      return `true_gap ${trueGap}: expected the proxy gap ${proxyGap} under ${access} access`;
    if (access === 'score' && !(Math.abs(proxyGap) <= 1))
      return `proxy_gap ${proxyGap}: expected a difference of mean scores, in [-1, 1]`;
  }
  const tolerance = toleranceOfAccess(settings as Parameters<typeof toleranceOfAccess>[0], access);
  if (typeof tolerance !== 'number') return null;
  const margin = 1e-9 * Math.max(1, tolerance);
  const excess = Math.abs(trueGap) - tolerance;
  const truth = value('truth');
  const expected =
    excess < -margin ? 'compliant' : excess > margin ? 'violating' : truth === 'boundary' ? 'boundary' : null;
  if (expected === null && truth !== 'compliant' && truth !== 'violating')
    return `truth ${truth}: expected compliant, violating or boundary`;
  if (expected !== null && truth !== expected)
    return `truth ${truth} with true_gap ${trueGap}: expected ${expected} against tolerance ${tolerance}`;
  return null;
}
