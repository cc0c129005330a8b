/**
 * fairaudit/respir: paper B's manipulation-proof oblivious audits, simulated: the
 * manipulation bounds (Proposition 1, Theorems 1 and 4, equal opportunity), the
 * adversary that flips outputs, canary detection, the audit-set designs, the exact
 * pass probability and the exact minimal flips of the strongest provider (parity and
 * equal opportunity), and the Monte Carlo simulation of one audit draw.
 */
export { AUDIT_DESIGNS, type AuditDesign, groupAuditSizes } from '../audit/audit-design.js';
export { bestEffortManipulation, bestManipulation, fewestFlipsToGap, type Manipulation } from '../respir/adversary.js';
export type { AuditSampler } from '../respir/audit-set-drawer.js';
export {
  type AuditMetric,
  type CandidatePopulation,
  candidatePopulationFromColumns,
  type SyntheticCandidateSpec,
  syntheticCandidatePopulation,
} from '../respir/candidate-population.js';
export { finitePopulationMargin, hoeffdingMargin } from '../respir/concentration-margin.js';
export { detectionProbability } from '../respir/detection-probability.js';
export { equalOpportunityFlipBound } from '../respir/equal-opportunity-flip-bound.js';
export {
  type ExactCostSetting,
  type ExactManipulationCost,
  exactManipulationCost,
  minorityRateForOverallRate,
} from '../respir/exact-manipulation-cost.js';
export {
  type ExactMinimalFlips,
  type ExactMinimalFlipsSetting,
  exactMinimalFlips,
} from '../respir/exact-minimal-flips.js';
export {
  type AuditOutcomeProbabilities,
  type BoundedProbability,
  createPassProbabilityEvaluator,
  type ExactAuditSetting,
  type PassProbabilityEvaluator,
} from '../respir/exact-pass-probability.js';
export { exactVanillaFlips } from '../respir/exact-vanilla-flips.js';
export { finitePopulationFlipBound } from '../respir/finite-population-flip-bound.js';
export type { GroupCounts } from '../respir/group-counts.js';
export {
  type ManipulationBounds,
  type ManipulationSetting,
  manipulationBounds,
} from '../respir/manipulation-bounds.js';
export { type MinimalPassingFlips, minimalPassingFlips } from '../respir/minimal-passing-flips.js';
export {
  type AuditDrawOutcome,
  drawObliviousAudit,
  type ObliviousAuditSetup,
  passRate,
  prepareObliviousAudit,
} from '../respir/oblivious-audit-simulation.js';
export { type RespirFlips, respirFlipBound } from '../respir/respir-flip-bound.js';
export { type ManipulationPlan, planRespirManipulation } from '../respir/respir-manipulation-plan.js';
export { vanillaFlipBound } from '../respir/vanilla-flip-bound.js';
