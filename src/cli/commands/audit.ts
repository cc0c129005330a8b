import type { Argv, CommandModule } from 'yargs';
import { ACCESS_REGIMES, type AccessRegime } from '../../audit/access-regime.js';
import { FAIRNESS_METRICS, type FairnessMetric } from '../../audit/metric.js';
import type { AuditPool } from '../../audit/pool.js';
import { readPoolFile } from '../../audit/pool-io.js';
import { oracleDecision, prepareAudit } from '../../audit/prepare-audit.js';
import {
  checkSequentialAuditSettings,
  runSequentialAudit,
  type SequentialAuditResult,
  type SequentialAuditSettings,
} from '../../audit/sequential-audit.js';
import { summarizeAudits } from '../../audit/summarize-audits.js';
import { generateSyntheticPool, MAX_SYNTHETIC_POOL_SIZE, type SyntheticPoolSpec } from '../../data/synthetic-pool.js';
import { checkTolerance } from '../../stats/check-tolerance.js';
import { sequentialThresholds } from '../../stats/thresholds.js';
import { inputError } from '../../util/errors.js';
import { parseJsonUntrusted } from '../../util/parse-untrusted.js';
import { createRandom, deriveSeed } from '../../util/random.js';

interface AuditArguments {
  pool?: string;
  synthetic?: string;
  early: number;
  metric: FairnessMetric;
  access: AccessRegime;
  tolerance: number;
  'decision-tolerance'?: number;
  budget: number;
  alpha: number;
  beta: number;
  seed?: string;
  order: 'random' | 'given';
  replicates: number;
  'minimum-per-group': number;
  json: boolean;
}

const flagOf = {
  tolerance: '--tolerance',
  budget: '--budget',
  alpha: '--alpha',
  beta: '--beta',
  order: '--order',
  random: '--seed',
  minimumPerGroup: '--minimum-per-group',
} as const;

/**
 * Flags checked by name before any work (yargs reports unknown flags and bad choices only
 * after the handler); a number flag must be a number: yargs turns "abc" into NaN.
 */
function checkNumberFlags(argv: AuditArguments): void {
  if (!FAIRNESS_METRICS.includes(argv.metric)) {
    throw inputError({ where: '--metric', expected: FAIRNESS_METRICS.join(' or '), found: argv.metric });
  }
  if (!ACCESS_REGIMES.includes(argv.access)) {
    throw inputError({ where: '--access', expected: ACCESS_REGIMES.join(', '), found: argv.access });
  }
  for (const flag of ['tolerance', 'budget', 'alpha', 'beta', 'replicates', 'minimum-per-group', 'early'] as const) {
    if (Number.isNaN(argv[flag])) throw inputError({ where: `--${flag}`, expected: 'a number', found: argv[flag] });
  }
  if ((argv.pool === undefined) === (argv.synthetic === undefined)) {
    throw inputError({ where: '--pool / --synthetic', expected: 'exactly one of them', found: argv.pool === undefined ? 'neither' : 'both' });
  }
  if (!(Number.isSafeInteger(argv.early) && argv.early >= 1)) {
    throw inputError({ where: '--early', expected: 'an integer >= 1', found: argv.early });
  }
  if (!(Number.isSafeInteger(argv.replicates) && argv.replicates >= 1)) {
    throw inputError({ where: '--replicates', expected: 'an integer >= 1', found: argv.replicates });
  }
  if (argv.order === 'random' && argv.seed === undefined) {
    throw inputError({ where: '--seed', expected: 'a seed for the random query order (or --order given)', found: undefined });
  }
  if (argv.order === 'given' && argv.replicates > 1) {
    throw inputError({ where: '--replicates', expected: '1 with --order given (every replicate would be the same)', found: argv.replicates });
  }
}

function round(value: number, digits = 6): number {
  return Number.isFinite(value) ? Number(value.toFixed(digits)) : value;
}

/** The keys of a --synthetic recipe (SyntheticPoolSpec): any other key is refused, not ignored. */
const SYNTHETIC_KEYS = ['size', 'groupShare', 'labelRate', 'decisionRate', 'truePositiveRate', 'logitScale', 'seed'] as const;

/**
 * The recipe of --synthetic JSON, checked: a JSON object (parsed without prototypes;
 * `__proto__`, `constructor` and `prototype` refused) with only the keys of
 * SyntheticPoolSpec, each in range; logitScale 1 and seed "audit" unless given.
 * Throws InputError naming --synthetic and the key.
 */
