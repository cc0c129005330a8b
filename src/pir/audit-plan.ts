import { createHash } from 'node:crypto';
import { type AuditDesign, groupAuditSizes } from '../audit/audit-design.js';
import { multiGroupAuditSizes } from '../audit/multi-group-audit-sizes.js';
import { inputError } from '../util/errors.js';
import { partialShuffle, type Random, shuffleInPlace } from '../util/random.js';

/**
 * auditSetDigest(sample) is the SHA-256 (hex) of the candidate indices of S sorted
 * ascending, each a u32 little-endian: the same for the same set whatever its order. O(n log n).
 */
export function auditSetDigest(sample: readonly number[]): string {
  const sorted = Uint32Array.from(sample).sort();
  return createHash('sha256')
    .update(new Uint8Array(sorted.buffer, sorted.byteOffset, sorted.byteLength))
    .digest('hex');
}

/**
 * drawAuditSet(groups, size, design, random, groupCount) draws S ⊂ C without replacement:
 * uniformly (paper B §4.1), or stratified by group with the per-group sizes of
 * groupAuditSizes (two groups: proportional or balanced, rounded as the respir simulation
 * rounds them) or multiGroupAuditSizes (K > 2 groups, codes 0..K−1), each group's rows by a
 * partial Fisher-Yates shuffle, then S in random order. Two groups draw exactly as before.
 * O(N). Throws InputError unless 2 ≤ size ≤ N.
 * @param groups each candidate's group
 * @param size |S|, from 2 to the candidates
 * @param design uniform, proportional or balanced
 * @param random the generator of the draw (node:crypto's for a real audit)
 * @param groupCount K, the number of group codes (groupCountOf(pool)); 2 by default
 * @returns the rows of S
 * @example
 * const rows = drawAuditSet(pool.group, 500, 'uniform', createCryptoRandom());
 */
export function drawAuditSet(
  groups: Uint8Array,
  size: number,
  design: AuditDesign,
  random: Random,
  groupCount = 2,
): number[] {
  const total = groups.length;
  if (!Number.isInteger(size) || size < 2 || size > total) {
    throw inputError({ where: '--audit-set-size', expected: `an integer in [2, ${total}]`, found: size });
  }
  if (design === 'uniform') {
    const order = Int32Array.from({ length: total }, (_, i) => i);
    return Array.from(partialShuffle(order, size, random));
  }
  if (groupCount > 2) return drawStratifiedSet(groups, size, design, random, groupCount);
  const byGroup: number[][] = [[], []];
  groups.forEach((group, index) => {
    byGroup[group === 1 ? 1 : 0].push(index);
  });
  const counts = groupAuditSizes(design, [byGroup[0].length, byGroup[1].length], size) as [number, number];
  const chosen: number[] = [];
  for (const group of [0, 1]) chosen.push(...partialShuffle(Int32Array.from(byGroup[group]), counts[group], random));
  return shuffleInPlace(random, chosen);
}

/** The stratified draw over K > 2 groups: multiGroupAuditSizes rows of each group, then S in random order. */
function drawStratifiedSet(
  groups: Uint8Array,
  size: number,
  design: AuditDesign,
  random: Random,
  groupCount: number,
): number[] {
  const byGroup: number[][] = Array.from({ length: groupCount }, () => []);
  groups.forEach((group, index) => {
    byGroup[group].push(index);
  });
  const counts = multiGroupAuditSizes(
    design,
    byGroup.map((rows) => rows.length),
    size,
  ) as number[];
  const chosen: number[] = [];
  for (let group = 0; group < groupCount; group++) {
    chosen.push(...partialShuffle(Int32Array.from(byGroup[group]), counts[group], random));
  }
  return shuffleInPlace(random, chosen);
}

/** One retrieval of the audit: a candidate of S, or a canary whose label the auditor knows. */
export interface PlannedRetrieval {
  readonly index: number;
  readonly canary: boolean;
}

/** The auditor's secret plan: S, the canaries (disjoint from S) and the order they are retrieved in. */
export interface AuditPlan {
  readonly auditSet: readonly number[];
  readonly canaries: ReadonlyArray<{ index: number; label: number }>;
  /** S in its drawn random order with each canary inserted at a uniformly random position: |S| + k retrievals. */
  readonly order: readonly PlannedRetrieval[];
}

export interface AuditPlanOptions {
  readonly groups: Uint8Array;
  /** The labels the auditor already knows (the canaries' labels are read from it). */
  readonly knownLabels: ArrayLike<number>;
  /** n = |S| (canaries excluded). */
  readonly auditSetSize: number;
  /** k, canaries planted among the retrievals. */
  readonly canaryCount: number;
  readonly design: AuditDesign;
  /** K, the number of group codes (groupCountOf(pool)); 2 when absent. */
  readonly groupCount?: number;
}

/**
 * drawAuditPlan(options, random) draws what the provider must not predict: S ⊂ C by
 * drawAuditSet (uniform or stratified), k canaries uniformly from C \ S, and the order of
 * the |S| + k retrievals (each canary at a uniformly random position). `random` comes from
 * node:crypto in a real audit (createCryptoRandom); a seeded one only for tests. O(N).
 * Throws InputError when |S| + k > N or the audit set size is out of range.
 * @param options the candidates' groups, the known labels, n, k and the design
 * @param random uniform numbers in [0, 1)
 * @returns S, the canaries and the retrieval order
 * @example drawAuditPlan({ groups, knownLabels, auditSetSize: 1000, canaryCount: 10, design: 'uniform' },
 * createCryptoRandom())
 */
export function drawAuditPlan(options: AuditPlanOptions, random: Random): AuditPlan {
  const { groups, knownLabels, auditSetSize, canaryCount, design } = options;
  const total = groups.length;
  if (auditSetSize + canaryCount > total) {
    throw inputError({
      where: '--canaries',
      expected: `|S| + k at most N = ${total} (canaries are drawn outside S)`,
      found: `${auditSetSize} + ${canaryCount}`,
    });
  }
  const auditSet = drawAuditSet(groups, auditSetSize, design, random, options.groupCount ?? 2);
  const taken = new Uint8Array(total);
  for (const index of auditSet) taken[index] = 1;
  const canaries: Array<{ index: number; label: number }> = [];
  while (canaries.length < canaryCount) {
    const index = Math.floor(random() * total);
    if (taken[index]) continue;
    taken[index] = 1;
    canaries.push({ index, label: knownLabels[index] });
  }
  const order: PlannedRetrieval[] = auditSet.map((index) => ({ index, canary: false }));
  for (const canary of canaries) {
    order.splice(Math.floor(random() * (order.length + 1)), 0, { index: canary.index, canary: true });
  }
  return { auditSet, canaries, order };
}
