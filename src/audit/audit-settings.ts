import { errorLevelsProblem } from '../stats/thresholds.js';
import { type Infer, schema } from '../util/schema.js';
import { MAX_CALIBRATION_BASE_RATES, MAX_CALIBRATION_PATHS, MAX_POOL_ROWS } from '../util/size-limits.js';
import { ACCESS_REGIMES, type AccessRegime } from './access-regime.js';
import { TEST_NAMES, type TestSettingsInput, testSettingsProblem } from './audit-test.js';
import { FAIRNESS_METRICS } from './metric.js';
import { SHUFFLED_QUERY_ORDERS } from './query-order.js';

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
    description:
      'Fairness metric: sp audits the whole pool, eo the rows with label = 1 (pe and eodds: `fairaudit audit` on ' +
      'pools of named groups).',
  }),
  access: schema.enumOf(ACCESS_REGIMES, {
    default: 'decision',
    description:
      'What the auditor observes: decision (Bernoulli GLR on decisions, tested against tolerance), score or ' +
      'logit (Gaussian proxy GLR on that column, tested against scoreTolerance or logitTolerance).',
  }),
  tolerance: schema.number({
    ...openUnitInterval,
    default: 0.05,
    description:
      'δ: the tolerance on the SP or EO gap of hard decisions (H0: |gap| ≤ δ); the sequential test of decision ' +
      'access, the oracle and the fixed-sample decision on decisions use it.',
  }),
  scoreTolerance: schema.number({
    ...openUnitInterval,
    default: 0.05,
    description:
      'The proxy tolerance on the group gap of mean scores (score access: its sequential and fixed-sample ' +
      'tests). Paper A does not state it; the default equals δ.',
  }),
  logitTolerance: schema.number({
    minimum: 0,
    exclusiveMinimum: true,
    default: 0.2,
    description:
      'The proxy tolerance on the group gap of mean logits (logit access: its sequential and fixed-sample ' +
      'tests). Paper A does not state it; the default 4δ = 0.2 is δ mapped through the logistic slope 1/4 at p = 0.5.',
  }),
  budget: schema.integer({
    minimum: 1,
    maximum: MAX_POOL_ROWS,
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
      maximum: MAX_POOL_ROWS,
      description:
        'The test starts once each group has this many observations (default 1, as in paper A; 5 for ' +
        'calibrated-glr with score or logit access); 5-10 cut the early false rejects of score and logit access ' +
        '(docs/core.md).',
    }),
  ),
  test: schema.optional(
    schema.enumOf(TEST_NAMES, {
      description:
        "The sequential test (docs/error-control.md): wald-glr (paper A's GLR with Wald's thresholds; the " +
        'default; calibrated-glr when thresholds is calibrated, given-thresholds when it is {upper, lower}), ' +
        'calibrated-glr (the GLR with Monte Carlo calibrated thresholds, from a calibration record of this setting), ' +
        'given-thresholds (the GLR with thresholds given by hand: no error guarantee), ' +
        'betting (anytime-valid testing by betting), confidence-sequence (anytime-valid, weaker; ' +
        'reports a gap interval).',
    }),
  ),
  thresholds: schema.optional(
    schema.oneOf(
      [
        schema.enumOf(['wald', 'calibrated'], {
          description:
            "wald: paper A's log((1 − β)/α), log(β/(1 − α)); calibrated: from the calibration cache (computed " +
            'when missing).',
        }),
        schema.object(
          {
            upper: schema.number({ description: 'Reject once the signed GLR is at or above this (> 0).' }),
            lower: schema.number({ description: 'Accept once the signed GLR is at or below this (< 0).' }),
          },
          { description: 'Given thresholds (test given-thresholds: no error guarantee for this setting).' },
        ),
      ],
      {
        description:
          "The GLR tests' stopping thresholds: wald (paper A's, the default), calibrated (Monte Carlo calibrated " +
          'for this setting, cached by fingerprint; `fairaudit calibrate` computes them ahead) ' +
          'or {upper, lower} (test given-thresholds).',
      },
    ),
  ),
  order: schema.optional(
    schema.enumOf(SHUFFLED_QUERY_ORDERS, {
      description:
        'The query order: random (uniform without replacement, paper A; the default) or balanced (the groups ' +
        'alternate, each in random order; once one is exhausted the other continues).',
    }),
  ),
  logitBounds: schema.optional(
    schema.object(
      {
        lower: schema.number({ description: 'The smallest logit the model can output.' }),
        upper: schema.number({ description: 'The largest logit the model can output.' }),
      },
      {
        description:
          'Declared bounds of the logits, needed by the betting and confidence-sequence tests with logit access ' +
          '(logits are rescaled to [0, 1]; a logit outside the bounds stops the audit).',
      },
    ),
  ),
  calibration: schema.optional(
    schema.object(
      {
        paths: schema.integer({
          minimum: 100,
          maximum: MAX_CALIBRATION_PATHS,
          default: 4000,
          description: 'Simulated audits per calibration pool (tuning; as many again per certification round).',
        }),
        seed: schema.seed({
          default: 'calibrate',
          description: "Seed of the calibration's simulations (chunk seeds derive from it).",
        }),
        confidence: schema.number({
          ...openUnitInterval,
          default: 0.95,
          description: 'Monte Carlo confidence of the certificate, simultaneous over the calibration pools and rounds.',
        }),
        baseRates: schema.optional(
          schema.array(schema.number({ minimum: 0, maximum: 1, description: 'A fraction of [0, 1 − δ].' }), {
            minItems: 1,
            maxItems: MAX_CALIBRATION_BASE_RATES,
            description:
              "Decision access: where group a's rate sits in the simulated pools, as fractions of [0, 1 − δ] " +
              '(default 0, 0.01, 0.03, 0.1, 0.2, …, 0.9, 0.97, 0.99, 1); ' +
              'the supremum over the composite null is taken over these.',
          }),
        ),
      },
      { description: "How thresholds: calibrated is calibrated (the defaults are `fairaudit calibrate`'s)." },
    ),
  ),
};

/**
 * The rules across keys: alpha and beta must leave the thresholds apart
 * (errorLevelsProblem), and the keys that choose the test must fit together
 * (testSettingsProblem).
 */
export function auditSettingsProblem(value: Record<string, unknown>) {
  return (
    errorLevelsProblem(value.alpha as number, value.beta as number) ??
    testSettingsProblem(value as unknown as TestSettingsInput)
  );
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
