import type { Argv, CommandModule } from 'yargs';
import { auditMultiGroupPool } from '../../audit/audit-multi-group-pool.js';
import { auditPool } from '../../audit/audit-pool.js';
import { parseJsonUntrusted } from '../../util/parse-untrusted.js';
import { auditExitCode, FAIL_ON } from '../audit-exit-code.js';
import {
  addAuditOptions,
  addThresholdOptions,
  auditCommandSettings,
  auditSettingsOfFlags,
  flagNamer,
  poolOfFlags,
} from '../audit-options.js';
import { auditOutputReference } from '../audit-output-reference.js';
import { auditSummaryText } from '../audit-summary-text.js';
import type { ArgumentsOf } from '../command-arguments.js';
import { multiGroupSummaryText } from '../multi-group-summary-text.js';
import { stagedProgress } from '../progress.js';

/** The one-line warning when a user picks paper A's test for their own pool. */
const WALD_WARNING =
  "wald-glr is paper A's test as published: its false-violation rate is not controlled (docs/error-control.md); " +
  '--test betting controls it at any stopping time';

/** The flags of `fairaudit audit`: auditPool's settings from its schema, the pool, --upper/--lower, --json. */
function auditBuilder(yargs: Argv) {
  return addThresholdOptions(addAuditOptions(yargs, auditCommandSettings()))
    .option('json', {
      type: 'boolean',
      default: false,
      describe: 'Print JSON (its schema: docs/audit-output.md, `fairaudit audit --json-schema`)',
    })
    .option('json-schema', {
      type: 'boolean',
      default: false,
      describe: 'Print the reference of the --json output and the exit codes (Markdown) instead of auditing',
    })
    .option('fail-on', {
      choices: FAIL_ON,
      describe:
        'Exit 3 when an audit finds a VIOLATION; with inconclusive, also exit 4 when one is INCONCLUSIVE ' +
        '(docs/audit-output.md)',
    })
    .example('$0 audit --pool pool.arrow --metric sp --access decision --tolerance 0.05 --seed 1', '')
    .example(
      '$0 audit --pool pool.csv --metric eo --access score --score-tolerance 0.03 --seed 1 --replicates 20 --json',
      '',
    )
    .example('$0 audit --pool pool.csv --test betting --order balanced --seed 1 --replicates 200', '');
}

/** `fairaudit audit --pool FILE ...`: sequential audits of one pool, with the oracle and fixed-sample decisions. */
export const auditCommand: CommandModule<object, ArgumentsOf<typeof auditBuilder>> = {
  command: 'audit',
  describe:
    'Run a sequential fairness audit (the anytime-valid betting test by default; --test for the calibrated GLR, ' +
    "the confidence sequence or paper A's wald-glr) on a pool file or a generated pool",
  builder: auditBuilder,
  // Stages: flags → settings (only those given; auditPool's schema fills in the rest), pool, audit (auditPool validates
  // the settings once and calibrates on threads when thresholds are calibrated and not cached), print.
  handler: async (argv) => {
    if (argv.jsonSchema) {
      process.stdout.write(auditOutputReference());
      return;
    }
    const properties = auditCommandSettings();
    const settings = auditSettingsOfFlags(argv, properties);
    const pool = poolOfFlags(argv);
    const name = flagNamer(properties);
    if (pool.groupNames !== undefined) {
      // Named groups (a multi-valued or intersectional group column): the K-group audit; 0/1 pools never come here.
      const multi = auditMultiGroupPool(pool, settings, name);
      if (multi.test === 'wald-glr') process.stderr.write(`fairaudit: warning: ${WALD_WARNING}\n`);
      if (argv.json) process.stdout.write(`${JSON.stringify({ ...multi, pool: argv.pool })}\n`);
      else process.stdout.write(multiGroupSummaryText(argv.pool as string, multi));
      const code = auditExitCode(multi, argv.failOn);
      if (code !== 0) process.exitCode = code;
      return;
    }
    const progress = stagedProgress('calibrate', argv.json, 'chunks');
    const summary = await auditPool(
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
    if (summary.test === 'wald-glr') process.stderr.write(`fairaudit: warning: ${WALD_WARNING}\n`);
    const poolDescription = argv.pool ?? { synthetic: parseJsonUntrusted(argv.synthetic as string, '--synthetic') };
    if (argv.json) process.stdout.write(`${JSON.stringify({ ...summary, pool: poolDescription })}\n`);
    else process.stdout.write(auditSummaryText(argv.pool ?? 'synthetic', summary));
    const code = auditExitCode(summary, argv.failOn);
    if (code !== 0) process.exitCode = code;
  },
};
