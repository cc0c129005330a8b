import type { MultiGroupBoundCheckSetting } from './multi-group-bound-check.js';
import type { MultiGroupMetric } from './multi-group-counts.js';
import type { MultiGroupForm } from './multi-group-margin.js';

/** A synthetic candidate set and audit for the Monte Carlo check of the K-group bounds. */
export interface MultiGroupBoundCheckCase {
  readonly name: string;
  readonly metric: MultiGroupMetric;
  /** N_g. */
  readonly groupSizes: readonly number[];
  /** Share of label = 1 rows in each group. */
  readonly labelRates: readonly number[];
  /** Decision-1 rate of each group's metric rows before manipulation. */
  readonly decisionRates: readonly number[];
  /** Fraction of each group in a stratified S, or null for a uniform S of auditSetSize rows. */
  readonly auditFraction: number | null;
  readonly auditSetSize: number;
  readonly form: MultiGroupForm;
  readonly tolerance: number;
  readonly passProbability: number;
  readonly margin: 'hoeffding' | 'finite-population';
}

const difference = { kind: 'difference' } as const;
const fourFifths = { kind: 'ratio', ratio: 0.8 } as const;

/** The cases `scripts/respir-multi-group-check.mjs` measures and the unit test runs with fewer draws. */
export const MULTI_GROUP_BOUND_CHECK_CASES: readonly MultiGroupBoundCheckCase[] = [
  {
    name: 'K=2 SP max-gap, stratified S, Theorem 4',
    metric: 'sp',
    groupSizes: [4000, 1000],
    labelRates: [0.5, 0.5],
    decisionRates: [0.6, 0.3],
    auditFraction: 0.2,
    auditSetSize: 1000,
    form: difference,
    tolerance: 0.2,
    passProbability: 0.8,
    margin: 'finite-population',
  },
  {
    name: 'K=3 SP max-gap, uniform S, Theorem 1',
    metric: 'sp',
    groupSizes: [6000, 3000, 1000],
    labelRates: [0.5, 0.5, 0.5],
    decisionRates: [0.5, 0.35, 0.2],
    auditFraction: null,
    auditSetSize: 2000,
    form: difference,
    tolerance: 0.25,
    passProbability: 0.8,
    margin: 'hoeffding',
  },
  {
    name: 'K=5 EO max-gap, stratified S, Theorem 4',
    metric: 'eo',
    groupSizes: [3000, 3000, 2000, 1000, 1000],
    labelRates: [0.5, 0.4, 0.5, 0.6, 0.5],
    decisionRates: [0.8, 0.7, 0.6, 0.5, 0.4],
    auditFraction: 0.3,
    auditSetSize: 3000,
    form: difference,
    tolerance: 0.25,
    passProbability: 0.8,
    margin: 'finite-population',
  },
  {
    name: 'K=3 PE max-gap, uniform S, Theorem 4',
    metric: 'pe',
    groupSizes: [5000, 3000, 2000],
    labelRates: [0.3, 0.4, 0.5],
    decisionRates: [0.1, 0.25, 0.4],
    auditFraction: null,
    auditSetSize: 4000,
    form: difference,
    tolerance: 0.15,
    passProbability: 0.95,
    margin: 'finite-population',
  },
  {
    name: 'K=10 SP max-gap, stratified S, Theorem 4',
    metric: 'sp',
    groupSizes: [4000, 3000, 3000, 2000, 2000, 1500, 1000, 1000, 800, 700],
    labelRates: new Array<number>(10).fill(0.5),
    decisionRates: [0.7, 0.65, 0.6, 0.55, 0.5, 0.45, 0.4, 0.35, 0.3, 0.25],
    auditFraction: 0.5,
    auditSetSize: 9500,
    form: difference,
    tolerance: 0.2,
    passProbability: 0.8,
    margin: 'finite-population',
  },
  {
    name: 'K=3 SP impact ratio ≥ 0.8, stratified S, Theorem 4',
    metric: 'sp',
    groupSizes: [8000, 5000, 4000],
    labelRates: [0.5, 0.5, 0.5],
    decisionRates: [0.6, 0.5, 0.3],
    auditFraction: 0.5,
    auditSetSize: 8500,
    form: fourFifths,
    tolerance: 0,
    passProbability: 0.8,
    margin: 'finite-population',
  },
  {
    name: 'K=5 SP impact ratio ≥ 0.8, uniform S, Theorem 1',
    metric: 'sp',
    groupSizes: [20000, 15000, 10000, 10000, 8000],
    labelRates: new Array<number>(5).fill(0.5),
    decisionRates: [0.5, 0.45, 0.4, 0.35, 0.3],
    auditFraction: null,
    auditSetSize: 40000,
    form: fourFifths,
    tolerance: 0,
    passProbability: 0.8,
    margin: 'hoeffding',
  },
  {
    name: 'K=4 EO impact ratio ≥ 0.5, stratified S, Theorem 1',
    metric: 'eo',
    groupSizes: [6000, 4000, 4000, 3000],
    labelRates: [0.5, 0.5, 0.4, 0.6],
    decisionRates: [0.8, 0.6, 0.5, 0.3],
    auditFraction: 0.5,
    auditSetSize: 8500,
    form: { kind: 'ratio', ratio: 0.5 },
    tolerance: 0,
    passProbability: 0.8,
    margin: 'hoeffding',
  },
];

/**
 * boundCheckSetting(checkCase, draws) turns a case into checkMultiGroupBound's setting: the
 * metric rows E_g = round(N_g × label share) for eo (N_g − that for pe, N_g for sp), their
 * positives round(E_g × decision rate), and n_g = round(N_g × auditFraction) for a stratified S.
 * O(K).
 * @param checkCase the synthetic candidate set and audit
 * @param draws audit sets to draw
 * @returns the setting of checkMultiGroupBound
 * @example
 * boundCheckSetting(MULTI_GROUP_BOUND_CHECK_CASES[0], 20000);
 */
export function boundCheckSetting(checkCase: MultiGroupBoundCheckCase, draws: number): MultiGroupBoundCheckSetting {
  const labelOnes = checkCase.groupSizes.map((size, g) => Math.round(size * checkCase.labelRates[g]));
  const metricSizes = checkCase.groupSizes.map((size, g) =>
    checkCase.metric === 'sp' ? size : checkCase.metric === 'eo' ? labelOnes[g] : size - labelOnes[g],
  );
  const fraction = checkCase.auditFraction;
  return {
    groupSizes: checkCase.groupSizes,
    metricSizes,
    metricPositives: metricSizes.map((size, g) => Math.round(size * checkCase.decisionRates[g])),
    auditGroupSizes: fraction === null ? null : checkCase.groupSizes.map((size) => Math.round(size * fraction)),
    auditSetSize: checkCase.auditSetSize,
    form: checkCase.form,
    tolerance: checkCase.tolerance,
    passProbability: checkCase.passProbability,
    margin: checkCase.margin,
    draws,
  };
}
