import type { Argv, CommandModule } from 'yargs';
import { ACCESS_REGIMES, type AccessRegime } from '../../audit/access-regime.js';
import { type AuditPoolSettings, type AuditPoolSummary, auditPool } from '../../audit/audit-pool.js';
import { FAIRNESS_METRICS, type FairnessMetric } from '../../audit/metric.js';
import type { AuditPool } from '../../audit/pool.js';
import { readPoolFile } from '../../audit/pool-io.js';
import { generateSyntheticPool, type SyntheticPoolSpec, syntheticPoolSchema } from '../../data/synthetic-pool.js';
import { InputError, inputError } from '../../util/errors.js';
import { parseJsonUntrusted } from '../../util/parse-untrusted.js';
import { formatPath, validateInput } from '../../util/schema.js';

interface AuditArguments {
  pool?: string;
  synthetic?: string;
  early: number;
  metric: FairnessMetric;
  access: AccessRegime;
  tolerance: number;
  'score-tolerance': number;
  'logit-tolerance': number;
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

/** The flag of each auditPool setting, so a bad value is reported as the user wrote it. */
const flagOf: Record<string, string> = {
  metric: '--metric',
  access: '--access',
  tolerance: '--tolerance',
  scoreTolerance: '--score-tolerance',
  logitTolerance: '--logit-tolerance',
  budget: '--budget',
  alpha: '--alpha',
  beta: '--beta',
  minimumPerGroup: '--minimum-per-group',
  order: '--order',
  seed: '--seed',
  replicates: '--replicates',
  early: '--early',
};

/** Stage 1: the flags as auditPool settings (validated there, by the same schema as a config's settings). */
function settingsOf(argv: AuditArguments): Partial<AuditPoolSettings> {
  if (argv['decision-tolerance'] !== undefined) {
    throw new InputError(
      '--decision-tolerance: this flag is gone; --tolerance is now δ (the tolerance on the gap of hard decisions, used by the oracle), and the proxy tests of score and logit access take --score-tolerance and --logit-tolerance',
    );
  }
  if ((argv.pool === undefined) === (argv.synthetic === undefined)) {
    throw inputError({ where: '--pool / --synthetic', expected: 'exactly one of them', found: argv.pool === undefined ? 'neither' : 'both' });
  }
  return {
    metric: argv.metric,
    access: argv.access,
    tolerance: argv.tolerance,
    scoreTolerance: argv['score-tolerance'],
    logitTolerance: argv['logit-tolerance'],
    budget: argv.budget,
    alpha: argv.alpha,
    beta: argv.beta,
    minimumPerGroup: argv['minimum-per-group'],
    order: argv.order,
    ...(argv.seed === undefined ? {} : { seed: argv.seed }),
    replicates: argv.replicates,
    early: argv.early,
  };
}

/**
 * The pool of --synthetic JSON (parsed without prototypes; `__proto__`, `constructor`
 * and `prototype` refused): a synthetic pool recipe validated by the schema configs use
 * (src/data/synthetic-pool.ts: unknown keys and sizes above 50 million refused), with
 * logitScale 1 and seed "audit" unless given.
 * Throws InputError naming --synthetic and the key.
 */
function syntheticPoolOf(text: string): AuditPool {
  const recipe = parseJsonUntrusted(text, '--synthetic', 'a JSON object (a synthetic pool recipe)');
  if (typeof recipe !== 'object' || recipe === null || Array.isArray(recipe)) {
    throw inputError({ where: '--synthetic', expected: 'a JSON object (a synthetic pool recipe)', found: text });
  }
  const spec = validateInput({ logitScale: 1, seed: 'audit', ...recipe }, syntheticPoolSchema, (path) => `--synthetic: ${formatPath(path)}`);
  return generateSyntheticPool(spec as SyntheticPoolSpec, '--synthetic');
}

/** Stage 2: the pool, from --pool (with the access regime's column) or --synthetic. */
function poolOf(argv: AuditArguments): AuditPool {
  if (argv.pool === undefined) return syntheticPoolOf(argv.synthetic as string);
  return readPoolFile(argv.pool, { require: argv.access === 'score' || argv.access === 'logit' ? [argv.access] : [] });
}

/** The oracle line of the text output. */
function oracleLine(summary: AuditPoolSummary): string {
  const proxy = summary.proxyGap === undefined ? '' : ` (proxy ${summary.access} gap ${summary.proxyGap.toFixed(4)})`;
  return `oracle:       hard-decision gap ${summary.oracleGap.toFixed(4)} -> ${summary.oracleDecision} at tolerance ${summary.tolerance}${proxy}\n`;
}

/** Stage 4: the summary as text, for people. */
function summaryText(poolName: string, summary: AuditPoolSummary): string {
  const head = `${poolName}: metric ${summary.metric} (${summary.poolSize} rows: ${summary.groupCounts.a} in group a, ${summary.groupCounts.b} in group b), ${summary.access} access`;
  if ('decision' in summary) {
    const statistic = typeof summary.statistic === 'number' ? summary.statistic.toFixed(4) : summary.statistic;
    return (
      `${head}\n${oracleLine(summary)}` +
      `sequential:   ${summary.decision} after ${summary.queries} queries (statistic ${statistic}; thresholds ${summary.upperThreshold.toFixed(4)}, ${summary.lowerThreshold.toFixed(4)})\n` +
      `fixed-sample: ${summary.fixedDecision} on ${summary.fixedSamples} rows (gap ${summary.fixedGap.toFixed(4)})\n`
    );
  }
  const d = summary.decisions;
  return (
    `${head}, ${summary.replicates} replicates\n${oracleLine(summary)}` +
    `sequential:   reject ${d.reject}, accept ${d.accept}, inconclusive ${d.inconclusive}; queries ${summary.meanQueries.toFixed(1)} ± ${summary.stdQueries.toFixed(1)}\n` +
    `early:        reject ${summary.earlyDecisions.reject}, accept ${summary.earlyDecisions.accept} within ${summary.earlyDecisions.within} queries\n` +
    `fixed-sample: reject ${summary.fixedDecisions.reject}, accept ${summary.fixedDecisions.accept}` +
    `${summary.fixedDecisions.inconclusive > 0 ? `, inconclusive ${summary.fixedDecisions.inconclusive} (a group absent)` : ''} on ${summary.fixedSamples} rows\n`
  );
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
      .option('tolerance', { type: 'number', default: 0.05, describe: 'delta: the tolerance on the SP/EO gap of hard decisions (decision access and the oracle)' })
      .option('score-tolerance', { type: 'number', default: 0.05, describe: 'The proxy tolerance on the gap of mean scores (score access)' })
      .option('logit-tolerance', { type: 'number', default: 0.2, describe: 'The proxy tolerance on the gap of mean logits (logit access)' })
      .option('decision-tolerance', { type: 'number', hidden: true, describe: 'Removed: --tolerance is delta now' })
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
      .example('$0 audit --pool pool.csv --metric eo --access score --score-tolerance 0.03 --seed 1 --replicates 20 --json', '') as unknown as Argv<AuditArguments>,
  // Stages: flags → settings, pool, audit (auditPool validates the settings once), print.
  handler: (argv) => {
    const settings = settingsOf(argv);
    const pool = poolOf(argv);
    const summary = auditPool(pool, settings, (key) => flagOf[key] ?? key);
    const poolDescription = argv.pool ?? { synthetic: parseJsonUntrusted(argv.synthetic as string, '--synthetic') };
    if (argv.json) process.stdout.write(`${JSON.stringify({ ...summary, pool: poolDescription })}\n`);
    else process.stdout.write(summaryText(argv.pool ?? 'synthetic', summary));
  },
};
