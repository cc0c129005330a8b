import type { AuditDesign } from '../audit/audit-design.js';
import type { Random } from '../util/random.js';
import { fewestFlipsToGapKernel, type Manipulation } from './adversary.js';
import { type AuditSampler, type AuditSetDrawer, createAuditSetDrawer } from './audit-set-drawer.js';
import { type AuditStrata, buildAuditStrata } from './audit-strata.js';
import type { CandidatePopulation } from './candidate-population.js';
import { hypergeometricKernel } from './hypergeometric.js';
import { logFactorialTable } from './log-factorial-table.js';

/** Everything one simulated audit needs; validated by the caller (the experiment kind). */
export interface ObliviousAuditSetup {
  population: CandidatePopulation;
  /** n = |S|. */
  auditSetSize: number;
  design: AuditDesign;
  sampler: AuditSampler;
  /** ε: the audit passes when |d_S| ≤ ε (paper B Eq. 1). */
  tolerance: number;
  /** k canaries, planted among the n rows of S. */
  canaries: number;
  /** q: the chance that a canary stays indistinguishable to the provider. */
  canaryEffectiveness: number;
  /** The provider's flips on C under respir (from the adversary). */
  manipulation: Manipulation;
}

/** A prepared simulation: strata, a drawer and scratch buffers, reused by every draw. */
export interface ObliviousAuditSimulation {
  setup: ObliviousAuditSetup;
  strata: AuditStrata;
  drawer: AuditSetDrawer;
  logFactorials: Float64Array;
  sampled: Int32Array;
}

/** The outcome of one audit-set draw, for the respir audit and the vanilla one on the same S. */
export interface AuditDrawOutcome {
  /** n_min (n⁺_min for EO): the smaller group's count of the metric's rows in S. */
  auditMinority: number;
  /** d_S after the respir manipulation on C; NaN when a group has no row in S. */
  respirGap: number;
  respirPassed: boolean;
  /** Rows of S whose output the provider flipped (under respir). */
  flippedInAudit: number;
  respirDetected: boolean;
  /** d_S before any manipulation. */
  trueGap: number;
  /** Fewest flips on S that pass the vanilla audit (the provider sees S); −1 when none does. */
  vanillaFlips: number;
  vanillaDetected: boolean;
}

/**
 * prepareObliviousAudit(setup) builds the strata of C after the manipulation and the
 * audit-set drawer. O(N). Inputs are trusted.
 * @param setup the candidate population, the manipulation, |S|, the design and the canaries
 * @returns a simulation that drawObliviousAudit draws from
 * @example
 * const simulation = prepareObliviousAudit(setup);
 */
export function prepareObliviousAudit(setup: ObliviousAuditSetup): ObliviousAuditSimulation {
  const strata = buildAuditStrata(setup.population, setup.manipulation);
  const total = setup.population.groupSizes[0] + setup.population.groupSizes[1];
  return {
    setup,
    strata,
    drawer: createAuditSetDrawer(strata, setup.auditSetSize, setup.design, setup.sampler),
    logFactorials: logFactorialTable(Math.max(total, setup.auditSetSize)),
    sampled: new Int32Array(strata.counts.length),
  };
}

/**
 * canariesDetect(random, logFactorials, auditSetSize, modified, canaries, effectiveness)
 * plants k canaries uniformly among the n rows of S (distinct rows), counts how many
 * fall on the `modified` rows (Hypergeometric(n, modified, k)), and detects the
 * manipulation when one of those is effective (each with probability q): the model
 * behind paper B Eq. 3. O(1 + sd).
 */
export function canariesDetect(
  random: Random,
  logFactorials: Float64Array,
  auditSetSize: number,
  modified: number,
  canaries: number,
  effectiveness: number,
): boolean {
  if (modified <= 0 || canaries <= 0 || effectiveness <= 0) return false;
  const hit = hypergeometricKernel(random, logFactorials, auditSetSize, modified, canaries);
  return hit > 0 && random() < 1 - (1 - effectiveness) ** hit;
}

/**
 * Rounding slack of the pass test |d_S| ≤ ε: a gap equal to ε in exact arithmetic
 * (a ratio of counts computed in doubles) passes. Shared by drawObliviousAudit and
 * passRate so that both count the same audits as passing.
 */
