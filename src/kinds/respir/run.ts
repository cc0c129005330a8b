import type { KindRunner, OutcomeColumn, SettingsOrigin } from '../../harness/kind-runner.js';
import type { CandidatePopulation } from '../../respir/candidate-population.js';
import { detectionProbability } from '../../respir/detection-probability.js';
import { type ExactMinimalFlips, exactMinimalFlips } from '../../respir/exact-minimal-flips.js';
import { finitePopulationFlipBound } from '../../respir/finite-population-flip-bound.js';
import { minimalPassingFlips } from '../../respir/minimal-passing-flips.js';
import {
  drawObliviousAudit,
  type ObliviousAuditSetup,
  type ObliviousAuditSimulation,
  prepareObliviousAudit,
} from '../../respir/oblivious-audit-simulation.js';
import { respirFlipBound } from '../../respir/respir-flip-bound.js';
import {
  expectedAuditEligible,
  type ManipulationPlan,
  type PlannedManipulation,
  planRespirManipulation,
} from '../../respir/respir-manipulation-plan.js';
import { vanillaFlipBound } from '../../respir/vanilla-flip-bound.js';
import { canonicalJson } from '../../util/canonical-json.js';
import type { Random } from '../../util/random.js';
import { type Infer, schema } from '../../util/schema.js';
import { respirMinimalFlipsRowProblem, respirRowProblem } from './row-problem.js';
import {
  loadCandidatePopulation,
  type RespirCommonSettings,
  type RespirSettings,
  resolvedAuditSetSize,
  resolvedTolerance,
  respirSettingsProblem,
  respirSettingsProperties,
  respirSettingsSchema,
} from './settings.js';

/** What both kinds know about a cell before any draw: C, n, ε and the analytic bounds. */
export interface RespirCellFacts {
  population: CandidatePopulation;
  auditSetSize: number;
  tolerance: number;
  /** d_C,true on the metric's rows. */
  candidateGap: number;
  /** Expected count of the metric's rows per group in S. */
  expectedAuditEligible: [number, number];
  proposition1Flips: number;
  theorem1Flips: number;
  theorem1BestEffort: boolean;
  theorem4Flips: number;
  theorem4BestEffort: boolean;
}

function cellFacts(settings: RespirCommonSettings, origin: SettingsOrigin): RespirCellFacts {
  const population = loadCandidatePopulation(settings, origin);
  const auditSetSize = resolvedAuditSetSize(settings, population, origin.configFile);
  const [e0, e1] = population.eligibleSizes;
  const candidateGap = population.eligiblePositives[1] / e1 - population.eligiblePositives[0] / e0;
  const tolerance = resolvedTolerance(settings, candidateGap);
  const expected = expectedAuditEligible(population, auditSetSize, settings.design);
  const failure = 1 - settings.passProbability;
  const auditMinority = Math.min(expected[0], expected[1]);
  const theorem1 = respirFlipBound(candidateGap, tolerance, failure, auditMinority, Math.min(e0, e1));
  const theorem4 = finitePopulationFlipBound(candidateGap, tolerance, failure, {
    auditGroupSizes: expected,
    candidateGroupSizes: population.eligibleSizes,
  });
  return {
    population,
    auditSetSize,
    tolerance,
    candidateGap,
    expectedAuditEligible: expected,
    proposition1Flips: vanillaFlipBound(candidateGap, tolerance, auditMinority),
    theorem1Flips: theorem1.flips,
    theorem1BestEffort: theorem1.bestEffort,
    theorem4Flips: theorem4.flips,
    theorem4BestEffort: theorem4.bestEffort,
  };
}

/**
 * The audit a cell simulates, before any manipulation: C, n, the sampling design and
 * sampler, ε from the facts, and `canaries` canaries of the given effectiveness.
 */
