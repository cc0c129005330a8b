import type { Argv, CommandModule } from 'yargs';
import { readPoolFile } from '../../audit/pool-io.js';
import type { PirServer } from '../../pir/pir-server.js';
import { writeProviderFile } from '../../pir/provider-file.js';
import { type PoolProvider, startPoolProvider } from '../../pir/provider-from-pool.js';
import { LABEL_TRANSPORTS, type LabelTransportName, type ProviderService } from '../../pir/provider-service.js';
import { TAMPER_MODES, type TamperMode } from '../../pir/tamper.js';
import { VOPRF_SUITE } from '../../pir/voprf-suite.js';
import { inputError, isInputError } from '../../util/errors.js';
import { checkIntegerFlag, checkNumberFlag } from '../check-flag.js';
import { commandGroup } from '../command-group.js';
import { pirAuditCommand } from './pir-audit.js';
import { requireIdColumn, SIMPLEPIR_NOTE, TRANSPORT_HELP } from './pir-transport-notes.js';
import { pirVerifyCommand } from './pir-verify.js';

interface ServeArguments {
  pool: string;
  transport: LabelTransportName;
  'max-evaluations'?: number;
  threads: number;
  port: number;
  'idle-timeout': number;
  'max-batch': number;
  tamper?: string;
  'url-file'?: string;
  'print-token': boolean;
}

const serveCommand: CommandModule<object, ServeArguments> = {
  command: 'serve',
  describe:
    "Provider: label the candidate set (the pool's decision column), commit, and serve PIR answers on 127.0.0.1",
  builder: (yargs: Argv) =>
    yargs
      .option('pool', {
        type: 'string',
        demandOption: true,
        describe: 'pool file (Arrow or CSV): the candidate set and the model decisions',
      })
      .option('transport', {
        choices: LABEL_TRANSPORTS,
        default: 'voprf' as LabelTransportName,
        describe: TRANSPORT_HELP,
      })
      .option('max-evaluations', {
        type: 'number',
        describe: 'voprf: the most labels one audit may learn (default ⌈N/2⌉ + 1000)',
      })
      .option('threads', { type: 'number', default: 1, describe: 'voprf: threads to build the label table on' })
      .option('port', { type: 'number', default: 0, describe: 'TCP port on 127.0.0.1 (0: any free port)' })
      .option('idle-timeout', {
        type: 'number',
        default: 600,
        describe: 'stop after this many seconds without a request',
      })
      .option('max-batch', { type: 'number', default: 256, describe: 'largest batch of queries per request' })
      .option('tamper', {
        type: 'string',
        choices: [...TAMPER_MODES],
        describe:
          "cheat (demonstration): answer from a tampered table, or replay the first audit's commitment to every " +
          'later one',
      })
      .option('url-file', {
        type: 'string',
        describe:
          'write the service URL and its bearer token to this file (JSON, mode 0600) once listening: pir audit ' +
          '--provider-file FILE reads it',
      })
      .option('print-token', {
        type: 'boolean',
        default: false,
        describe: 'also print the bearer token on stdout (it is never printed otherwise)',
      })
      .example(
        '$0 pir serve --pool pool.arrow --url-file provider.json',
        'serve until 10 minutes without a request',
      ) as Argv<ServeArguments>,
  handler: async (argv) => {
    checkIntegerFlag('--port', argv.port, 0, 65535);
    checkIntegerFlag('--max-batch', argv['max-batch'], 1, 4096);
    checkNumberFlag('--idle-timeout', argv['idle-timeout'], { low: 0, high: 86_400, lowOpen: true }, 'seconds');
    checkIntegerFlag('--threads', argv.threads, 1, 64);
    const pool = readPoolFile(argv.pool);
    requireIdColumn(pool, '--pool');
    if (argv['max-evaluations'] !== undefined)
      checkIntegerFlag('--max-evaluations', argv['max-evaluations'], 1, pool.size);
    const provider = await startPoolProvider(pool, {
      transport: argv.transport,
      threads: argv.threads,
      ...(argv['max-evaluations'] === undefined ? {} : { maxEvaluationsPerAudit: argv['max-evaluations'] }),
      port: argv.port,
      idleTimeoutMs: argv['idle-timeout'] * 1000,
      maxBatch: argv['max-batch'],
      ...(argv.tamper ? { tamper: argv.tamper as TamperMode } : {}),
    }).catch((error: NodeJS.ErrnoException) => {
      // A busy or forbidden port is the user's to change, not an internal error.
      if (error?.code === 'EADDRINUSE' || error?.code === 'EACCES') {
        throw inputError({
          where: '--port',
          expected: 'a free TCP port on 127.0.0.1 (or 0: any free port)',
          found: `${argv.port} (${error.code})`,
        });
      }
      throw error;
    });
    if (argv['url-file']) await writeUrlFileOrStop(argv['url-file'], provider.service);
    else if (!argv['print-token']) await refuseWithoutToken(provider.service);
    process.stdout.write(
      `fairaudit pir serve: ${servedDescription(provider)}${argv.tamper ? `, CHEATING: ${argv.tamper}` : ''}\n` +
        `listening on ${provider.service.url} (stops after ${argv['idle-timeout']} s idle or POST /shutdown)` +
        `${argv['url-file'] ? `; URL and bearer token in ${argv['url-file']} (mode 0600)` : ''}\n` +
        `${argv['print-token'] ? `token ${provider.service.token}\n` : ''}`,
    );
    const stop = () => void provider.service.close();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    await provider.service.stopped;
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    const { counters } = provider.service;
    process.stdout.write(
      `stopped: ${counters.commitments} commitments, ` +
        `${counters.queries} ${provider.transport === 'voprf' ? 'evaluations' : 'queries'} answered` +
        `${
          provider.labelProvider
            ? `, ${provider.labelProvider.counters.evaluationsRefused} evaluations refused ` +
              `(beyond a budget or off the group)`
            : ''
        }, ` +
        `${counters.bytesIn} bytes in, ${counters.bytesOut} bytes out, ${counters.refused} requests refused ` +
        `(Host or token)\n`,
    );
  },
};

