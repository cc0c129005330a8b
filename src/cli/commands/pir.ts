import type { Argv, CommandModule } from 'yargs';
import { AUDIT_DESIGNS, type AuditDesign } from '../../audit/audit-design.js';
import { readPoolFile } from '../../audit/pool-io.js';
import { candidateListDigest } from '../../pir/candidate-digest.js';
import { checkBothGroups, type ObliviousTest, runObliviousAudit } from '../../pir/oblivious-audit.js';
import { PirVerificationError } from '../../pir/pir-verification-error.js';
import { ProviderConnection, type ProviderEndpoint } from '../../pir/provider-connection.js';
import { readProviderFile, writeProviderFile } from '../../pir/provider-file.js';
import { startPoolProvider } from '../../pir/provider-from-pool.js';
import type { ProviderService } from '../../pir/provider-service.js';
import { TAMPER_MODES, type TamperMode } from '../../pir/tamper.js';
import { createCryptoRandom } from '../../util/crypto-random.js';
import { inputError, isInputError } from '../../util/errors.js';
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
  'print-token': boolean;
}

interface AuditArguments {
  provider?: string;
  'provider-file'?: string;
  pool: string;
  'sample-size'?: number;
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
  describe:
    "Provider: label the candidate set (the pool's decision column), commit, and serve PIR answers on 127.0.0.1",
  builder: (yargs: Argv) =>
    yargs
      .option('pool', {
        type: 'string',
        demandOption: true,
        describe: 'pool file (Arrow or CSV): the candidate set and the model decisions',
      })
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
          "cheat (demonstration): answer from a tampered table, or replay the first audit's commitment to every later one",
      })
      .option('url-file', {
        type: 'string',
        describe:
          'write the service URL and its bearer token to this file (JSON, mode 0600) once listening: pir audit --provider-file FILE reads it',
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
    const pool = readPoolFile(argv.pool);
    const provider = await startPoolProvider(pool, {
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
    const { parameters } = provider.server;
    if (argv['url-file']) await writeUrlFileOrStop(argv['url-file'], provider.service);
    else if (!argv['print-token']) await refuseWithoutToken(provider.service);
    process.stdout.write(
      `fairaudit pir serve: ${pool.size} candidates packed in ${provider.packMs.toFixed(0)} ms ` +
        `(p = ${parameters.plaintextModulus}, D ${parameters.rows}×${parameters.columns}; per audit a commitment bound to its nonce: hint ${(provider.hintBytes / 1e6).toFixed(2)} MB, ` +
        `proof ${(provider.proofBytes / 1e6).toFixed(2)} MB)${argv.tamper ? `, CHEATING: ${argv.tamper}` : ''}\n` +
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
      `stopped: ${counters.commitments} commitments, ${counters.queries} queries answered, ${counters.bytesIn} bytes in, ${counters.bytesOut} bytes out, ${counters.refused} requests refused (Host or token)\n`,
    );
  },
};

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

/** The environment variable that holds the bearer token when pir audit is given --provider URL. */
const TOKEN_VARIABLE = 'FAIRAUDIT_PIR_TOKEN';

/**
 * The provider to audit: --provider-file FILE (URL and token, as pir serve --url-file
 * wrote it; a warning when others may read it), or --provider URL with the token in
 * FAIRAUDIT_PIR_TOKEN. Exactly one of the two flags.
 */
function providerEndpoint(argv: AuditArguments): ProviderEndpoint {
  if ((argv.provider === undefined) === (argv['provider-file'] === undefined)) {
    throw inputError({
      where: '--provider-file/--provider',
      expected: `exactly one of --provider-file FILE (written by pir serve --url-file) or --provider URL (token in ${TOKEN_VARIABLE})`,
      found: argv.provider === undefined ? 'neither' : 'both',
    });
  }
  if (argv['provider-file'] !== undefined) {
    const file = readProviderFile(argv['provider-file'], '--provider-file');
    if ((file.mode & 0o077) !== 0) {
      process.stderr.write(
        `warning: ${argv['provider-file']} has mode 0${file.mode.toString(8)}: other users may read the provider's token (pir serve writes it 0600)\n`,
      );
    }
    return { url: file.url, token: file.token };
  }
  const token = process.env[TOKEN_VARIABLE];
  if (token === undefined || !/^[0-9a-f]{64}$/.test(token)) {
    throw inputError({
      where: TOKEN_VARIABLE,
      expected:
        "the provider's bearer token (64 hex digits, as pir serve --url-file writes it) when --provider URL is given",
      found: token === undefined ? 'nothing' : `${token.length} characters`,
    });
  }
  return { url: argv.provider as string, token };
}

const auditCommand: CommandModule<object, AuditArguments> = {
  command: 'audit',
  describe:
    'Auditor: draw S ⊂ C, plant canaries, retrieve labels through verified PIR, run the fixed and sequential audits',
  builder: (yargs: Argv) =>
    yargs
      .option('provider-file', {
        type: 'string',
        describe: 'the file pir serve --url-file wrote: the provider URL (http://127.0.0.1:PORT) and its bearer token',
      })
      .option('provider', {
        type: 'string',
        describe: `the provider URL, http://127.0.0.1:PORT, with the token in ${TOKEN_VARIABLE}`,
      })
      .option('pool', {
        type: 'string',
        demandOption: true,
        describe: 'the candidate set: its group column (and, for the canaries only, the decisions the auditor knows)',
      })
      .option('sample-size', {
        type: 'number',
        describe: 'n = |S| (canaries excluded); default 1000, or every candidate of a smaller pool',
      })
      .option('design', {
        choices: AUDIT_DESIGNS,
        default: 'uniform' as AuditDesign,
        describe:
          'how S is drawn from C: uniform, or stratified by group with proportional or balanced allocation (as in respir configs)',
      })
      .option('sampling', { type: 'string', hidden: true, describe: 'Removed: --design' })
      .option('canaries', { type: 'number', default: 10, describe: 'k, candidates with known labels planted in S' })
      .option('batch-size', { type: 'number', default: 64, describe: 'PIR queries per request' })
      .option('tolerance', {
        type: 'number',
        default: 0.05,
        describe: 'ε (δ of paper A): the tolerance on the demographic-parity gap of S',
      })
      .option('alpha', { type: 'number', default: 0.05 })
      .option('beta', { type: 'number', default: 0.2 })
      .option('test', { type: 'string', choices: ['fixed', 'sequential', 'both'], default: 'both' })
      .option('seed', {
        type: 'string',
        describe:
          'replay the draw of S and of the canaries from this seed (tests and demonstrations only: the provider can then predict S); default: node:crypto',
      })
      .option('secret-challenge', {
        type: 'boolean',
        default: true,
        describe:
          "VeriSimplePIR's secret-challenge preprocessing (--no-secret-challenge: Figure 3's public checks only)",
      })
      .option('json', { type: 'boolean', default: false, describe: 'print the results as one JSON object' })
      .option('shutdown', {
        type: 'boolean',
        default: false,
        describe: 'stop the provider afterwards',
      }) as Argv<AuditArguments>,
  handler: async (argv) => {
    checkIntegerFlag('--canaries', argv.canaries, 0, 10_000);
    checkIntegerFlag('--batch-size', argv['batch-size'], 1, 4096);
    if (argv['sample-size'] !== undefined) checkIntegerFlag('--sample-size', argv['sample-size'], 2);
    checkProbabilityFlag('--tolerance', argv.tolerance);
    checkErrorLevelFlags(argv.alpha, argv.beta);
    if (argv.sampling !== undefined) {
      throw inputError({
        where: '--sampling',
        expected: '--design uniform, proportional or balanced (the flag was renamed; stratified is now proportional)',
        found: argv.sampling,
      });
    }
    const pool = readPoolFile(argv.pool);
    checkBothGroups(pool.group, `${pool.source}: column group`);
    // A --sample-size the user gave is kept or refused, never lowered silently; the default fits the pool.
    const sampleSize = argv['sample-size'] ?? Math.min(1000, pool.size);
    if (sampleSize > pool.size)
      throw inputError({
        where: '--sample-size',
        expected: `at most the ${pool.size} candidates of the pool (it was lowered to that silently)`,
        found: sampleSize,
      });
    const endpoint = providerEndpoint(argv);
    const candidateDigest = candidateListDigest(pool.id, pool.group);
    let connection: ProviderConnection;
    try {
      connection = await ProviderConnection.connect(
        endpoint,
        { entryCount: pool.size, entryBits: 1, digest: candidateDigest },
        { secretChallenge: argv['secret-challenge'] },
      );
    } catch (error) {
      if (!(error instanceof PirVerificationError)) throw error;
      if (argv.shutdown) await ProviderConnection.requestShutdown(endpoint);
      if (argv.json) {
        process.stdout.write(
          `${JSON.stringify({ provider: endpoint.url, decision: 'provider-rejected', reason: error.message })}\n`,
        );
      } else {
        process.stdout.write(
          `provider ${endpoint.url}: provider-rejected during the offline phase (${error.message})\n`,
        );
      }
      return;
    }
    const seed = argv.seed;
    if (seed !== undefined) {
      process.stderr.write(
        `warning: --seed ${JSON.stringify(seed)} makes S and the canaries predictable to anyone who knows the seed; a real audit leaves --seed out\n`,
      );
    }
    const drawRandom = (stream: string): Random =>
      seed === undefined ? createCryptoRandom() : createRandom(`${seed}${stream}`);
    const random = drawRandom('');
    const candidates = shuffleInPlace(
      random,
      Array.from({ length: pool.size }, (_, i) => i),
    );
    const canaries = candidates.slice(0, argv.canaries).map((index) => ({ index, label: pool.decision[index] }));
    const tests: ObliviousTest[] = argv.test === 'both' ? ['fixed', 'sequential'] : [argv.test as ObliviousTest];
    const results = [];
    for (const test of tests) {
      results.push(
        await runObliviousAudit(
          connection,
          {
            groups: pool.group,
            sampleSize,
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
    const { parameters, traffic, binding } = connection;
    const labelsRevealed = connection.labelsRevealed();
    const labelsRevealedByHint = connection.hintRevealsAllLabels() ? pool.size : null;
    if (argv.json) {
      const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
      process.stdout.write(
        `${JSON.stringify({
          provider: connection.url,
          candidates: pool.size,
          plaintextModulus: parameters.plaintextModulus,
          rows: parameters.rows,
          columns: parameters.columns,
          secretChallenge: connection.client.secretChallenge,
          binding: {
            candidateDigest: hex(binding.candidateDigest),
            auditorNonce: hex(binding.auditorNonce),
            providerShare: hex(binding.providerShare),
          },
          labelsRevealed,
          labelsRevealedByHint,
          offlineBytesReceived: traffic.offlineBytesReceived,
          offlineBytesSent: traffic.offlineBytesSent,
          offlineMs: traffic.offlineMs,
          results,
        })}\n`,
      );
      return;
    }
    process.stdout.write(
      `provider ${connection.url}: ${pool.size} candidates, candidate list and commitment bound to this audit's nonce, digest verified (‖Z‖∞ ≤ p·ℓ, Z·A = C·H)` +
        `${connection.client.secretChallenge ? ' and secret challenge C installed' : ' (public challenge only)'} in ${traffic.offlineMs.toFixed(0)} ms, ` +
        `${(traffic.offlineBytesReceived / 1e6).toFixed(2)} MB down, ${(traffic.offlineBytesSent / 1e6).toFixed(2)} MB up offline\n`,
    );
    for (const result of results) {
      process.stdout.write(
        `${result.test === 'fixed' ? 'fixed-size DP audit (paper B)' : 'sequential GLR audit (paper A)'}: ${result.decision}` +
          `${result.reason ? ` (${result.reason})` : ''}\n` +
          `  labels used ${result.labelsUsed}, PIR queries ${result.pirQueries}, canaries checked ${result.canariesChecked}, ` +
          `gap d_S = ${Number.isFinite(result.gap) ? result.gap.toFixed(4) : 'n/a'}, statistic ${result.statistic.toFixed(4)}\n` +
          `  sent ${result.bytesSent} bytes, received ${result.bytesReceived} bytes, ${result.onlineMs.toFixed(0)} ms online, ` +
          `labels the answers reveal ${result.labelsRevealed}\n`,
      );
    }
    process.stdout.write(
      `what the auditor learned: the answers decrypt ${labelsRevealed} of ${pool.size} labels (whole columns of D); ` +
        `${labelsRevealedByHint === null ? 'the hint alone is not shown to reveal them all (m > n or A mod 2 rank-deficient)' : `the hint alone determines all ${pool.size} (H = D·A with A of full row rank)`}\n`,
    );
  },
};

/** `fairaudit pir serve|audit`: the two sides of the oblivious audit over loopback HTTP. */
export const pirCommand = commandGroup(
  'pir',
  'Oblivious audit through verifiable PIR: the provider (serve) and the auditor (audit) on 127.0.0.1',
  [serveCommand, auditCommand],
);