function syntheticRecipeOf(text: string): Record<string, unknown> {
  const recipe = parseJsonUntrusted(text, '--synthetic', 'a JSON object (a synthetic pool recipe)');
  if (typeof recipe !== 'object' || recipe === null || Array.isArray(recipe)) {
    throw inputError({ where: '--synthetic', expected: 'a JSON object (a synthetic pool recipe)', found: text });
  }
  for (const key of Object.keys(recipe)) {
    if (!(SYNTHETIC_KEYS as readonly string[]).includes(key)) {
      throw inputError({ where: `--synthetic: ${key}`, expected: `one of the keys ${SYNTHETIC_KEYS.join(', ')}`, found: `the unknown key ${JSON.stringify(key)}` });
    }
  }
  const spec = { logitScale: 1, seed: 'audit', ...(recipe as Record<string, unknown>) } as Record<string, unknown>;
  const pair = (value: unknown) => Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'number' && v >= 0 && v <= 1);
  const checks: Array<[string, boolean, string]> = [
    [
      'size',
      Number.isSafeInteger(spec.size) && (spec.size as number) >= 2 && (spec.size as number) <= MAX_SYNTHETIC_POOL_SIZE,
      `an integer from 2 to ${MAX_SYNTHETIC_POOL_SIZE}`,
    ],
    ['groupShare', typeof spec.groupShare === 'number' && spec.groupShare > 0 && spec.groupShare < 1, 'a number in (0, 1)'],
    ['labelRate', pair(spec.labelRate), 'two rates in [0, 1] (group a, group b)'],
    ['decisionRate', pair(spec.decisionRate), 'two rates in [0, 1] (group a, group b)'],
    ['truePositiveRate', spec.truePositiveRate === undefined || pair(spec.truePositiveRate), 'two rates in [0, 1] (group a, group b)'],
    ['logitScale', typeof spec.logitScale === 'number' && spec.logitScale > 0 && Number.isFinite(spec.logitScale), 'a positive number'],
    ['seed', typeof spec.seed === 'string', 'a string'],
  ];
  for (const [key, ok, expected] of checks) {
    if (!ok) throw inputError({ where: `--synthetic: ${key}`, expected, found: spec[key] });
  }
  return recipe as Record<string, unknown>;
}

/** The pool a checked --synthetic recipe makes (generateSyntheticPool, src/data/synthetic-pool.ts). */
function syntheticPoolOf(recipe: Record<string, unknown>): AuditPool {
  return generateSyntheticPool({ logitScale: 1, seed: 'audit', ...recipe } as unknown as SyntheticPoolSpec, '--synthetic');
}

