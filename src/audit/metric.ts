/**
 * The fairness metric audited (paper A section 3.2): statistical parity (sp) compares
 * decision rates over the whole pool; equal opportunity (eo) compares them over the
 * rows with label = 1.
 */
export type FairnessMetric = 'sp' | 'eo';
export const FAIRNESS_METRICS: readonly FairnessMetric[] = ['sp', 'eo'];
