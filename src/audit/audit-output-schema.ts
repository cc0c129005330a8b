import { schema } from '../util/schema.js';
import { ACCESS_REGIMES } from './access-regime.js';
import { TEST_NAMES } from './audit-test.js';
import { VERDICTS } from './audit-verdict.js';
import { FAIRNESS_METRICS, GROUP_METRICS } from './metric.js';

/**
 * The schema of `fairaudit audit --json` (and of auditPool's summary, plus `pool`): one
 * object per run, of the single-audit shape when replicates is 1 and of the repeated shape
 * otherwise. Every gap is group b minus group a. A test validates real output against it,
 * and docs/audit-output.md is generated from it (`fairaudit audit --json-schema`).
 */
/** The three decisions of a fixed-sample or sequential test. */
const FIXED_DECISIONS = ['reject', 'accept', 'inconclusive'] as const;

const decisionCounts = (what: string) =>
  schema.object(
    {
      reject: schema.integer({ minimum: 0, description: 'Audits that rejected H0 (a violation).' }),
      accept: schema.integer({ minimum: 0, description: 'Audits that accepted H0 (compliance).' }),
      inconclusive: schema.integer({ minimum: 0, description: 'Audits that reached neither.' }),
    },
    { description: what },
  );

const numberOrText = (description: string) =>
  schema.oneOf(
    [
      schema.number({ description: 'A finite number.' }),
      schema.enumOf(['Infinity', '-Infinity'], { description: 'An infinite value as text.' }),
    ],
    { description },
  );

const commonProperties = {
  metric: schema.enumOf(FAIRNESS_METRICS, { description: 'The fairness metric audited.' }),
  access: schema.enumOf(ACCESS_REGIMES, { description: 'What the auditor observed.' }),
  poolSize: schema.integer({
    minimum: 0,
    description: "Rows of the metric's pool (all rows for sp, label = 1 for eo).",
  }),
  groupCounts: schema.object(
    {
      a: schema.integer({ minimum: 0, description: 'Rows of group a.' }),
      b: schema.integer({ minimum: 0, description: 'Rows of group b.' }),
    },
    { description: "The metric pool's rows by group." },
  ),
  oracleGap: schema.number({ description: 'The hard-decision gap on the whole pool, b − a (6 decimals).' }),
  oracleDecision: schema.enumOf(FIXED_DECISIONS, {
    description: "The oracle's decision: |oracleGap| against tolerance.",
  }),
  proxyGap: schema.optional(
    schema.number({ description: 'Score or logit access: the mean gap on the whole pool, b − a.' }),
  ),
  hypothesis: schema.string({ description: 'The null hypothesis tested, in words, e.g. "H0 |SP gap| ≤ 0.05".' }),
  guarantee: schema.string({ description: "The guarantee behind the test's verdicts, or that there is none." }),
  continuation: schema.optional(
    schema.string({
      description: 'An inconclusive audit with rows left: how it may be continued under its guarantee, or why not.',
    }),
  ),
  tolerance: schema.number({ description: 'δ, the tolerance on the hard-decision gap.' }),
  scoreTolerance: schema.optional(schema.number({ description: 'Score access: the proxy tolerance.' })),
  logitTolerance: schema.optional(schema.number({ description: 'Logit access: the proxy tolerance.' })),
  budget: schema.integer({ minimum: 1, description: 'B, the most queries per audit.' }),
  alpha: schema.number({ description: 'The level of false violations.' }),
  beta: schema.number({ description: 'The level of false compliance.' }),
  minimumPerGroup: schema.integer({ minimum: 1, description: 'The start rule in force.' }),
  test: schema.enumOf(TEST_NAMES, { description: 'The sequential test that ran.' }),
  upperThreshold: schema.optional(
    schema.number({ description: 'GLR tests: reject once the signed GLR reaches this.' }),
  ),
  lowerThreshold: schema.optional(
    schema.number({ description: 'GLR tests: accept once the signed GLR falls to this.' }),
  ),
  calibration: schema.optional(
    schema.object(
      {
        fingerprint: schema.string({ description: "The calibration's cache fingerprint." }),
        cached: schema.boolean({ description: 'Whether it came from the cache.' }),
        upperInterval: schema.array(
          schema.nullable(schema.number({ description: 'An end (null: beyond the grid).' })),
          {
            minItems: 2,
            maxItems: 2,
            description: "Monte Carlo interval of the upper threshold's crossing.",
          },
        ),
        lowerInterval: schema.array(
          schema.nullable(schema.number({ description: 'An end (null: beyond the grid).' })),
          {
            minItems: 2,
            maxItems: 2,
            description: "Monte Carlo interval of the lower threshold's crossing.",
          },
        ),
        price: schema.array(schema.object({}, { open: true, description: 'One price point.' }), {
          description: 'The price at the calibrated thresholds (as `fairaudit calibrate --json` gives it).',
        }),
      },
      { description: 'Calibrated thresholds: the calibration used.' },
    ),
  ),
  order: schema.enumOf(['random', 'balanced', 'given'], { description: 'The query order.' }),
  seed: schema.optional(schema.string({ description: 'The seed of the query order.' })),
  pool: schema.optional(
    schema.oneOf(
      [
        schema.string({ description: 'The pool file.' }),
        schema.object(
          { synthetic: schema.object({}, { open: true, description: 'The --synthetic recipe as given.' }) },
          { description: 'A generated pool.' },
        ),
      ],
      { description: 'fairaudit audit: the pool file, or {synthetic: recipe}.' },
    ),
  ),
};

