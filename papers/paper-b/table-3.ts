import type { SummaryColumn, SummaryTable, SummaryValue } from '../../src/report/summary-table.js';
import { type ManipulationBounds, manipulationBounds } from '../../src/respir/manipulation-bounds.js';
import type { DatasetCharacteristics } from './dataset-characteristics.js';

/** The manipulation paper B §5 studies: hide a share of the gap, aim at 1 − δ, with canaries. */
export interface Table3Options {
  /** Share of the gap to hide: ε = (1 − share)·|d_C,true| (paper B: 0.5). */
  hideFraction: number;
  /** 1 − δ targeted under respir (paper B: 0.8). */
  passProbability: number;
  /** q (paper B: 0.8). */
  canaryEffectiveness: number;
  /** k (paper B: 5, 10, 20, 50). */
  canaryCounts: readonly number[];
}

/** Paper B §5's setting for Table 3. */
export const paperBTable3Options: Table3Options = {
  hideFraction: 0.5,
  passProbability: 0.8,
  canaryEffectiveness: 0.8,
  canaryCounts: [5, 10, 20, 50],
};

/** One row of Table 3: a Table 2 row and its bounds. */
export interface Table3Row {
  characteristics: DatasetCharacteristics;
  tolerance: number;
  bounds: ManipulationBounds;
}

/**
 * table3Rows(characteristics, options) computes paper B's Table 3 analytically: for
 * each Table 2 row, ε = (1 − hideFraction)·|d_C|, the vanilla flips (Proposition 1, on
 * n_min) and respir flips (Theorem 1 with 1 − δ, best effort when ε − γ < 0), and
 * Eq. 3's detection probabilities (over n and N) for each k. O(rows × k). Throws
 * InputError (manipulationBounds) when a row is inconsistent.
 */
export function table3Rows(
  characteristics: readonly DatasetCharacteristics[],
  options: Table3Options = paperBTable3Options,
): Table3Row[] {
  return characteristics.map((row) => {
    const tolerance = (1 - options.hideFraction) * Math.abs(row.gap);
    const bounds = manipulationBounds({
      candidateSetSize: row.candidateSetSize,
      auditSetSize: row.auditSetSize,
      candidateMinoritySize: row.candidateMinoritySize,
      auditMinoritySize: row.auditMinoritySize,
      gap: row.gap,
      tolerance,
      passProbability: options.passProbability,
      canaryEffectiveness: options.canaryEffectiveness,
      canaryCounts: options.canaryCounts,
    });
    return { characteristics: row, tolerance, bounds };
  });
}

/**
 * table3SummaryTable(rows, options, id, title) lays Table 3 out as the reporter's
 * SummaryTable: dataset, attribute, origin, ε, γ, vanilla and respir flips, the best
 * effort flag, then detection probabilities per k for each audit. O(rows × k).
 */
export function table3SummaryTable(
  rows: readonly Table3Row[],
  options: Table3Options,
  id: string,
  title: string,
  caption?: string,
): SummaryTable {
  const columns: SummaryColumn[] = [
    { name: 'dataset', label: 'Dataset', type: 'string' },
    { name: 'attribute', label: 'Attribute', type: 'string' },
    { name: 'origin', label: 'Table 2 from', type: 'string' },
    { name: 'tolerance', label: 'ε', type: 'number', digits: 4, description: 'ε = (1 − hidden share)·|d_C,true|' },
    { name: 'margin', label: 'γ', type: 'number', digits: 4, description: 'γ = sqrt(2 ln(4/δ)/n_min) (Theorem 2)' },
    { name: 'vanilla_flips', label: 'Vanilla flips', type: 'number', description: 'Proposition 1 on S' },
    { name: 'respir_flips', label: 'respir flips', type: 'number', description: 'Theorem 1 on C' },
    {
      name: 'respir_best_effort',
      label: 'Best effort',
      type: 'string',
      description: 'yes when ε − γ < 0: flips remove the whole gap',
    },
  ];
  for (const audit of ['vanilla', 'respir'] as const) {
    for (const k of options.canaryCounts) {
      columns.push({
        name: `${audit}_detection_k${k}`,
        label: `${audit === 'vanilla' ? 'Vanilla' : 'respir'} P(detect) k=${k}`,
        type: 'number',
        digits: 3,
        description: `Eq. 3 with denominator ${audit === 'vanilla' ? 'n' : 'N'}`,
      });
    }
  }
  const records = rows.map((row) => {
    const record: Record<string, SummaryValue> = {
      dataset: row.characteristics.datasetLabel,
      attribute: row.characteristics.attribute,
      origin: row.characteristics.origin,
      tolerance: row.tolerance,
      margin: row.bounds.details.margin,
      vanilla_flips: row.bounds.vanilla.flips,
      respir_flips: row.bounds.respir.flips,
      respir_best_effort: row.bounds.respir.bestEffort ? 'yes' : 'no',
    };
    for (const k of options.canaryCounts) {
      record[`vanilla_detection_k${k}`] = row.bounds.vanilla.detection[String(k)];
      record[`respir_detection_k${k}`] = row.bounds.respir.detection[String(k)];
    }
    return record;
  });
  return { id, title, caption, columns, rows: records };
}
