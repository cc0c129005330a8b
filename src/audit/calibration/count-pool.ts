import type { AuditPool } from '../pool.js';
import type { CountCell } from './threshold-paths.js';

/**
 * countPool(cell, source) builds the decision-access pool with the cell's counts: countA
 * rows of group a (the first positivesA decided 1) followed by countB rows of group b
 * (the first positivesB decided 1); labels all 1 (so SP and EO audit the same rows), no
 * scores or logits. Row order does not matter for random or balanced query order.
 * O(countA + countB). Kernel: no validation (0 <= positives <= count).
 */
export function countPool(cell: CountCell, source = 'counts'): AuditPool {
  const size = cell.countA + cell.countB;
  const group = new Uint8Array(size);
  const decision = new Uint8Array(size);
  for (let i = 0; i < cell.positivesA; i++) decision[i] = 1;
  for (let i = 0; i < cell.countB; i++) {
    group[cell.countA + i] = 1;
    if (i < cell.positivesB) decision[cell.countA + i] = 1;
  }
  return {
    size,
    group,
    label: new Uint8Array(size).fill(1),
    decision,
    score: null,
    logit: null,
    id: null,
    source,
  };
}