function unmanipulatedAudit(
  facts: RespirCellFacts,
  settings: RespirCommonSettings,
  canaries: number,
  canaryEffectiveness: number,
): Omit<ObliviousAuditSetup, 'manipulation'> {
  return {
    population: facts.population,
    auditSetSize: facts.auditSetSize,
    design: settings.design,
    sampler: settings.sampler,
    tolerance: facts.tolerance,
    canaries,
    canaryEffectiveness,
  };
}

const factColumns: readonly OutcomeColumn[] = [
  { name: 'candidate_gap', type: 'float64', description: "d_C,true: the gap of C's metric rows before manipulation." },
  {
    name: 'tolerance',
    type: 'float64',
    description: 'ε, the audit tolerance (given, or (1 − hideFraction)·|d_C,true|).',
  },
  { name: 'audit_set_size', type: 'int32', description: 'n = |S|.' },
  {
    name: 'candidate_minority',
    type: 'int32',
    description: "N_min (N⁺_min for eo): the smaller group's metric rows in C.",
  },
  {
    name: 'proposition1_flips',
    type: 'int32',
    description: 'Proposition 1 (vanilla) with the expected n_min: flips on S that suffice to pass.',
  },
  {
    name: 'theorem1_flips',
    type: 'int32',
    description:
      'Theorem 1 (respir) with the expected n_min: flips on C that suffice to pass with probability ≥ 1 − δ (a ' +
      'sufficient condition, not the fewest a provider needs); best effort when ε < γ.',
  },
  { name: 'theorem1_best_effort', type: 'int32', description: '1 when Theorem 1 is best effort (ε − γ < 0).' },
  {
    name: 'theorem4_flips',
    type: 'int32',
    description: 'Theorem 4 (finite-population refinement) with the expected group counts: sufficient, like Theorem 1.',
  },
  { name: 'theorem4_best_effort', type: 'int32', description: '1 when Theorem 4 is best effort (ε − γ_FPC < 0).' },
];

function factValues(facts: RespirCellFacts) {
  return {
    candidate_gap: facts.candidateGap,
    tolerance: facts.tolerance,
    audit_set_size: facts.auditSetSize,
    candidate_minority: Math.min(facts.population.eligibleSizes[0], facts.population.eligibleSizes[1]),
    proposition1_flips: facts.proposition1Flips,
    theorem1_flips: facts.theorem1Flips,
    theorem1_best_effort: facts.theorem1BestEffort ? 1 : 0,
    theorem4_flips: facts.theorem4Flips,
    theorem4_best_effort: facts.theorem4BestEffort ? 1 : 0,
  };
}

/** The prepared context of a `respir` cell: the facts, the manipulation, and a simulation reused by every draw. */
export interface RespirContext {
  facts: RespirCellFacts;
  planned: PlannedManipulation;
  simulation: ObliviousAuditSimulation;
  constants: Record<string, number>;
}

const drawColumns: readonly OutcomeColumn[] = [
  { name: 'passed', type: 'int32', description: '1 when |d_S| ≤ ε after the respir manipulation.' },
  {
    name: 'audit_gap',
    type: 'float64',
    description: 'd_S after the respir manipulation (NaN when a group is absent from S).',
  },
  { name: 'true_audit_gap', type: 'float64', description: 'd_S before any manipulation.' },
  {
    name: 'audit_minority',
    type: 'int32',
    description: "n_min (n⁺_min for eo): the smaller group's metric rows in S.",
  },
  { name: 'flipped_in_audit', type: 'int32', description: 'Rows of S whose output the respir provider flipped.' },
  { name: 'detected', type: 'int32', description: '1 when a canary caught the respir manipulation.' },
  {
    name: 'vanilla_flips',
    type: 'int32',
    description: 'Fewest flips on S passing the vanilla audit (−1 when none does).',
  },
  { name: 'vanilla_detected', type: 'int32', description: '1 when a canary caught the vanilla manipulation.' },
  { name: 'flips', type: 'int32', description: "The respir provider's flips on C." },
  { name: 'manipulated_gap', type: 'float64', description: 'd_C after the respir manipulation.' },
  {
    name: 'best_effort',
    type: 'int32',
    description: "1 when the manipulation could not reach its target gap (the provider's best effort).",
  },
  { name: 'pass_target', type: 'float64', description: '1 − δ.' },
  { name: 'eq3_respir', type: 'float64', description: 'Eq. 3 with the respir flips over N.' },
  { name: 'eq3_vanilla', type: 'float64', description: 'Eq. 3 with the Proposition 1 flips over n.' },
];

