import { inputError } from '../util/errors.js';
import { createRandom, deriveSeed } from '../util/random.js';
import { validateInput } from '../util/schema.js';
import { type AuditPoolSettings, auditPoolSettingsSchema, withDefaultTest } from './audit-pool.js';
import { type Verdict, verdictOf, verdictText } from './audit-verdict.js';
import { createMultiGroupTest } from './create-multi-group-test.js';
import { type GroupRateOracle, groupRateOracle } from './group-oracle.js';
import type { FairnessMetric } from './metric.js';
import { type MultiGroupAuditResult, multiGroupRows, runMultiGroupAudit } from './multi-group-audit.js';
import { type AuditPool, groupCountOf } from './pool.js';
import type { SequentialDecision } from './sequential-audit.js';

/** What `fairaudit audit` reports for a pool of named groups (src/audit/audit-output-schema.ts, multi-group shape). */
export interface MultiGroupAuditSummary {
  readonly metric: FairnessMetric;
  readonly access: 'decision' | 'score';
  readonly groups: number;
  readonly groupNames: readonly string[];
  /** The minimum-size rule and the groups it excluded, when one was asked for. */
  readonly groupSizeRule?: AuditPool['groupSizeRule'];
  /** Rows of the metric's pool. */
  readonly poolSize: number;
  /** Each group's rows, decision-1 rows, rate and impact ratio on the metric's pool; max − min and min / max. */
  readonly oracle: GroupRateOracle;
  /** The oracle's decision: the max − min difference of decision rates against δ. */
  readonly oracleDecision: 'reject' | 'accept';
  readonly hypothesis: string;
  readonly guarantee: string;
  /** The K-group test that ran: betting (anytime-valid) or wald-glr. */
  readonly test: 'betting' | 'wald-glr';
  readonly tolerance: number;
  readonly budget: number;
  readonly alpha: number;
  readonly beta: number;
  readonly order: 'random';
  readonly seed: string;
  readonly replicates: number;
  /** One replicate: its decision, verdict in words and queries. */
  readonly decision?: SequentialDecision;
  readonly verdict?: Verdict;
  readonly verdictText?: string;
  readonly queries?: number;
  /** Several replicates: the counts of their decisions and the mean queries. */
  readonly decisions?: { readonly reject: number; readonly accept: number; readonly inconclusive: number };
  readonly meanQueries?: number;
}

/** H0 over K groups in words: "H0 max − min of SP over 10 groups ≤ 0.05" (of mean scores with score access). */
export function multiGroupHypothesisText(metric: FairnessMetric, access: string, groups: number, tolerance: number) {
  const what = access === 'score' ? `${metric.toUpperCase()} mean scores` : `${metric.toUpperCase()} rates`;
  return `H0 max − min of the ${what} over ${groups} groups ≤ ${tolerance}`;
}

/** Refuses what the K-group audit does not run, naming the setting (name(key): a flag on the CLI). */
function checkMultiGroupSettings(valid: AuditPoolSettings, name: (key: string) => string): void {
  const refuse = (key: string, expected: string, found: unknown) => {
    throw inputError({ where: `${name(key)} (a pool of named groups)`, expected, found });
  };
  if (valid.test !== 'betting' && valid.test !== 'wald-glr') {
    refuse(
      'test',
      "betting (the anytime-valid K-group test, the default) or wald-glr (paper A's thresholds)",
      valid.test,
    );
  }
  if (valid.access !== 'decision' && valid.access !== 'score') refuse('access', 'decision or score', valid.access);
  if (valid.order !== 'random') refuse('order', 'random', valid.order);
}

/**
 * auditMultiGroupPool(pool, settings, name) audits a pool of named groups (K ≥ 2, e.g.
 * race × sex) for H0: max_g θ_g − min_g θ_g ≤ δ, θ_g the group's SP or EO rate of decisions
 * (or mean score), with the anytime-valid K-group betting test (createMultiGroupTest):
 * `replicates` seeded audits (replicate r's random order from deriveSeed(seed, r)), the
 * oracle over all groups (rates, impact ratios, max − min, min / max) and the verdict in
 * words with its guarantee. Throws InputError for bad settings, a test other than betting,
 * logit access, an order other than random, or a group without rows of the metric. O(rows
 * + replicates · min(budget, rows) · K).
 * @param pool a pool with groupNames
 * @param settings auditPool's settings
 * @param name turns a settings key into the words of a message
 * @returns the summary `fairaudit audit --json` prints for K groups
 * @example auditMultiGroupPool(readPoolFile('p.csv', { columns: { groups: 'sex,race' } }), { seed: '1' })
 */
export function auditMultiGroupPool(
  pool: AuditPool,
  settings: Partial<AuditPoolSettings> = {},
  name: (key: string) => string = (key) => `auditPool: ${key}`,
): MultiGroupAuditSummary {
  const valid = validateInput(withDefaultTest(settings), auditPoolSettingsSchema, (path) =>
    path.length === 0 ? name('settings') : name(path.map(String).join('.')),
  );
  checkMultiGroupSettings(valid, name);
  const access = valid.access as 'decision' | 'score';
  const observed = access === 'decision' ? pool.decision : pool.score;
  if (observed === null) {
    throw inputError({
      where: `${pool.source}: column "score"`,
      expected: 'a score column for score access',
      found: 'none',
    });
  }
  const rows = multiGroupRows(pool, valid.metric, observed);
  const { test, guarantee } = createMultiGroupTest({
    groupSizes: rows.groupSizes,
    test: valid.test as 'betting' | 'wald-glr',
    access,
    aggregation: 'difference',
    tolerance: valid.tolerance,
    alpha: valid.alpha,
    beta: valid.beta,
  });
  const results: MultiGroupAuditResult[] = [];
  for (let r = 0; r < valid.replicates; r++) {
    results.push(runMultiGroupAudit(rows, test, valid.budget, createRandom(deriveSeed(valid.seed as string, r))));
  }
  const oracle = groupRateOracle(pool, valid.metric);
  const groups = groupCountOf(pool);
  const hypothesis = multiGroupHypothesisText(valid.metric, access, groups, valid.tolerance);
  const common = {
    metric: valid.metric,
    access,
    groups,
    groupNames: pool.groupNames ?? ['0', '1'],
    ...(pool.groupSizeRule === undefined ? {} : { groupSizeRule: pool.groupSizeRule }),
    poolSize: rows.group.length,
    oracle,
    // Rounded to 12 decimals, so a difference that is δ in decimals is not a violation by a rounding error.
    oracleDecision: Number(oracle.difference.toFixed(12)) > valid.tolerance ? ('reject' as const) : ('accept' as const),
    hypothesis,
    guarantee,
    test: valid.test as 'betting' | 'wald-glr',
    tolerance: valid.tolerance,
    budget: valid.budget,
    alpha: valid.alpha,
    beta: valid.beta,
    order: 'random' as const,
    seed: valid.seed as string,
    replicates: valid.replicates,
  };
  if (valid.replicates === 1) {
    const [only] = results;
    const verdict = verdictOf(only.decision);
    return {
      ...common,
      decision: only.decision,
      verdict,
      verdictText: verdictText(verdict, hypothesis, only.queries, guarantee),
      queries: only.queries,
    };
  }
  const count = (decision: SequentialDecision) => results.filter((result) => result.decision === decision).length;
  const meanQueries = results.reduce((sum, result) => sum + result.queries, 0) / results.length;
  return {
    ...common,
    decisions: { reject: count('reject'), accept: count('accept'), inconclusive: count('inconclusive') },
    meanQueries: Number(meanQueries.toFixed(3)),
  };
}
