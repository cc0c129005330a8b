import { resolve } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { calibrateForAuditPool } from '../../audit/audit-pool.js';
import { calibrationCacheDirectory, calibrationCacheFile } from '../../audit/calibration/calibration-cache.js';
import type { CalibrationRecord, PricePoint } from '../../audit/calibration/calibration-record.js';
import { countPool } from '../../audit/calibration/count-pool.js';
import type { AuditPool } from '../../audit/pool.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { inputError } from '../../util/errors.js';
import { MAX_POOL_ROWS } from '../../util/size-limits.js';
import {
  addAuditOptions,
  auditSettingsOfFlags,
  calibrateCommandSettings,
  flagNamer,
  poolOfFlags,
} from '../audit-options.js';
import type { ArgumentsOf } from '../command-arguments.js';
import { stagedProgress } from '../progress.js';

/** --groups A,B: a decision-access setting given by its group sizes alone (what its calibration depends on). */
function groupsPool(text: string): AuditPool {
  const parts = text.split(',').map((part) => Number(part.trim()));
  if (
    parts.length !== 2 ||
    !parts.every((part) => Number.isSafeInteger(part) && part >= 1) ||
    parts[0] + parts[1] > MAX_POOL_ROWS
  ) {
    throw inputError({
      where: '--groups',
      expected:
        `two group sizes A,B (integers >= 1: rows of group a and of group b, at ` +
        `most ${MAX_POOL_ROWS} rows in all)`,
      found: text,
    });
  }
  return countPool(
    { countA: parts[0], positivesA: 0, countB: parts[1], positivesB: 0 },
    `--groups ${parts[0]},${parts[1]}`,
  );
}

function rate(point: PricePoint['inconclusive']): string {
  return `${point.rate.toFixed(3)} ± ${point.standardError.toFixed(3)}`;
}

function interval(values: readonly [number | null, number | null]): string {
  return `[${values.map((value) => (value === null ? 'beyond the grid' : Number(value.toFixed(4)))).join(', ')}]`;
}

/** The calibration as text: the setting, the thresholds with their Monte Carlo uncertainty, the certificate and the
 * price. */
function calibrationText(record: CalibrationRecord, file: string, cached: boolean, seconds: number): string {
  const s = record.setting;
  const lines = [
    `calibrated-glr thresholds: ${s.access} access, groups of ${s.countA} (a) and ${s.countB} (b), ` +
      `tolerance ${s.tolerance}, budget ${s.budget}, ` +
      `start rule ${s.minimumPerGroup} per group, ${s.order} order, alpha ${s.alpha}, beta ${s.beta}`,
    `  upper ${record.upper.toFixed(4)}   (Monte Carlo: the worst compliant P(reject) crosses alpha ` +
      `between ${interval(record.upperInterval)})`,
    `  lower ${record.lower.toFixed(4)}   (Monte Carlo: the worst violating P(accept) crosses beta ` +
      `between ${interval(record.lowerInterval)})`,
    `  ${record.options.paths} simulated audits per pool over ${record.pools} pools; certified on fresh ` +
      `simulations in round ${record.certificationRounds} ` +
      `(Clopper-Pearson bounds at ${record.options.confidence} simultaneous confidence):`,
  ];
  if (record.worstReject)
    lines.push(
      `    worst ` +
        `P(reject) ${record.worstReject.rate.toFixed(4)} (bound ${record.worstReject.upperBound.toFixed(4)} <= ` +
        `alpha) ` +
        `at ${record.worstReject.cell}`,
    );
  if (record.worstAccept)
    lines.push(
      `    worst ` +
        `P(accept) ${record.worstAccept.rate.toFixed(4)} (bound ${record.worstAccept.upperBound.toFixed(4)} <= beta) ` +
        `at ${record.worstAccept.cell}`,
    );
  lines.push('  the price (fresh audits at the calibrated thresholds):');
  for (const point of record.price) {
    lines.push(
      `    gap ${Number(point.gap.toFixed(6))}: P(inconclusive) ${rate(point.inconclusive)}, ` +
        `P(reject) ${rate(point.reject)}, P(accept) ${rate(point.accept)}, ` +
        `mean queries ${point.meanQueries.toFixed(1)} (${point.pool})`,
    );
  }
  lines.push(
    `  ${
      cached ? 'from the ' + 'cache' : `computed in ${seconds.toFixed(1)} s, saved`
    }: ${file} (fingerprint ${record.fingerprint.slice(0, 16)}…)`,
  );
  return `${lines.join('\n')}\n`;
}

