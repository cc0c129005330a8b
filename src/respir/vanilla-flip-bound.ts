import { flipsToLowerGap } from './flip-count.js';

/**
 * vanillaFlipBound(gap, tolerance, auditMinoritySize) is paper B's Proposition 1
 * (Eq. 2): a provider that knows the audit set S must flip at least
 * ⌈(|d_true| − ε)·n_min⌉ outputs on S to pass a vanilla black-box audit; 0 when
 * |d_true| ≤ ε already. The paper's example: hiding 0.01 on a balanced 400-row set
 * (n_min = 200) takes 2 flips. O(1). The caller validates its inputs.
 * @param gap |d_S|
 * @param tolerance ε
 * @param auditMinoritySize minority rows in S
 * @returns the flips that bring a vanilla audit's gap within ε (Proposition 1)
 * @example
 * vanillaFlipBound(0.1, 0.05, 150);
 */
export function vanillaFlipBound(gap: number, tolerance: number, auditMinoritySize: number): number {
  return flipsToLowerGap(gap, tolerance, auditMinoritySize);
}
