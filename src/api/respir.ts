/**
 * fairaudit/respir: paper B's manipulation-proof oblivious audits, simulated: the
 * manipulation bounds (Proposition 1, Theorems 1 and 4, equal opportunity), the
 * strongest adversary, canary detection, the audit-set designs, the exact minimal flips
 * of the strongest provider, and the Monte Carlo simulation of one audit draw.
 */
export { AUDIT_DESIGNS, type AuditDesign } from '../audit/audit-design.js';
export { bestManipulation } from '../respir/adversary.js';
export {
  type CandidatePopulation,
  candidatePopulationFromColumns,
  syntheticCandidatePopulation,
} from '../respir/candidate-population.js';
export { detectionProbability } from '../respir/detection-probability.js';
export { equalOpportunityFlipBound } from '../respir/equal-opportunity-flip-bound.js';
export { exactManipulationCost } from '../respir/exact-manipulation-cost.js';
export {
  type ExactMinimalFlips,
  type ExactMinimalFlipsSetting,
  exactMinimalFlips,
} from '../respir/exact-minimal-flips.js';
export { exactVanillaFlips } from '../respir/exact-vanilla-flips.js';
export { finitePopulationFlipBound } from '../respir/finite-population-flip-bound.js';
export {
  type ManipulationBounds,
  type ManipulationSetting,
  manipulationBounds,
} from '../respir/manipulation-bounds.js';
export { minimalPassingFlips } from '../respir/minimal-passing-flips.js';
export {
  type MultiGroupManipulationBounds,
  type MultiGroupManipulationSetting,
  multiGroupManipulationBounds,
} from '../respir/multi-group/multi-group-manipulation-bounds.js';
export { windowMinimalFlips } from '../respir/multi-group/window-minimal-flips.js';
export {
  drawObliviousAudit,
  type ObliviousAuditSetup,
  prepareObliviousAudit,
} from '../respir/oblivious-audit-simulation.js';
export { respirFlipBound } from '../respir/respir-flip-bound.js';
export { vanillaFlipBound } from '../respir/vanilla-flip-bound.js';