/**
 * The `respir` experiment kind (paper B): each replicate draws one audit set S ⊂ C
 * (uniform or stratified), plants k canaries among its rows, and records whether the
 * respir audit passes after the provider's blind manipulation of C, whether a canary
 * caught it, and the vanilla provider's flips on the same S and their detection;
 * each row also carries the cell's analytic bounds (Proposition 1, Theorems 1 and 4,
 * Eq. 3) so the summary sets simulation and theory side by side.
 */
export const respirRunner: KindRunner<RespirSettings, RespirContext> = {
  name: 'respir',
  module: import.meta.url,
  description: 'Oblivious (respir) vs vanilla audits under output-flipping manipulation, with canaries (paper B).',
  settings: respirSettingsSchema,
  outcomeColumns: [...drawColumns, ...factColumns],
  contextKey: (settings) => canonicalJson(settings),
  async prepare(settings, origin) {
    const facts = cellFacts(settings, origin);
    const plan: ManipulationPlan = settings.manipulation === 'flips' ? settings.flips : settings.manipulation;
    const planned = planRespirManipulation(
      facts.population,
      plan,
      facts.tolerance,
      settings.passProbability,
      facts.auditSetSize,
      settings.design,
    );
    const simulation = prepareObliviousAudit({
      ...unmanipulatedAudit(facts, settings, settings.canaries, settings.canaryEffectiveness),
      manipulation: planned.manipulation,
    });
    const total = facts.population.groupSizes[0] + facts.population.groupSizes[1];
    const constants = {
      ...factValues(facts),
      flips: planned.manipulation.flips,
      manipulated_gap: planned.manipulation.gap,
      best_effort: planned.bestEffort ? 1 : 0,
      pass_target: settings.passProbability,
      eq3_respir: detectionProbability(
        planned.manipulation.flips,
        total,
        settings.canaryEffectiveness,
        settings.canaries,
      ),
      eq3_vanilla: detectionProbability(
        facts.proposition1Flips,
        facts.auditSetSize,
        settings.canaryEffectiveness,
        settings.canaries,
      ),
    };
    return { facts, planned, simulation, constants };
  },
  runReplicate(context, _settings, random: Random) {
    const outcome = drawObliviousAudit(context.simulation, random);
    return {
      passed: outcome.respirPassed ? 1 : 0,
      audit_gap: outcome.respirGap,
      true_audit_gap: outcome.trueGap,
      audit_minority: outcome.auditMinority,
      flipped_in_audit: outcome.flippedInAudit,
      detected: outcome.respirDetected ? 1 : 0,
      vanilla_flips: outcome.vanillaFlips,
      vanilla_detected: outcome.vanillaDetected ? 1 : 0,
      ...context.constants,
    };
  },
  labelOf: (key, value) => {
    if (key === 'candidates' && typeof value === 'object' && value !== null && 'name' in value) {
      return String((value as { name: unknown }).name);
    }
    return undefined;
  },
  rowProblem: respirRowProblem,
};

export const respirMinimalFlipsSettingsSchema = schema.object(
  {
    ...respirSettingsProperties,
    drawsPerStep: schema.integer({
      minimum: 10,
      default: 2000,
      description: 'Audit-set draws per flip count tried by the bisection (the same draws for every count).',
    }),
  },
  {
    description: 'Settings of a respir-minimal-flips cell: one replicate is one bisection over the flip count.',
    check: respirSettingsProblem,
  },
);

export type RespirMinimalFlipsSettings = Infer<typeof respirMinimalFlipsSettingsSchema>;

