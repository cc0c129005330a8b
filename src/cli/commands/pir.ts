import type { Argv, CommandModule } from 'yargs';
import { AUDIT_DESIGNS, type AuditDesign } from '../../audit/audit-design.js';
import { readPoolFile } from '../../audit/pool-io.js';
import { type ObliviousTest, runObliviousAudit } from '../../pir/oblivious-audit.js';
import { PirVerificationError } from '../../pir/pir-verification-error.js';
import { ProviderConnection } from '../../pir/provider-connection.js';
import { startPoolProvider } from '../../pir/provider-from-pool.js';
import { TAMPER_MODES, type TamperMode } from '../../pir/tamper.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { createCryptoRandom } from '../../util/crypto-random.js';
import { inputError } from '../../util/errors.js';
import { createRandom, type Random, shuffleInPlace } from '../../util/random.js';
import { checkErrorLevelFlags, checkIntegerFlag, checkNumberFlag, checkProbabilityFlag } from '../check-flag.js';
import { commandGroup } from '../command-group.js';

interface ServeArguments {
  pool: string;
  port: number;
  'idle-timeout': number;
  'max-batch': number;
  tamper?: string;
  'url-file'?: string;
}

interface AuditArguments {
  provider: string;
  pool: string;
  'sample-size': number;
  design: AuditDesign;
  sampling?: string;
  canaries: number;
  'batch-size': number;
  tolerance: number;
  alpha: number;
  beta: number;
  test: string;
  seed?: string;
  json: boolean;
  shutdown: boolean;
  'secret-challenge': boolean;
}

const serveCommand: CommandModule<object, ServeArguments> = {
  command: 'serve',
  describe: "Provider: label the candidate set (the pool's decision column), commit, and serve PIR answers on 127.0.0.1",
  builder: (yargs: Argv) =>
    yargs
      .option('pool', { type: 'string', demandOption: true, describe: 'pool file (Arrow or CSV): the candidate set and the model decisions' })
      .option('port', { type: 'number', default: 0, describe: 'TCP port on 127.0.0.1 (0: any free port)' })
      .option('idle-timeout', { type: 'number', default: 600, describe: 'stop after this many seconds without a request' })
      .option('max-batch', { type: 'number', default: 256, describe: 'largest batch of queries per request' })
      .option('tamper', { type: 'string', choices: [...TAMPER_MODES], describe: 'cheat: answer from a tampered table (demonstration)' })
      .option('url-file', { type: 'string', describe: 'write the service URL to this file once listening' })
      .example('$0 pir serve --pool pool.arrow --url-file provider.url', 'serve until 10 minutes without a request') as Argv<ServeArguments>,
  handler: async (argv) => {
    checkIntegerFlag('--port', argv.port, 0, 65535);
    checkIntegerFlag('--max-batch', argv['max-batch'], 1, 4096);
    checkNumberFlag('--idle-timeout', argv['idle-timeout'], { low: 0, high: 86_400, lowOpen: true }, 'seconds');
    const pool = readPoolFile(argv.pool);
    const provider = await startPoolProvider(pool, {
      port: argv.port,
      idleTimeoutMs: argv['idle-timeout'] * 1000,
      maxBatch: argv['max-batch'],
      ...(argv.tamper ? { tamper: argv.tamper as TamperMode } : {}),
    }).catch((error: NodeJS.ErrnoException) => {
      // A busy or forbidden port is the user's to change, not an internal error.
      if (error?.code === 'EADDRINUSE' || error?.code === 'EACCES') {
        throw inputError({ where: '--port', expected: 'a free TCP port on 127.0.0.1 (or 0: any free port)', found: `${argv.port} (${error.code})` });
      }
      throw error;
    });
    const { parameters } = provider.server;
    if (argv['url-file']) writeFileAtomic(argv['url-file'], `${provider.service.url}\n`);
    process.stdout.write(
      `fairaudit pir serve: ${pool.size} candidates committed in ${provider.commitMs.toFixed(0)} ms ` +
        `(p = ${parameters.plaintextModulus}, D ${parameters.rows}×${parameters.columns}, hint ${(provider.hintBytes / 1e6).toFixed(2)} MB, ` +
        `proof ${(provider.proofBytes / 1e6).toFixed(2)} MB)${argv.tamper ? `, CHEATING: ${argv.tamper}` : ''}\n` +
        `listening on ${provider.service.url} (stops after ${argv['idle-timeout']} s idle or POST /shutdown)\n`,
    );
    const stop = () => void provider.service.close();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    await provider.service.stopped;
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    const { counters } = provider.service;
    process.stdout.write(
      `stopped: ${counters.queries} queries answered, ${counters.bytesIn} bytes in, ${counters.bytesOut} bytes out\n`,
    );
  },
};

