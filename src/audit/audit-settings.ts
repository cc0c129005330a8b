import { errorLevelsProblem } from '../stats/thresholds.js';
import { type Infer, schema } from '../util/schema.js';
import { ACCESS_REGIMES, type AccessRegime } from './access-regime.js';
import { FAIRNESS_METRICS } from './metric.js';

const openUnitInterval = { minimum: 0, maximum: 1, exclusiveMinimum: true, exclusiveMaximum: true } as const;

/**
 * The settings of a sequential audit, one vocabulary from YAML (a sequential-audit
 * cell's settings) through the CLI (`fairaudit audit` flags) to the kernel
 * (runSequentialAudit): `tolerance` is always δ, the tolerance on the SP or EO gap of
 * hard decisions; the Gaussian proxy tests of score and logit access use their own
 * tolerances, `scoreTolerance` and `logitTolerance`. This schema is the single source
 * of the type, the validation, the defaults and the documented reference.
 */
export const auditSettingsProperties = {
  metric: schema.enumOf(FAIRNESS_METRICS, {
    default: 'sp',
    description: 'Fairness metric: sp audits the whole pool, eo the rows with label = 1.',
  }),
  access: schema.enumOf(ACCESS_REGIMES, {
    default: 'decision',
    description:
      'What the auditor observes: decision (Bernoulli GLR on decisions, tested against tolerance), score or logit (Gaussian proxy GLR on that column, tested against scoreTolerance or logitTolerance).',
  }),
  tolerance: schema.number({
    ...openUnitInterval,
    default: 0.05,
    description:
      'δ: the tolerance on the SP or EO gap of hard decisions (H0: |gap| ≤ δ); the sequential test of decision access, the oracle and the fixed-sample decision on decisions use it.',
  }),
  scoreTolerance: schema.number({
    ...openUnitInterval,
    default: 0.05,
    description:
      'The proxy tolerance on the group gap of mean scores (score access: its sequential and fixed-sample tests). Paper A does not state it; the default equals δ.',
  }),
  logitTolerance: schema.number({
    minimum: 0,
    exclusiveMinimum: true,
    default: 0.2,
    description:
      'The proxy tolerance on the group gap of mean logits (logit access: its sequential and fixed-sample tests). Paper A does not state it; the default 4δ = 0.2 is δ mapped through the logistic slope 1/4 at p = 0.5.',
  }),
  budget: schema.integer({
    minimum: 1,
    default: 4000,
    description: 'B: the most queries an audit may make; the cap is min(B, pool size).',
  }),
  alpha: schema.number({
    ...openUnitInterval,
    default: 0.05,
    description: 'Nominal type I error; the upper threshold is log((1 − β)/α).',
  }),
  beta: schema.number({
    ...openUnitInterval,
    default: 0.2,
    description: 'Nominal type II error; the lower threshold is log(β/(1 − α)).',
  }),
  minimumPerGroup: schema.optional(
    schema.integer({
      minimum: 1,
      description:
        'The test starts once each group has this many observations (default 1, as in paper A); 5-10 cut the early false rejects of score and logit access (docs/core.md).',
    }),
  ),
};

/** The rule across keys: alpha and beta must leave the thresholds apart (errorLevelsProblem). */
export function auditSettingsProblem(value: Record<string, unknown>) {
  return errorLevelsProblem(value.alpha as number, value.beta as number);
}

/** The settings of an audit of one pool (no pool: see the sequential-audit kind and auditPool). */
export const auditSettingsSchema = schema.object(auditSettingsProperties, {
  description: 'Settings of a sequential audit.',
  check: auditSettingsProblem,
});

/** A validated audit's settings: every key but minimumPerGroup has a value (defaults filled in). */
export type AuditSettings = Infer<typeof auditSettingsSchema>;

/**
 * toleranceOfAccess(settings, access) is the tolerance the sequential and fixed-sample
 * tests of an access regime use: δ (tolerance) for decisions, scoreTolerance for
 * scores, logitTolerance for logits. O(1).
 */
export function toleranceOfAccess(
  settings: Pick<AuditSettings, 'tolerance' | 'scoreTolerance' | 'logitTolerance'>,
  access: AccessRegime,
): number {
  if (access === 'score') return settings.scoreTolerance;
  if (access === 'logit') return settings.logitTolerance;
  return settings.tolerance;
}
