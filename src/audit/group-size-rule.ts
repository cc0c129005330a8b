import { inputError } from '../util/errors.js';
import type { AuditPool, ExcludedGroup } from './pool.js';

/** A minimum-size rule for groups: fewer rows than minGroupSize, or a smaller share than minGroupShare, excludes. */
export interface GroupSizeRule {
  readonly minGroupSize?: number;
  readonly minGroupShare?: number;
}

/** The rule in words, for the output ("groups with fewer than 30 rows or under 2% of the 4000 rows are excluded"). */
function ruleText(rule: GroupSizeRule, rows: number): string {
  const parts: string[] = [];
  if (rule.minGroupSize !== undefined) parts.push(`fewer than ${rule.minGroupSize} rows`);
  if (rule.minGroupShare !== undefined) parts.push(`under ${rule.minGroupShare * 100}% of the ${rows} rows`);
  return `groups with ${parts.join(' or ')} are excluded from the audit`;
}

/** The name of group code g: its name, or a (0) / b (1) in a two-group pool. */
function nameOf(pool: AuditPool, g: number): string {
  return pool.groupNames?.[g] ?? (g === 0 ? 'a (group = 0)' : 'b (group = 1)');
}

/**
 * applyGroupSizeRule(pool, rule) removes from the pool the rows of every group smaller than
 * the rule allows (fewer than minGroupSize rows, or a share of the pool's rows below
 * minGroupShare: NYC Local Law 144 lets an auditor exclude a category under 2% of the
 * data from the impact ratios), renumbers the remaining groups in their order, and records
 * the rule in words and the excluded groups with their sizes (pool.groupSizeRule), so the
 * output can say what was left out. A pool whose groups all pass keeps its rows and codes.
 * Throws InputError when fewer than two groups remain. O(rows).
 * @param pool the pool as read
 * @param rule the minimum size, share, or both
 * @returns the pool without the excluded groups' rows, with groupSizeRule set
 * @example applyGroupSizeRule(pool, { minGroupShare: 0.02 }).groupSizeRule?.excluded // [{ name: 'Other', rows: 31 }]
 */
export function applyGroupSizeRule(pool: AuditPool, rule: GroupSizeRule): AuditPool {
  const groups = pool.groupNames?.length ?? 2;
  const counts = new Array<number>(groups).fill(0);
  for (let row = 0; row < pool.size; row++) counts[pool.group[row]]++;
  const keep = counts.map(
    (count) =>
      count > 0 &&
      (rule.minGroupSize === undefined || count >= rule.minGroupSize) &&
      (rule.minGroupShare === undefined || count >= rule.minGroupShare * pool.size),
  );
  const excluded: ExcludedGroup[] = [];
  counts.forEach((rows, g) => {
    if (!keep[g] && rows > 0) excluded.push({ name: nameOf(pool, g), rows });
  });
  const text = ruleText(rule, pool.size);
  const kept = keep.filter(Boolean).length;
  if (kept < 2) {
    throw inputError({
      where: `${pool.source}: the minimum group size (--min-group-size, --min-group-share)`,
      expected: 'at least two groups left after the rule',
      found:
        `${kept} left: ${text}, which ` +
        `excludes ${excluded.map((each) => `${each.name} (${each.rows} rows)`).join(', ')}`,
    });
  }
  const groupSizeRule = { rule: text, excluded };
  if (excluded.length === 0) return { ...pool, groupSizeRule };
  return { ...withoutGroups(pool, keep), groupSizeRule };
}

/** The pool restricted to the rows of the kept groups, their codes renumbered in order. O(rows). */
function withoutGroups(pool: AuditPool, keep: readonly boolean[]): AuditPool {
  const newCode = new Uint8Array(keep.length);
  let next = 0;
  keep.forEach((kept, g) => {
    if (kept) newCode[g] = next++;
  });
  const rows: number[] = [];
  for (let row = 0; row < pool.size; row++) if (keep[pool.group[row]]) rows.push(row);
  const pick = <T extends Uint8Array | Float64Array | Int32Array>(column: T): T =>
    new (column.constructor as new (values: number[]) => T)(rows.map((row) => column[row]));
  const group = Uint8Array.from(rows, (row) => newCode[pool.group[row]]);
  const names = pool.groupNames ?? ['0', '1'];
  return {
    ...pool,
    size: rows.length,
    group,
    label: pick(pool.label),
    decision: pick(pool.decision),
    score: pool.score === null ? null : pick(pool.score),
    logit: pool.logit === null ? null : pick(pool.logit),
    id: pool.id === null ? null : pick(pool.id),
    groupNames: names.filter((_, g) => keep[g]),
  };
}