/** `fairaudit audit --json` with one replicate: the audit's verdict and evidence. */
export const singleAuditOutputSchema = schema.object(
  {
    ...commonProperties,
    replicates: schema.integer({ minimum: 1, maximum: 1, description: 'Always 1 in this shape.' }),
    decision: schema.enumOf(['reject', 'accept', 'inconclusive'], { description: 'The sequential decision on H0.' }),
    verdict: schema.enumOf(VERDICTS, { description: 'The decision in words: reject is violation, accept compliant.' }),
    verdictText: schema.string({ description: 'The verdict in a sentence, with H0, the queries and the guarantee.' }),
    queries: schema.integer({ minimum: 0, description: 'Queries the audit made.' }),
    statistic: schema.optional(numberOrText('GLR tests: the final signed GLR.')),
    logEValue: schema.optional(numberOrText('Betting test: log of its e-value against H0 (rejects at log(1/alpha)).')),
    fixedDecision: schema.nullable(
      schema.enumOf(FIXED_DECISIONS, { description: 'The fixed-sample decision on the same rows (null: none).' }),
    ),
    fixedSamples: schema.integer({ minimum: 0, description: 'Rows of the fixed-sample decision: min(B, pool size).' }),
    fixedGap: schema.nullable(schema.number({ description: 'The gap on those rows, b − a (null: a group absent).' })),
    gapInterval: schema.optional(
      schema.array(schema.number({ description: 'An end of the interval.' }), {
        minItems: 2,
        maxItems: 2,
        description:
          'Confidence-sequence test: its 1 − alpha interval for the gap (b − a), valid at any stopping time.',
      }),
    ),
  },
  { description: '`fairaudit audit --json`, one replicate.' },
);

/** `fairaudit audit --json` with several replicates: counts of their verdicts. */
export const repeatedAuditOutputSchema = schema.object(
  {
    ...commonProperties,
    replicates: schema.integer({ minimum: 2, description: 'The seeded audits run.' }),
    decisions: decisionCounts('The sequential decisions of the replicates.'),
    meanQueries: schema.number({ description: 'Mean queries per audit.' }),
    stdQueries: schema.number({ description: 'Standard deviation of the queries.' }),
    fixedDecisions: decisionCounts('The fixed-sample decisions (inconclusive: a group absent).'),
    earlyDecisions: schema.object(
      {
        within: schema.integer({ minimum: 1, description: 'The horizon (--early).' }),
        reject: schema.integer({ minimum: 0, description: 'Rejections within it.' }),
        accept: schema.integer({ minimum: 0, description: 'Acceptances within it.' }),
      },
      { description: 'Decisions taken within the first `within` queries.' },
    ),
    fixedSamples: schema.integer({ minimum: 0, description: 'Rows of each fixed-sample decision.' }),
  },
  { description: '`fairaudit audit --json`, several replicates.' },
);

const rateRow = schema.object(
  {
    name: schema.string({ description: 'The group\'s name (an intersection\'s parts joined by " & ").' }),
    rows: schema.integer({ minimum: 0, description: "The group's rows in the metric's pool." }),
    positives: schema.integer({ minimum: 0, description: 'Those with decision 1.' }),
    rate: schema.nullable(schema.number({ description: 'positives / rows (null: no rows).' })),
    impactRatio: schema.nullable(
      schema.number({ description: "rate / the highest group's rate (null: undefined, or the highest is 0)." }),
    ),
  },
  { description: 'One group of the oracle.' },
);

/** The oracle of one rate over K groups. */
function rateOracle(description: string) {
  return schema.object(
    {
      rate: schema.enumOf(['sp', 'eo', 'pe'], { description: 'The rate compared.' }),
      groups: schema.array(rateRow, { description: "Each group's rate and impact ratio." }),
      difference: schema.number({ description: 'max − min of the rates (Fairlearn between_groups difference).' }),
      ratio: schema.nullable(schema.number({ description: 'min / max of the rates (null: the max is 0).' })),
      belowFourFifths: schema.array(schema.string({ description: 'A group.' }), {
        description: 'The groups whose impact ratio is below 0.8 (the four-fifths rule).',
      }),
    },
    { description },
  );
}

