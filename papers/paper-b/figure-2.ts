import type { ChartSpec } from '../../src/report/charts/chart-spec.js';
import { detectionProbability } from '../../src/respir/detection-probability.js';
import { auditColor, linePanelsSpec } from './line-panels.js';
import type { Table3Options, Table3Row } from './table-3.js';

/** A point of Figure 2: one dataset, audit and canary count. */
export interface Figure2Point {
  setting: string;
  dataset: string;
  attribute: string;
  audit: 'vanilla' | 'respir';
  canaries: number;
  detection: number;
  flips: number;
  best_effort: boolean;
}

/** k = 1, ..., 100: the horizontal axis of Figure 2 (the paper does not print its range). */
export const figure2CanaryCounts: readonly number[] = Array.from({ length: 100 }, (_, i) => i + 1);

/**
 * figure2Series(rows, options, canaryCounts) computes the data behind paper B
 * Figure 2: Eq. 3's detection probability against the number of canaries k, for the
 * vanilla and respir flip counts of each Table 3 row. O(rows × k).
 */
export function figure2Series(
  rows: readonly Table3Row[],
  options: Pick<Table3Options, 'canaryEffectiveness'>,
  canaryCounts: readonly number[] = figure2CanaryCounts,
): Figure2Point[] {
  const points: Figure2Point[] = [];
  for (const row of rows) {
    const c = row.characteristics;
    const setting = `${c.datasetLabel} ${c.attribute}`;
    const audits = [
      { audit: 'vanilla' as const, flips: row.bounds.vanilla.flips, size: c.auditSetSize, bestEffort: false },
      {
        audit: 'respir' as const,
        flips: row.bounds.respir.flips,
        size: c.candidateSetSize,
        bestEffort: row.bounds.respir.bestEffort,
      },
    ];
    for (const { audit, flips, size, bestEffort } of audits) {
      for (const k of canaryCounts) {
        points.push({
          setting,
          dataset: c.dataset,
          attribute: c.attribute,
          audit,
          canaries: k,
          detection: detectionProbability(flips, size, options.canaryEffectiveness, k),
          flips,
          best_effort: bestEffort,
        });
      }
    }
  }
  return points;
}

/** figure2Chart(points, id, title) draws Figure 2: detection vs k, vanilla vs respir, a panel per setting. */
export function figure2Chart(points: readonly Figure2Point[], id: string, title: string, caption?: string): ChartSpec {
  return {
    id,
    title,
    caption,
    spec: linePanelsSpec({
      values: points,
      facet: { field: 'setting', type: 'nominal', title: null, sort: null },
      columns: 4,
      width: 180,
      height: 140,
      x: { field: 'canaries', type: 'quantitative', title: 'Canaries k' },
      y: { field: 'detection', type: 'quantitative', title: 'P(detected)', scale: { domain: [0, 1] } },
      color: auditColor,
    }),
  };
}
