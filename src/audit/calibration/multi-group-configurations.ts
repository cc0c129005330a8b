import { compareCountDifference } from '../../stats/count-gap-comparison.js';

/**
 * Where each group sits in the compliance window [c, c + tolerance] (0 bottom, 1 top): the
 * layouts searched for the worst compliant configuration of K groups.
 * - 'small-bottom-large-top' / 'small-top-large-bottom': the smallest and largest groups at
 *   the two ends, the rest spread evenly between;
 * - 'alternating': groups by size alternately at the bottom and the top;
 * - 'small-alone-bottom' / 'small-alone-top': the smallest group alone at one end, every
 *   other group at the other;
 * - 'two-smallest-ends': the two smallest groups at the two ends, the rest in the middle.
 */
export const MULTI_GROUP_LAYOUTS = [
  'small-bottom-large-top',
  'small-top-large-bottom',
  'alternating',
  'small-alone-bottom',
  'small-alone-top',
  'two-smallest-ends',
] as const;
export type MultiGroupLayout = (typeof MULTI_GROUP_LAYOUTS)[number];

/** A K-group decision pool given by its counts, with its role in a calibration. */
export interface MultiGroupConfiguration {
  readonly key: string;
  /** 'null': compliant (gap <= tolerance exactly); 'alternative': just beyond the tolerance. */
  readonly role: 'null' | 'alternative';
  readonly positives: readonly number[];
  /** The largest gap of rates, max - min. */
  readonly gap: number;
}

/** layoutPositions(groupSizes, layout) is each group's place in the window, 0 (bottom) to 1 (top). O(K log K). */
export function layoutPositions(groupSizes: readonly number[], layout: MultiGroupLayout): number[] {
  const k = groupSizes.length;
  const bySize = groupSizes.map((_, g) => g).sort((a, b) => groupSizes[a] - groupSizes[b] || a - b);
  const position = new Array<number>(k).fill(0.5);
  if (layout === 'small-bottom-large-top' || layout === 'small-top-large-bottom') {
    const flip = layout === 'small-top-large-bottom';
    position[bySize[0]] = flip ? 1 : 0;
    position[bySize[k - 1]] = flip ? 0 : 1;
    const others = bySize.slice(1, k - 1);
    others.forEach((g, i) => {
      position[g] = (i + 1) / (others.length + 1);
    });
  } else if (layout === 'two-smallest-ends') {
    position[bySize[0]] = 0;
    position[bySize[1]] = 1;
  } else {
    for (let i = 0; i < k; i++) {
      if (layout === 'alternating') position[bySize[i]] = i % 2 === 0 ? 0 : 1;
      else if (layout === 'small-alone-bottom') position[bySize[i]] = i === 0 ? 0 : 1;
      else position[bySize[i]] = i === 0 ? 1 : 0;
    }
  }
  return position;
}

/** The exact extreme groups of a count configuration (by cross-multiplication) and its gap. */
export function configurationGap(
  groupSizes: readonly number[],
  positives: readonly number[],
): [number, number, number] {
  let low = 0;
  let high = 0;
  for (let g = 1; g < groupSizes.length; g++) {
    if (positives[g] * groupSizes[low] < positives[low] * groupSizes[g]) low = g;
    if (positives[g] * groupSizes[high] > positives[high] * groupSizes[g]) high = g;
  }
  return [low, high, positives[high] / groupSizes[high] - positives[low] / groupSizes[low]];
}

/**
 * multiGroupConfigurations(groupSizes, tolerance, bottoms) lays out, for each window bottom c
 * and each layout, a compliant configuration (bottom counts rounded up, top counts down, so
 * max - min <= tolerance exactly) and one just beyond (top groups one positive above c +
 * tolerance, bottom groups at most c): the cells of the K-group calibration and of the
 * error-rate search (scripts/multi-group-error-rates.mjs). Duplicates are dropped.
 * O(bottoms x layouts x K log K). Kernel: sizes >= 1, tolerance in (0, 1), bottoms in [0, 1 - tolerance].
 */
export function multiGroupConfigurations(
  groupSizes: readonly number[],
  tolerance: number,
  bottoms: readonly number[],
): MultiGroupConfiguration[] {
  const cells: MultiGroupConfiguration[] = [];
  const seen = new Set<string>();
  for (const bottom of bottoms) {
    for (const layout of MULTI_GROUP_LAYOUTS) {
      const position = layoutPositions(groupSizes, layout);
      for (const role of ['null', 'alternative'] as const) {
        const positives = groupSizes.map((n, g) => {
          if (role === 'null')
            return Math.min(n, Math.max(Math.ceil(bottom * n), Math.floor((bottom + position[g] * tolerance) * n)));
          if (position[g] === 1) return Math.min(n, Math.floor((bottom + tolerance) * n) + 1);
          if (position[g] === 0) return Math.floor(bottom * n);
          return Math.round((bottom + position[g] * tolerance) * n);
        });
        const [low, high, gap] = configurationGap(groupSizes, positives);
        const violates =
          compareCountDifference(groupSizes[low], positives[low], groupSizes[high], positives[high], tolerance) > 0;
        if (violates !== (role === 'alternative')) continue;
        const key = `${role} ${layout} c=${bottom}: ${positives.join('/')}`;
        if (seen.has(positives.join('/'))) continue;
        seen.add(positives.join('/'));
        cells.push({ key, role, positives, gap });
      }
    }
  }
  return cells;
}
