/**
 * How an audit set S is drawn from a candidate set C, the one vocabulary of the
 * oblivious audits (the respir simulation and the PIR auditor): uniformly (paper B
 * §4.1), or stratified by group (paper B §6.2, principle 2) with proportional
 * allocation nₐ = round(n·Nₐ/N) or a balanced one nₐ = ⌊n/2⌋ (each capped by the
 * group's size).
 */
export type AuditDesign = 'uniform' | 'proportional' | 'balanced';

/** The designs, in the order configs and flags list them. */
export const AUDIT_DESIGNS: readonly AuditDesign[] = ['uniform', 'proportional', 'balanced'];

/**
 * groupAuditSizes(design, groupSizes, auditSetSize) is [n₀, n₁] for a stratified
 * design, or null for the uniform one (where nₐ is random). Group a gets
 * round(n·N₀/N) (proportional; Math.round, so a tie x.5 rounds up) or ⌊n/2⌋ (balanced),
 * moved into [n − N₁, N₀] so both groups fit; group b gets the rest. O(1).
 */
export function groupAuditSizes(
  design: AuditDesign,
  groupSizes: readonly [number, number],
  auditSetSize: number,
): [number, number] | null {
  if (design === 'uniform') return null;
  const total = groupSizes[0] + groupSizes[1];
  let first: number;
  if (design === 'proportional') first = Math.round((auditSetSize * groupSizes[0]) / total);
  else first = Math.floor(auditSetSize / 2);
  first = Math.min(groupSizes[0], Math.max(auditSetSize - groupSizes[1], first));
  return [first, auditSetSize - first];
}