export const PASS_SLACK = 1e-12;

/**
 * drawObliviousAudit(simulation, random, withVanilla) draws one audit set S and
 * returns both audits' outcomes: respir (the provider flipped C blindly; pass when
 * |d_S| ≤ ε; canaries catch flipped rows of S) and, when withVanilla, the vanilla audit
 * on the same S (the provider sees S and flips the fewest outputs of S that pass:
 * fewestFlipsToGap). O(strata × sd) for the draw plus O(vanilla flips).
 * @param simulation a prepared simulation (prepareObliviousAudit)
 * @param random the seeded generator of the draw
 * @param withVanilla also judge the draw as a vanilla audit would
 * @returns what one draw of S gave: pass or fail, and the canaries caught
 * @example
 * const outcome = drawObliviousAudit(prepareObliviousAudit(setup), createRandom('draw-1'));
 */
export function drawObliviousAudit(
  simulation: ObliviousAuditSimulation,
  random: Random,
  withVanilla = true,
): AuditDrawOutcome {
  const { setup, strata, sampled } = simulation;
  simulation.drawer(random, sampled);
  let eligible0 = 0;
  let eligible1 = 0;
  let positive0 = 0;
  let positive1 = 0;
  let original0 = 0;
  let original1 = 0;
  let flipped = 0;
  for (let s = 0; s < sampled.length; s++) {
    const count = sampled[s];
    if (count === 0) continue;
    if (strata.flipped[s]) flipped += count;
    if (!strata.eligible[s]) continue;
    if (strata.group[s] === 0) {
      eligible0 += count;
      if (strata.positive[s]) positive0 += count;
      if (strata.originallyPositive[s]) original0 += count;
    } else {
      eligible1 += count;
      if (strata.positive[s]) positive1 += count;
      if (strata.originallyPositive[s]) original1 += count;
    }
  }
  const bothGroups = eligible0 > 0 && eligible1 > 0;
  const respirGap = bothGroups ? positive1 / eligible1 - positive0 / eligible0 : Number.NaN;
  const trueGap = bothGroups ? original1 / eligible1 - original0 / eligible0 : Number.NaN;
  const respirPassed = bothGroups && Math.abs(respirGap) <= setup.tolerance + PASS_SLACK;
  const respirDetected = canariesDetect(
    random,
    simulation.logFactorials,
    setup.auditSetSize,
    flipped,
    setup.canaries,
    setup.canaryEffectiveness,
  );
  let vanillaFlips = -1;
  let vanillaDetected = false;
  if (withVanilla && bothGroups) {
    const plan = fewestFlipsToGapKernel(
      { sizes: [eligible0, eligible1], positives: [original0, original1] },
      setup.tolerance,
    );
    if (plan !== null) {
      vanillaFlips = plan.flips;
      vanillaDetected = canariesDetect(
        random,
        simulation.logFactorials,
        setup.auditSetSize,
        plan.flips,
        setup.canaries,
        setup.canaryEffectiveness,
      );
    }
  }
  return {
    auditMinority: Math.min(eligible0, eligible1),
    respirGap,
    respirPassed,
    flippedInAudit: flipped,
    respirDetected,
    trueGap,
    vanillaFlips,
    vanillaDetected,
  };
}

/**
 * passRate(simulation, draws, random) is the share of `draws` audit sets that pass the
 * respir audit (respir part only, no canaries). O(draws × strata × sd).
 */
export function passRate(simulation: ObliviousAuditSimulation, draws: number, random: Random): number {
  const { setup, strata, sampled } = simulation;
  let passes = 0;
  for (let d = 0; d < draws; d++) {
    simulation.drawer(random, sampled);
    let e0 = 0;
    let e1 = 0;
    let p0 = 0;
    let p1 = 0;
    for (let s = 0; s < sampled.length; s++) {
      const count = sampled[s];
      if (count === 0 || !strata.eligible[s]) continue;
      if (strata.group[s] === 0) {
        e0 += count;
        if (strata.positive[s]) p0 += count;
      } else {
        e1 += count;
        if (strata.positive[s]) p1 += count;
      }
    }
    if (e0 > 0 && e1 > 0 && Math.abs(p1 / e1 - p0 / e0) <= setup.tolerance + PASS_SLACK) passes++;
  }
  return passes / draws;
}