/** What pir serve says it serves, per transport. */
function servedDescription(provider: PoolProvider): string {
  if (provider.labelProvider) {
    const { labels, maxEvaluationsPerAudit } = provider.labelProvider;
    return (
      `${labels.entryCount} labels masked under a fresh ${VOPRF_SUITE} key in ${provider.packMs.toFixed(0)} ms ` +
      `(T ${(provider.hintBytes / 1e3).toFixed(1)} kB; at most ${maxEvaluationsPerAudit} labels per audit, each ` +
      `audit's commitment bound to its nonce)`
    );
  }
  const { parameters } = provider.server as PirServer;
  return (
    `${parameters.entryCount} candidates packed in ${provider.packMs.toFixed(0)} ms ` +
    `(p = ${parameters.plaintextModulus}, D ${parameters.rows}×${parameters.columns}; per audit a commitment ` +
    `bound to its nonce: ` +
    `hint ${(provider.hintBytes / 1e6).toFixed(2)} MB, ` +
    `proof ${(provider.proofBytes / 1e6).toFixed(2)} MB; ${SIMPLEPIR_NOTE})`
  );
}

/**
 * Writes the provider file (URL and token, mode 0600); when that fails the service is
 * closed first, so nothing keeps listening, and the failure is exit 2 naming --url-file.
 */
async function writeUrlFileOrStop(path: string, service: ProviderService): Promise<void> {
  try {
    writeProviderFile(path, service);
  } catch (error) {
    await service.close();
    const code = (error as NodeJS.ErrnoException)?.code;
    if (code === undefined && !isInputError(error)) throw error;
    throw inputError({
      where: '--url-file',
      expected: 'a file pir serve can write (the URL and bearer token, mode 0600)',
      found: `${path} (${code ?? (error as Error).message})`,
    });
  }
}

/**
 * Without --url-file or --print-token no auditor could learn the token: the service is
 * closed and the run exits 2. (Checked once listening, so that a busy --port is reported
 * first, as before.)
 */
async function refuseWithoutToken(service: ProviderService): Promise<never> {
  await service.close();
  throw inputError({
    where: '--url-file',
    expected:
      'a file for the URL and bearer token (or --print-token): without the token no auditor can use the service',
    found: 'neither --url-file nor --print-token',
  });
}

/** `fairaudit pir serve|audit|verify`: the two sides of the oblivious audit over loopback HTTP, and the third party. */
export const pirCommand = commandGroup(
  'pir',
  'Oblivious audit: the provider (serve) and the auditor (audit) on 127.0.0.1, and a third party (verify)',
  [serveCommand, pirAuditCommand, pirVerifyCommand],
);