const auditCommand: CommandModule<object, AuditArguments> = {
  command: 'audit',
  describe: 'Auditor: draw S ⊂ C, plant canaries, retrieve labels through verified PIR, run the fixed and sequential audits',
  builder: (yargs: Argv) =>
    yargs
      .option('provider', { type: 'string', demandOption: true, describe: 'the provider URL, http://127.0.0.1:PORT' })
      .option('pool', {
        type: 'string',
        demandOption: true,
        describe: "the candidate set: its group column (and, for the canaries only, the decisions the auditor knows)",
      })
      .option('sample-size', { type: 'number', default: 1000, describe: 'n = |S| (canaries excluded)' })
      .option('design', {
        choices: AUDIT_DESIGNS,
        default: 'uniform' as AuditDesign,
        describe: 'how S is drawn from C: uniform, or stratified by group with proportional or balanced allocation (as in respir configs)',
      })
      .option('sampling', { type: 'string', hidden: true, describe: 'Removed: --design' })
      .option('canaries', { type: 'number', default: 10, describe: 'k, candidates with known labels planted in S' })
      .option('batch-size', { type: 'number', default: 64, describe: 'PIR queries per request' })
      .option('tolerance', { type: 'number', default: 0.05, describe: 'ε (δ of paper A): the tolerance on the demographic-parity gap of S' })
      .option('alpha', { type: 'number', default: 0.05 })
      .option('beta', { type: 'number', default: 0.2 })
      .option('test', { type: 'string', choices: ['fixed', 'sequential', 'both'], default: 'both' })
      .option('seed', {
        type: 'string',
        describe: 'replay the draw of S and of the canaries from this seed (tests and demonstrations only: the provider can then predict S); default: node:crypto',
      })
      .option('secret-challenge', {
        type: 'boolean',
        default: true,
        describe: "VeriSimplePIR's secret-challenge preprocessing (--no-secret-challenge: Figure 3's public checks only)",
      })
      .option('json', { type: 'boolean', default: false, describe: 'print the results as one JSON object' })
      .option('shutdown', { type: 'boolean', default: false, describe: 'stop the provider afterwards' }) as Argv<AuditArguments>,
  handler: async (argv) => {
    checkIntegerFlag('--canaries', argv.canaries, 0, 10_000);
    checkIntegerFlag('--batch-size', argv['batch-size'], 1, 4096);
    checkIntegerFlag('--sample-size', argv['sample-size'], 2);
    checkProbabilityFlag('--tolerance', argv.tolerance);
    checkErrorLevelFlags(argv.alpha, argv.beta);
    if (argv.sampling !== undefined) {
      throw inputError({ where: '--sampling', expected: '--design uniform, proportional or balanced (the flag was renamed; stratified is now proportional)', found: argv.sampling });
    }
    const pool = readPoolFile(argv.pool);
    let connection: ProviderConnection;
    try {
      connection = await ProviderConnection.connect(
        argv.provider,
        { entryCount: pool.size, entryBits: 1 },
        { secretChallenge: argv['secret-challenge'] },
      );
    } catch (error) {
      if (!(error instanceof PirVerificationError)) throw error;
      if (argv.shutdown) await ProviderConnection.requestShutdown(argv.provider);
      if (argv.json) {
        process.stdout.write(`${JSON.stringify({ provider: argv.provider, decision: 'provider-rejected', reason: error.message })}\n`);
      } else {
        process.stdout.write(`provider ${argv.provider}: provider-rejected during the offline phase (${error.message})\n`);
      }
      return;
    }
    const seed = argv.seed;
    if (seed !== undefined) {
      process.stderr.write(`warning: --seed ${JSON.stringify(seed)} makes S and the canaries predictable to anyone who knows the seed; a real audit leaves --seed out\n`);
    }
    const drawRandom = (stream: string): Random => (seed === undefined ? createCryptoRandom() : createRandom(`${seed}${stream}`));
    const random = drawRandom('');
    const candidates = shuffleInPlace(random, Array.from({ length: pool.size }, (_, i) => i));
    const canaries = candidates.slice(0, argv.canaries).map((index) => ({ index, label: pool.decision[index] }));
    const tests: ObliviousTest[] = argv.test === 'both' ? ['fixed', 'sequential'] : [argv.test as ObliviousTest];
    const results = [];
    for (const test of tests) {
      results.push(
        await runObliviousAudit(
          connection,
          {
            groups: pool.group,
            sampleSize: Math.min(argv['sample-size'], pool.size),
            design: argv.design,
            canaries,
            batchSize: argv['batch-size'],
            test,
            tolerance: argv.tolerance,
            alpha: argv.alpha,
            beta: argv.beta,
          },
          drawRandom(`:${test}`),
        ),
      );
    }
    if (argv.shutdown) await connection.shutdown();
    const { parameters, traffic } = connection;
    if (argv.json) {
      process.stdout.write(
        `${JSON.stringify({ provider: connection.url, candidates: pool.size, plaintextModulus: parameters.plaintextModulus, rows: parameters.rows, columns: parameters.columns, secretChallenge: connection.client.secretChallenge, offlineBytesReceived: traffic.offlineBytesReceived, offlineBytesSent: traffic.offlineBytesSent, offlineMs: traffic.offlineMs, results })}\n`,
      );
      return;
    }
    process.stdout.write(
      `provider ${connection.url}: ${pool.size} candidates, digest verified (‖Z‖∞ ≤ p·ℓ, Z·A = C·H)` +
        `${connection.client.secretChallenge ? ' and secret challenge C installed' : ' (public challenge only)'} in ${traffic.offlineMs.toFixed(0)} ms, ` +
        `${(traffic.offlineBytesReceived / 1e6).toFixed(2)} MB down, ${(traffic.offlineBytesSent / 1e6).toFixed(2)} MB up offline\n`,
    );
    for (const result of results) {
      process.stdout.write(
        `${result.test === 'fixed' ? 'fixed-size DP audit (paper B)' : 'sequential GLR audit (paper A)'}: ${result.decision}` +
          `${result.reason ? ` (${result.reason})` : ''}\n` +
          `  labels used ${result.labelsUsed}, PIR queries ${result.pirQueries}, canaries checked ${result.canariesChecked}, ` +
          `gap d_S = ${Number.isFinite(result.gap) ? result.gap.toFixed(4) : 'n/a'}, statistic ${result.statistic.toFixed(4)}\n` +
          `  sent ${result.bytesSent} bytes, received ${result.bytesReceived} bytes, ${result.onlineMs.toFixed(0)} ms online\n`,
      );
    }
  },
};

/** `fairaudit pir serve|audit`: the two sides of the oblivious audit over loopback HTTP. */
export const pirCommand = commandGroup(
  'pir',
  'Oblivious audit through verifiable PIR: the provider (serve) and the auditor (audit) on 127.0.0.1',
  [serveCommand, auditCommand],
);