/** The flags of `fairaudit calibrate`: an audit's settings from their schema, the pool or --groups, the cache. */
function calibrateBuilder(yargs: Argv) {
  return addAuditOptions(yargs, calibrateCommandSettings())
    .option('groups', {
      type: 'string',
      describe: 'Instead of --pool / --synthetic, decision access only: the group sizes A,B',
    })
    .option('cache-dir', {
      type: 'string',
      describe:
        'The calibration cache (default FAIRAUDIT_CALIBRATION_CACHE, else calibrations/ in FAIRAUDIT_CACHE_DIR, ' +
        '$XDG_CACHE_HOME/fairaudit or ~/.cache/fairaudit)',
    })
    .option('out', { type: 'string', describe: 'Also write the calibration (JSON) to this file' })
    .option('json', { type: 'boolean', default: false, describe: 'Print the calibration as JSON' })
    .option('quiet', { type: 'boolean', default: false, describe: 'No progress bar' })
    .example(
      '$0 calibrate --groups 9158,4409 --access decision --threads 2',
      'Adult SP, decision access, paper A settings',
    )
    .example('$0 calibrate --pool pool.arrow --metric eo --access score --calibration-paths 1000', '');
}

/** --groups is its own pool: no --pool or --synthetic with it, and decision access only. */
function checkGroupsFlag(argv: Readonly<Record<string, unknown>>): void {
  if (argv.pool !== undefined || argv.synthetic !== undefined) {
    throw inputError({
      where: '--groups',
      expected: 'no --pool or --synthetic with it',
      found: String(argv.pool ?? argv.synthetic),
    });
  }
  if (argv.access !== undefined && argv.access !== 'decision') {
    throw inputError({
      where: '--groups',
      expected: 'decision access (score and logit access calibrate on the pool itself)',
      found: String(argv.access),
    });
  }
}

/**
 * `fairaudit calibrate`: Monte Carlo calibrated GLR thresholds for an audit setting, on
 * the worker pool, printed with their Monte Carlo uncertainty and price and saved in
 * the calibration cache under the setting's fingerprint (what `thresholds: calibrated`
 * and `--test calibrated-glr` read).
 */
export const calibrateCommand: CommandModule<object, ArgumentsOf<typeof calibrateBuilder>> = {
  command: 'calibrate',
  describe:
    'Calibrate the GLR thresholds of an audit setting by Monte Carlo (sup P(reject) <= alpha on compliant pools, ' +
    'sup P(accept) <= beta on violating ones)',
  builder: calibrateBuilder,
  // Stages: flags → settings and pool, calibration (cache or worker threads), print and save.
  handler: async (argv) => {
    const properties = calibrateCommandSettings();
    if (argv.groups !== undefined) checkGroupsFlag(argv);
    // Every flag is checked before the pool is made: a size flag out of range allocates nothing.
    const settings = {
      ...auditSettingsOfFlags(argv, properties),
      test: 'calibrated-glr' as const,
      thresholds: 'calibrated' as const,
    };
    const pool: AuditPool = argv.groups === undefined ? poolOfFlags(argv) : groupsPool(argv.groups);
    const cacheDirectory = resolve(argv['cache-dir'] ?? calibrationCacheDirectory());
    const started = performance.now();
    const progress = stagedProgress('calibrate', argv.quiet, 'chunks');
    const found = await calibrateForAuditPool(
      pool,
      settings,
      flagNamer(properties),
      {
        cacheDirectory,
        where: '--alpha / --beta',
        onNotice: (notice) => process.stderr.write(`fairaudit: notice: ${notice}\n`),
      },
      {
        ...(argv.threads === undefined ? {} : { threads: argv.threads }),
        onProgress: progress.update,
      },
    );
    progress.finish();
    const seconds = (performance.now() - started) / 1000;
    const { record, cached } = found!;
    if (argv.out !== undefined) writeFileAtomic(argv.out, `${JSON.stringify(record, null, 2)}\n`);
    const file = calibrationCacheFile(cacheDirectory, record.fingerprint);
    if (argv.json) process.stdout.write(`${JSON.stringify({ ...record, cached, file })}\n`);
    else process.stdout.write(calibrationText(record, file, cached, seconds));
  },
};
