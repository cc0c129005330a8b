import type { AuditPool } from '../audit/pool.js';
import type { TabularData } from '../data/tabular.js';

/**
 * poolFromLogits(data, logits, source) builds the audit pool of a model that outputs
 * a logit z per row: score = sigmoid(z), decision = [score >= 0.5] (i.e. z >= 0),
 * id = the row's index in the raw dataset. O(rows).
 */
export function poolFromLogits(data: TabularData, logits: Float64Array, source: string): AuditPool {
  const score = new Float64Array(data.rows);
  const decision = new Uint8Array(data.rows);
  for (let i = 0; i < data.rows; i++) {
    score[i] = 1 / (1 + Math.exp(-logits[i]));
    decision[i] = score[i] >= 0.5 ? 1 : 0;
  }
  return {
    size: data.rows,
    group: data.group.slice(),
    label: data.label.slice(),
    decision,
    score,
    logit: logits,
    id: data.rowIndex.slice(),
    source,
  };
}
