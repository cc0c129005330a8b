import type { Argv, CommandModule } from 'yargs';
import {
  type AuditPoolSettings,
  type AuditPoolSummary,
  auditPool,
  calibrateForAuditPool,
} from '../../audit/audit-pool.js';
import {
  type AuditFlags,
  addAuditOptions,
  addTestOptions,
  auditSettingsOfFlags,
  checkThreadsFlag,
  flagOf,
  poolOfFlags,
  type TestFlags,
  testSettingsOfFlags,
} from '../audit-options.js';
import { stagedProgress } from '../progress.js';
import { parseJsonUntrusted } from '../../util/parse-untrusted.js';

interface AuditArguments extends AuditFlags, TestFlags {
  early: number;
  seed?: string;
  replicates: number;
  json: boolean;
}

/** Stage 1: the flags as auditPool settings (validated there, by the same schema as a config's settings). */
function settingsOf(argv: AuditArguments): Partial<AuditPoolSettings> {
  return {
    ...auditSettingsOfFlags(argv),
    ...testSettingsOfFlags(argv),
    ...(argv.seed === undefined ? {} : { seed: argv.seed }),
    replicates: argv.replicates,
    early: argv.early,
  };
}

/** The oracle line of the text output. */
function oracleLine(summary: AuditPoolSummary): string {
  const proxy = summary.proxyGap === undefined ? '' : ` (proxy ${summary.access} gap ${summary.proxyGap.toFixed(4)})`;
  return `oracle:       hard-decision gap ${summary.oracleGap.toFixed(4)} -> ${summary.oracleDecision} at tolerance ${summary.tolerance}${proxy}\n`;
}

/** The test and its thresholds, for the text output. */
function testText(summary: AuditPoolSummary): string {
  if (summary.upperThreshold === undefined || summary.lowerThreshold === undefined) return summary.test;
  const thresholds = `thresholds ${summary.upperThreshold.toFixed(4)}, ${summary.lowerThreshold.toFixed(4)}`;
  return summary.test === 'wald-glr' ? thresholds : `${summary.test}, ${thresholds}`;
}

/** Stage 4: the summary as text, for people. */
function summaryText(poolName: string, summary: AuditPoolSummary): string {
  const head = `${poolName}: metric ${summary.metric} (${summary.poolSize} rows: ${summary.groupCounts.a} in group a, ${summary.groupCounts.b} in group b), ${summary.access} access`;
  if ('decision' in summary) {
    const statistic = typeof summary.statistic === 'number' ? summary.statistic.toFixed(4) : summary.statistic;
    return (
      `${head}\n${oracleLine(summary)}` +
      `sequential:   ${summary.decision} after ${summary.queries} queries (${summary.gapInterval ? `gap in [${summary.gapInterval[0].toFixed(4)}, ${summary.gapInterval[1].toFixed(4)}] at ${1 - summary.alpha} confidence` : `statistic ${statistic}`}; ${testText(summary)})\n` +
      `fixed-sample: ${summary.fixedDecision} on ${summary.fixedSamples} rows (gap ${summary.fixedGap.toFixed(4)})\n`
    );
  }
  const d = summary.decisions;
  return (
    `${head}, ${summary.replicates} replicates\n${oracleLine(summary)}` +
    `sequential:   reject ${d.reject}, accept ${d.accept}, inconclusive ${d.inconclusive}; queries ${summary.meanQueries.toFixed(1)} ± ${summary.stdQueries.toFixed(1)}${summary.test === 'wald-glr' ? '' : ` (${testText(summary)})`}\n` +
    `early:        reject ${summary.earlyDecisions.reject}, accept ${summary.earlyDecisions.accept} within ${summary.earlyDecisions.within} queries\n` +
    `fixed-sample: reject ${summary.fixedDecisions.reject}, accept ${summary.fixedDecisions.accept}` +
    `${summary.fixedDecisions.inconclusive > 0 ? `, inconclusive ${summary.fixedDecisions.inconclusive} (a group absent)` : ''} on ${summary.fixedSamples} rows\n`
  );
}

/** `fairaudit audit --pool FILE ...`: sequential audits of one pool, with the oracle and fixed-sample decisions. */
export const auditCommand: CommandModule<object, AuditArguments> = {
  command: 'audit',
  describe:
    "Run a sequential fairness audit (paper A's GLR by default; --test for the calibrated GLR or the betting test) on a pool file or a generated pool",
  builder: (yargs: Argv) =>
    addTestOptions(addAuditOptions(yargs, ['random', 'balanced', 'given']))
      .option('early', {
        type: 'number',
        default: 10,
        describe: 'With --replicates: also count the decisions taken within this many queries',
      })
      .option('seed', {
        type: 'string',
        describe: 'Seed of the random query order (replicate r uses deriveSeed(seed, r))',
      })
      .option('replicates', { type: 'number', default: 1, describe: 'Run R seeded audits and print their summary' })
      .option('json', { type: 'boolean', default: false, describe: 'Print JSON' })
      .example('$0 audit --pool pool.arrow --metric sp --access decision --tolerance 0.05 --seed 1', '')
      .example(
        '$0 audit --pool pool.csv --metric eo --access score --score-tolerance 0.03 --seed 1 --replicates 20 --json',
        '',
      )
      .example(
        '$0 audit --pool pool.csv --test betting --order balanced --seed 1 --replicates 200',
        '',
      ) as unknown as Argv<AuditArguments>,
  // Stages: flags → settings, pool, calibration (ahead, on threads, when thresholds are calibrated), audit (auditPool validates the settings once), print.
  handler: async (argv) => {
    checkThreadsFlag(argv.threads);
    const settings = settingsOf(argv);
    const pool = poolOfFlags(argv);
    const name = (key: string) => flagOf[key] ?? key;
    const progress = stagedProgress('calibrate', argv.json, 'chunks');
    const calibrated = await calibrateForAuditPool(
      pool,
      settings,
      name,
      { onNotice: (notice) => process.stderr.write(`fairaudit: notice: ${notice}\n`) },
      {
        ...(argv.threads === undefined ? {} : { threads: argv.threads }),
        onProgress: progress.update,
      },
    );
    progress.finish();
    const audited = auditPool(pool, settings, name);
    // Computed just now (ahead, on threads), not found in the cache.
    const summary =
      calibrated !== null && !calibrated.cached && audited.calibration
        ? { ...audited, calibration: { ...audited.calibration, cached: false } }
        : audited;
    const poolDescription = argv.pool ?? { synthetic: parseJsonUntrusted(argv.synthetic as string, '--synthetic') };
    if (argv.json) process.stdout.write(`${JSON.stringify({ ...summary, pool: poolDescription })}\n`);
    else process.stdout.write(summaryText(argv.pool ?? 'synthetic', summary));
  },
};