/** `fairaudit audit --pool FILE ...`: sequential GLR audits of one pool, with the oracle and fixed-sample decisions. */
export const auditCommand: CommandModule<object, AuditArguments> = {
  command: 'audit',
  describe: 'Run the sequential GLR audit of paper A on a pool file (Arrow IPC or CSV)',
  builder: (yargs: Argv) =>
    yargs
      .option('pool', { type: 'string', describe: 'Pool file: .arrow or CSV with group,label,decision[,score,logit]' })
      .option('synthetic', {
        type: 'string',
        describe:
          'Instead of --pool, a generated pool: JSON {"size","groupShare","labelRate":[a,b],"decisionRate":[a,b],"logitScale"?,"seed"?} (src/data/synthetic-pool.ts)',
      })
      .option('early', { type: 'number', default: 10, describe: 'With --replicates: also count the decisions taken within this many queries' })
      .option('metric', { choices: FAIRNESS_METRICS, default: 'sp' as FairnessMetric, describe: 'sp: all rows; eo: rows with label = 1' })
      .option('access', { choices: ACCESS_REGIMES, default: 'decision' as AccessRegime, describe: 'What the auditor observes' })
      .option('tolerance', { type: 'number', default: 0.05, describe: 'Tolerance of the audited gap (decision: delta; score/logit: operational)' })
      .option('decision-tolerance', { type: 'number', describe: 'delta of the hard-decision oracle (default: --tolerance)' })
      .option('budget', { type: 'number', default: 4000, describe: 'B: most queries; the audit stops at min(B, pool size)' })
      .option('alpha', { type: 'number', default: 0.05, describe: 'Nominal type I error (upper threshold log((1-beta)/alpha))' })
      .option('beta', { type: 'number', default: 0.2, describe: 'Nominal type II error (lower threshold log(beta/(1-alpha)))' })
      .option('seed', { type: 'string', describe: 'Seed of the random query order (replicate r uses deriveSeed(seed, r))' })
      .option('order', { choices: ['random', 'given'] as const, default: 'random' as const, describe: 'random: uniform without replacement; given: the pool order' })
      .option('replicates', { type: 'number', default: 1, describe: 'Run R seeded audits and print their summary' })
      .option('minimum-per-group', {
        type: 'number',
        default: 1,
        describe: 'Start the test once each group has this many observations (paper A: 1; 5-10 cut early false rejects with score/logit access, see docs/core.md)',
      })
      .option('json', { type: 'boolean', default: false, describe: 'Print JSON' })
      .example('$0 audit --pool pool.arrow --metric sp --access decision --tolerance 0.05 --seed 1', '')
      .example('$0 audit --pool pool.csv --metric eo --access score --tolerance 0.03 --seed 1 --replicates 20 --json', '') as unknown as Argv<AuditArguments>,
  handler: (argv) => {
    checkNumberFlags(argv);
    const decisionTolerance = argv['decision-tolerance'] ?? argv.tolerance;
    checkTolerance(decisionTolerance, argv['decision-tolerance'] === undefined ? '--tolerance' : '--decision-tolerance');
    const require = argv.access === 'decision' ? [] : [argv.access];
    const recipe = argv.synthetic === undefined ? undefined : syntheticRecipeOf(argv.synthetic);
    const pool = recipe === undefined ? readPoolFile(argv.pool!, { require }) : syntheticPoolOf(recipe);
    const poolName = argv.pool ?? 'synthetic';
    const prepared = prepareAudit(pool, argv.metric, argv.access);
    const settings: SequentialAuditSettings = {
      tolerance: argv.tolerance,
      budget: argv.budget,
      alpha: argv.alpha,
      beta: argv.beta,
      order: argv.order,
      minimumPerGroup: argv['minimum-per-group'],
    };
    checkSequentialAuditSettings(prepared, settings, argv.order === 'given' ? null : () => 0, (setting) => flagOf[setting]);
    const results: SequentialAuditResult[] = [];
    for (let r = 0; r < argv.replicates; r++) {
      const random = argv.order === 'given' ? null : createRandom(deriveSeed(argv.seed!, r));
      results.push(runSequentialAudit(prepared, settings, random));
    }
    const thresholds = sequentialThresholds(argv.alpha, argv.beta);
    const oracle = {
      oracleGap: round(prepared.oracleGap),
      oracleDecision: oracleDecision(prepared, decisionTolerance),
      decisionTolerance,
      ...(prepared.family === 'gaussian' ? { proxyGap: round(prepared.proxyGap) } : {}),
    };
    const context = {
      pool: argv.pool ?? { synthetic: recipe },
      metric: argv.metric,
      access: argv.access,
      poolSize: prepared.size,
      groupCounts: { a: prepared.countA, b: prepared.countB },
      tolerance: argv.tolerance,
      budget: argv.budget,
      alpha: argv.alpha,
      beta: argv.beta,
      minimumPerGroup: argv['minimum-per-group'],
      upperThreshold: round(thresholds.upper),
      lowerThreshold: round(thresholds.lower),
      ...(argv.order === 'given' ? { order: 'given' } : { seed: argv.seed }),
    };
    if (argv.replicates === 1) {
      const result = results[0];
      const single = {
        decision: result.decision,
        queries: result.queries,
        statistic: Number.isFinite(result.statistic) ? result.statistic : String(result.statistic),
        fixedDecision: result.fixedDecision,
        fixedSamples: result.fixedSamples,
        fixedGap: round(result.fixedGap),
        ...oracle,
        ...context,
      };
      if (argv.json) {
        process.stdout.write(`${JSON.stringify(single)}\n`);
        return;
      }
      process.stdout.write(
        `${poolName}: metric ${argv.metric} (${prepared.size} rows: ${prepared.countA} in group a, ${prepared.countB} in group b), ${argv.access} access\n` +
          `oracle:       hard-decision gap ${prepared.oracleGap.toFixed(4)} -> ${oracle.oracleDecision} at tolerance ${decisionTolerance}` +
          `${prepared.family === 'gaussian' ? ` (proxy ${argv.access} gap ${prepared.proxyGap.toFixed(4)})` : ''}\n` +
          `sequential:   ${result.decision} after ${result.queries} queries (statistic ${result.statistic.toFixed(4)}; thresholds ${thresholds.upper.toFixed(4)}, ${thresholds.lower.toFixed(4)})\n` +
          `fixed-sample: ${result.fixedDecision} on ${result.fixedSamples} rows (gap ${result.fixedGap.toFixed(4)})\n`,
      );
      return;
    }
    const summary = summarizeAudits(results, argv.early);
    if (argv.json) {
      process.stdout.write(
        `${JSON.stringify({
          replicates: summary.replicates,
          decisions: summary.decisions,
          meanQueries: round(summary.meanQueries, 3),
          stdQueries: round(summary.stdQueries, 3),
          fixedDecisions: summary.fixedDecisions,
          earlyDecisions: summary.earlyDecisions,
          fixedSamples: results[0].fixedSamples,
          ...oracle,
          ...context,
        })}\n`,
      );
      return;
    }
    const d = summary.decisions;
    process.stdout.write(
      `${poolName}: metric ${argv.metric} (${prepared.size} rows: ${prepared.countA} in group a, ${prepared.countB} in group b), ${argv.access} access, ${summary.replicates} replicates\n` +
        `oracle:       hard-decision gap ${prepared.oracleGap.toFixed(4)} -> ${oracle.oracleDecision} at tolerance ${decisionTolerance}` +
        `${prepared.family === 'gaussian' ? ` (proxy ${argv.access} gap ${prepared.proxyGap.toFixed(4)})` : ''}\n` +
        `sequential:   reject ${d.reject}, accept ${d.accept}, inconclusive ${d.inconclusive}; queries ${summary.meanQueries.toFixed(1)} ± ${summary.stdQueries.toFixed(1)}\n` +
        `early:        reject ${summary.earlyDecisions.reject}, accept ${summary.earlyDecisions.accept} within ${summary.earlyDecisions.within} queries\n` +
        `fixed-sample: reject ${summary.fixedDecisions.reject}, accept ${summary.fixedDecisions.accept} on ${results[0].fixedSamples} rows\n`,
    );
  },
};