/** `fairaudit audit --json` on a pool of named groups (a multi-valued or intersectional group column). */
export const multiGroupAuditOutputSchema = schema.object(
  {
    metric: schema.enumOf(GROUP_METRICS, {
      description: 'The fairness metric audited: sp, eo, pe (false-positive rate) or eodds (TPR and FPR together).',
    }),
    aggregation: schema.enumOf(['difference', 'ratio'], {
      description: 'difference: H0 max − min ≤ tolerance; ratio: H0 min ≥ ratio · max.',
    }),
    ratio: schema.optional(schema.number({ description: 'ρ of the ratio null (aggregation ratio only).' })),
    access: schema.enumOf(['decision', 'score'], { description: 'What the auditor observed.' }),
    groups: schema.integer({ minimum: 2, description: 'K, the number of groups audited.' }),
    groupNames: schema.array(schema.string({ description: 'A name.' }), {
      description: 'The groups, in code order (integers by value, names by code point).',
    }),
    groupSizeRule: schema.optional(
      schema.object(
        {
          rule: schema.string({ description: 'The minimum-size rule in words.' }),
          excluded: schema.array(
            schema.object(
              {
                name: schema.string({ description: 'The group.' }),
                rows: schema.integer({ minimum: 0, description: 'Its rows in the pool as read.' }),
              },
              { description: 'An excluded group.' },
            ),
            { description: 'The groups the rule excluded.' },
          ),
        },
        { description: '--min-group-size / --min-group-share: the rule and the groups it excluded.' },
      ),
    ),
    poolSize: schema.integer({ minimum: 0, description: "Rows of the metric's pool." }),
    oracle: rateOracle('The oracle over all groups, on the whole pool (eodds: the true-positive rate).'),
    falsePositiveOracle: schema.optional(rateOracle('eodds only: the oracle of the false-positive rate.')),
    oracleDecision: schema.enumOf(['reject', 'accept'], {
      description: "The oracle's max − min against tolerance, or min / max against ratio (eodds: either rate).",
    }),
    hypothesis: schema.string({ description: 'H0 in words: "H0 max − min of the SP rates over 10 groups ≤ 0.05".' }),
    guarantee: schema.string({ description: "The K-group test's guarantee in words, or that there is none." }),
    test: schema.enumOf(['betting', 'wald-glr'], {
      description: 'betting: the anytime-valid K-group test (the default); wald-glr: no guarantee.',
    }),
    tolerance: schema.number({ description: 'δ.' }),
    budget: schema.integer({ minimum: 1, description: 'The most queries.' }),
    alpha: schema.number({ description: 'Nominal type I error.' }),
    beta: schema.number({ description: 'Nominal type II error.' }),
    order: schema.enumOf(['random'], { description: 'The query order.' }),
    seed: schema.string({ description: 'The seed of the order.' }),
    replicates: schema.integer({ minimum: 1, description: 'The seeded audits run.' }),
    decision: schema.optional(schema.enumOf(FIXED_DECISIONS, { description: 'One replicate: the decision.' })),
    verdict: schema.optional(schema.enumOf(VERDICTS, { description: 'One replicate: the verdict.' })),
    verdictText: schema.optional(schema.string({ description: 'One replicate: the verdict in a sentence.' })),
    queries: schema.optional(schema.integer({ minimum: 0, description: 'One replicate: queries made.' })),
    decisions: schema.optional(decisionCounts('Several replicates: their decisions.')),
    meanQueries: schema.optional(schema.number({ description: 'Several replicates: mean queries.' })),
    pool: schema.optional(schema.string({ description: 'The pool file.' })),
  },
  { description: '`fairaudit audit --json` on a pool of named groups.' },
);

/**
 * auditOutputSchemaOf(output) is the schema an output of `fairaudit audit --json` follows:
 * the multi-group shape when it has groups, else the single-audit shape when its replicates
 * is 1, the repeated one otherwise. O(1).
 * @param output a parsed --json output
 * @returns singleAuditOutputSchema or repeatedAuditOutputSchema
 * @example validate(output, auditOutputSchemaOf(output))
 */
export function auditOutputSchemaOf(output: { readonly replicates?: unknown; readonly groups?: unknown }) {
  if (output.groups !== undefined) return multiGroupAuditOutputSchema;
  return output.replicates === 1 ? singleAuditOutputSchema : repeatedAuditOutputSchema;
}
