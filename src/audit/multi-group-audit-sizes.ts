import type { AuditDesign } from './audit-design.js';

/**
 * multiGroupAuditSizes(design, groupSizes, auditSetSize) is [n_0, …, n_{K−1}] of a stratified
 * S over K groups, or null for the uniform design. Two groups keep groupAuditSizes' rule; for
 * K groups: proportional gives each group ⌊n·N_g/N⌋ and the rest one each by largest remainder
 * (ties to the lower code), balanced fills the groups level by level (each min(N_g, the equal
 * share of what is left), the rest one each to the lower codes with room). Both sum to n with
 * n_g ≤ N_g. O(K log K). The caller validates 1 ≤ n ≤ N.
 * @param design uniform, proportional or balanced
 * @param groupSizes N_g of every group
 * @param auditSetSize n = |S|
 * @returns the rows of each group in S, or null when S is uniform
 * @example
 * multiGroupAuditSizes('balanced', [5000, 300, 100], 900); // [500, 300, 100]
 */
export function multiGroupAuditSizes(
  design: AuditDesign,
  groupSizes: readonly number[],
  auditSetSize: number,
): number[] | null {
  if (design === 'uniform') return null;
  const groupCount = groupSizes.length;
  const total = groupSizes.reduce((sum, size) => sum + size, 0);
  const sizes = new Array<number>(groupCount).fill(0);
  if (design === 'proportional') {
    const remainders: Array<[number, number]> = [];
    for (let g = 0; g < groupCount; g++) {
      const share = (auditSetSize * groupSizes[g]) / total;
      sizes[g] = Math.min(groupSizes[g], Math.floor(share));
      remainders.push([share - sizes[g], g]);
    }
    remainders.sort((x, y) => y[0] - x[0] || x[1] - y[1]);
    distribute(
      sizes,
      groupSizes,
      auditSetSize,
      remainders.map(([, g]) => g),
    );
    return sizes;
  }
  const byRoom = groupSizes.map((size, g) => [size, g] as const).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let left = auditSetSize;
  for (let k = 0; k < groupCount; k++) {
    const share = Math.floor(left / (groupCount - k));
    if (byRoom[k][0] <= share) {
      sizes[byRoom[k][1]] = byRoom[k][0];
      left -= byRoom[k][0];
      continue;
    }
    // Every group from here on has room for the equal share; the rest goes to the lower codes.
    for (let rest = k; rest < groupCount; rest++) sizes[byRoom[rest][1]] = share;
    break;
  }
  distribute(
    sizes,
    groupSizes,
    auditSetSize,
    sizes.map((_, g) => g),
  );
  return sizes;
}

/** Hands out what the sizes miss of n, one row each in `order`, to groups with room, until none is left. */
function distribute(sizes: number[], groupSizes: readonly number[], auditSetSize: number, order: number[]): void {
  let left = auditSetSize - sizes.reduce((sum, size) => sum + size, 0);
  while (left > 0) {
    for (const g of order) {
      if (left === 0) break;
      if (sizes[g] < groupSizes[g]) {
        sizes[g]++;
        left--;
      }
    }
  }
}