const minimalColumns: readonly OutcomeColumn[] = [
  {
    name: 'minimal_flips',
    type: 'int32',
    description: 'Fewest flips on C whose estimated pass rate reaches 1 − δ (−1: unreachable).',
  },
  { name: 'minimal_flips_pass_rate', type: 'float64', description: 'Estimated pass rate at minimal_flips.' },
  {
    name: 'maximum_useful_flips',
    type: 'int32',
    description:
      "The bisection's upper end: the best effort's flips (|d_C| to zero within half the finest flip step, one " +
      "group's direction). Not an upper bound on what a provider needs: where ε is below sampling noise the " +
      'strongest ' +
      'adversary thins positives instead (exact_minimal_flips).',
  },
  {
    name: 'exact_minimal_flips',
    type: 'int32',
    description:
      'The exact fewest flips on C passing with probability ≥ 1 − δ against the strongest adversary ' +
      '(exactMinimalFlips: hypergeometric law of S, either group, either direction); the certified upper end ' +
      'when the ' +
      'search budget ran out (exact_minimal_flips_certified 0); 0 when |d_C| ≤ ε; −1 when unreachable. The same for ' +
      'every replicate of a cell.',
  },
  {
    name: 'exact_minimal_flips_certified',
    type: 'int32',
    description:
      '1 when exact_minimal_flips is the certified minimum, 0 when it is the upper end of a certified bracket.',
  },
  { name: 'bisection_steps', type: 'int32', description: 'Flip counts tried.' },
  { name: 'pass_target', type: 'float64', description: '1 − δ.' },
];

/**
 * The `respir-minimal-flips` kind (paper B, the check the paper lacks): each replicate
 * estimates, by bisection over the flip count with drawsPerStep audit-set draws per
 * count, the fewest flips on C that pass the respir audit with probability 1 − δ,
 * next to Theorem 1's and Theorem 4's counts (sufficient conditions) and the exact
 * minimum against the strongest adversary (exactMinimalFlips, once per cell in prepare).
 */
/** A minimal-flips cell: the facts and the exact minimum, computed once per cell. */
interface MinimalFlipsCell extends RespirCellFacts {
  exact: ExactMinimalFlips;
}

export const respirMinimalFlipsRunner: KindRunner<RespirMinimalFlipsSettings, MinimalFlipsCell> = {
  name: 'respir-minimal-flips',
  module: import.meta.url,
  description:
    'Empirical fewest flips passing a respir audit with probability 1 − δ, beside Theorems 1 and 4 (paper B).',
  settings: respirMinimalFlipsSettingsSchema,
  outcomeColumns: [...minimalColumns, ...factColumns],
  contextKey: (settings) => canonicalJson(settings),
  async prepare(settings, origin) {
    const facts = cellFacts(settings, origin);
    const exact = exactMinimalFlips({
      population: facts.population,
      auditSetSize: facts.auditSetSize,
      design: settings.design,
      tolerance: facts.tolerance,
      passProbability: settings.passProbability,
    });
    return { ...facts, exact };
  },
  runReplicate(facts, settings, random: Random) {
    const seed = String(Math.floor(random() * 2 ** 52));
    // No canaries: the bisection asks only whether the manipulated audit passes.
    const result = minimalPassingFlips(
      unmanipulatedAudit(facts, settings, 0, 0),
      settings.passProbability,
      settings.drawsPerStep,
      seed,
    );
    return {
      minimal_flips: result.flips,
      minimal_flips_pass_rate: result.passRate,
      maximum_useful_flips: result.maximumUsefulFlips,
      exact_minimal_flips: facts.exact.reachable ? (facts.exact.flips ?? (facts.exact.upperBound as number)) : -1,
      exact_minimal_flips_certified: facts.exact.exact ? 1 : 0,
      bisection_steps: result.steps,
      pass_target: settings.passProbability,
      ...factValues(facts),
    };
  },
  labelOf: respirRunner.labelOf,
  rowProblem: respirMinimalFlipsRowProblem,
};
