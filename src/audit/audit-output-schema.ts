import { schema } from '../util/schema.js';
import { ACCESS_REGIMES } from './access-regime.js';
import { TEST_NAMES } from './audit-test.js';
import { VERDICTS } from './audit-verdict.js';
import { FAIRNESS_METRICS } from './metric.js';

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

/**
 * auditOutputSchemaOf(output) is the schema an output of `fairaudit audit --json` follows:
 * the single-audit shape when its replicates is 1, the repeated one otherwise. O(1).
 * @param output a parsed --json output
 * @returns singleAuditOutputSchema or repeatedAuditOutputSchema
 * @example validate(output, auditOutputSchemaOf(output))
 */
export function auditOutputSchemaOf(output: { readonly replicates?: unknown }) {
  return output.replicates === 1 ? singleAuditOutputSchema : repeatedAuditOutputSchema;
}
