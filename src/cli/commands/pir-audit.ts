import type { Argv, CommandModule } from 'yargs';
import { AUDIT_DESIGNS, type AuditDesign } from '../../audit/audit-design.js';
import { type AuditPool, groupCountOf } from '../../audit/pool.js';
import { readPoolFile } from '../../audit/pool-io.js';
import { drawAuditPlan } from '../../pir/audit-plan.js';
import { candidateListDigest } from '../../pir/candidate-digest.js';
import type { LabelTransport } from '../../pir/label-transport.js';
import {
  checkBothGroups,
  checkEveryGroup,
  type ObliviousAuditRun,
  type ObliviousProcedure,
  runObliviousAudit,
} from '../../pir/oblivious-audit.js';
import { choosePirParameters } from '../../pir/parameters.js';
import { PirVerificationError } from '../../pir/pir-verification-error.js';
import { loopbackBase, ProviderConnection, type ProviderEndpoint } from '../../pir/provider-connection.js';
import { readProviderFile } from '../../pir/provider-file.js';
import { LABEL_TRANSPORTS, type LabelTransportName } from '../../pir/provider-service.js';
import { VoprfConnection } from '../../pir/voprf-connection.js';
import { VOPRF_SUITE } from '../../pir/voprf-suite.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { createCryptoRandom } from '../../util/crypto-random.js';
import { inputError } from '../../util/errors.js';
import { createRandom, type Random } from '../../util/random.js';
import { checkErrorLevelFlags, checkIntegerFlag, checkProbabilityFlag } from '../check-flag.js';
import { requireIdColumn, SIMPLEPIR_NOTE, TRANSPORT_HELP, VOPRF_NOTE } from './pir-transport-notes.js';

/** The exit code of `pir audit` when a procedure's verdict is provider-rejected (2 is bad input, 1 an internal
 * failure). */
export const PROVIDER_REJECTED_EXIT_CODE = 3;

/** SimplePIR's public-only checks are unsound above this many rows of D (ℓ > 128: ≥ 2^18 one-bit labels). */
const PUBLIC_CHECK_MAX_ROWS = 128;

interface AuditArguments {
  provider?: string;
  'provider-file'?: string;
  pool: string;
  transport: LabelTransportName;
  'audit-set-size'?: number;
  'sample-size'?: number;
  design: AuditDesign;
  sampling?: string;
  canaries: number;
  'batch-size': number;
  tolerance: number;
  alpha: number;
  beta: number;
  procedure: string;
  test?: string;
  seed?: string;
  transcript?: string;
  json: boolean;
  shutdown: boolean;
  'secret-challenge': boolean;
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
      expected:
        `exactly one of --provider-file FILE (written by pir serve --url-file) or --provider URL (token ` +
        `in ${TOKEN_VARIABLE})`,
      found: argv.provider === undefined ? 'neither' : 'both',
    });
  }
  if (argv['provider-file'] !== undefined) {
    const file = readProviderFile(argv['provider-file'], '--provider-file');
    if ((file.mode & 0o077) !== 0) {
      process.stderr.write(
        `warning: ${argv['provider-file']} has mode 0${file.mode.toString(8)}: other users may read the ` +
          `provider's token (pir serve writes it 0600)\n`,
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

/** Flags this command renamed: each is refused with the new name (exit 2). */
function refuseRenamedFlags(argv: AuditArguments): void {
  const renamed: Array<[string, unknown, string]> = [
    ['--sampling', argv.sampling, '--design uniform, proportional or balanced (stratified is now proportional)'],
    ['--sample-size', argv['sample-size'], '--audit-set-size N (n = |S|, the name respir uses)'],
    ['--test', argv.test, '--procedure fixed, sequential or both (--test names the statistical test elsewhere)'],
  ];
  for (const [flag, value, instead] of renamed) {
    if (value !== undefined)
      throw inputError({ where: flag, expected: `${instead}: the flag was renamed`, found: value });
  }
}

/** Opens the audit's transport: the OPRF label transfer with budget |S| + k, or SimplePIR. */
async function openTransport(
  argv: AuditArguments,
  endpoint: ProviderEndpoint,
  pool: AuditPool,
  evaluationBudget: number,
): Promise<LabelTransport> {
  const candidates = { entryCount: pool.size, entryBits: 1, digest: candidateListDigest(pool.id, pool.group) };
  if (argv.transport === 'voprf') return VoprfConnection.connect(endpoint, candidates, evaluationBudget);
  return ProviderConnection.connect(endpoint, candidates, { secretChallenge: argv['secret-challenge'] });
}

/** Refuses --no-secret-challenge where Figure 3's public checks alone are unsound (ℓ > 128). */
function checkPublicChecksSound(argv: AuditArguments, pool: AuditPool): void {
  if (argv.transport !== 'simplepir' || argv['secret-challenge']) return;
  const { rows } = choosePirParameters({ entryCount: pool.size, entryBits: 1 });
  if (rows > PUBLIC_CHECK_MAX_ROWS) {
    throw inputError({
      where: '--no-secret-challenge',
      expected:
        `at most ${PUBLIC_CHECK_MAX_ROWS} rows of D (fewer than 2^18 one-bit labels): above that a shift ` +
        `attack passes the public checks`,
      found: `${rows} rows for ${pool.size} candidates`,
    });
  }
}

/** What the auditor learned and what the audit cost, per transport, for --json and the text report. */
function transportReport(transport: LabelTransport, pool: AuditPool): Record<string, unknown> {
  const common = {
    provider: transport.url,
    transport: transport.transport,
    transportNote: transport.transport === 'voprf' ? VOPRF_NOTE : SIMPLEPIR_NOTE,
    candidates: pool.size,
    labelsRevealed: transport.labelsRevealed(),
    offlineBytesReceived: transport.traffic.offlineBytesReceived,
    offlineBytesSent: transport.traffic.offlineBytesSent,
    offlineMs: transport.traffic.offlineMs,
  };
  const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
  if (transport instanceof VoprfConnection) {
    return {
      ...common,
      suite: VOPRF_SUITE,
      evaluationBudget: transport.evaluationBudget,
      auditorNonce: hex(transport.auditorNonce),
      commitment: transport.commitment,
    };
  }
  const connection = transport as ProviderConnection;
  const { parameters, binding } = connection;
  return {
    ...common,
    plaintextModulus: parameters.plaintextModulus,
    rows: parameters.rows,
    columns: parameters.columns,
    secretChallenge: connection.client.secretChallenge,
    binding: {
      candidateDigest: hex(binding.candidateDigest),
      auditorNonce: hex(binding.auditorNonce),
      providerShare: hex(binding.providerShare),
    },
    labelsRevealedByAnswers: connection.labelsRevealedByAnswers(),
    // Information-theoretically H = D·A (ℓ·n words for ℓ·m small entries, m ≤ n) determines D at every size.
    labelsRevealedByHint: pool.size,
    labelsRevealedByChallengeHints: connection.client.secretChallenge ? pool.size : 0,
  };
}

function writeTextReport(report: Record<string, unknown>, run: ObliviousAuditRun, groupCount: number): void {
  const gapName = groupCount === 2 ? 'gap d_S' : `max-gap of S over ${groupCount} groups`;
  const mb = (bytes: unknown) => ((bytes as number) / 1e6).toFixed(3);
  process.stdout.write(
    `provider ${report.provider} (${report.transport}: ${report.transportNote}): ${report.candidates} candidates, ` +
      `commitment bound to this audit's nonce verified in ${(report.offlineMs as number).toFixed(0)} ms, ` +
      `${mb(report.offlineBytesReceived)} MB down, ${mb(report.offlineBytesSent)} MB up offline\n`,
  );
  for (const result of run.results) {
    process.stdout.write(
      `${
        result.procedure === 'fixed' ? 'fixed-size DP audit (paper ' + 'B)' : 'sequential GLR audit (paper A)'
      }: ${result.decision}` +
        `${result.reason ? ` (${result.reason})` : ''}\n` +
        `  labels used ${result.labelsUsed}, ${gapName} ` +
        `= ${Number.isFinite(result.gap) ? result.gap.toFixed(4) : 'n/a'}, ` +
        `statistic ${result.statistic.toFixed(4)}\n`,
    );
  }
  process.stdout.write(
    `labels retrieved ${run.labelsRetrieved} (canaries checked ${run.canariesChecked}); sent ${run.bytesSent} bytes, ` +
      `received ${run.bytesReceived} bytes, ${run.onlineMs.toFixed(0)} ms online\n` +
      `what the auditor learned: ${report.labelsRevealed} of ${report.candidates} labels` +
      `${
        report.transport === 'simplepir'
          ? ' (the hint H = D·A determines every label; the answers alone ' +
            'decrypt ' +
            String(report.labelsRevealedByAnswers) +
            ')'
          : ' (one per evaluation received)'
      }\n`,
  );
}

export const pirAuditCommand: CommandModule<object, AuditArguments> = {
  command: 'audit',
  describe:
    'Auditor: draw S ⊂ C and the canaries, retrieve their labels through a verified transport, run the fixed and ' +
    'sequential audits',
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
        describe:
          'the candidate set: its id and group columns (and, for the canaries only, the decisions the auditor knows)',
      })
      .option('transport', {
        choices: LABEL_TRANSPORTS,
        default: 'voprf' as LabelTransportName,
        describe: TRANSPORT_HELP,
      })
      .option('audit-set-size', {
        type: 'number',
        describe: 'n = |S| (canaries excluded); default 1000, or every candidate of a smaller pool',
      })
      .option('sample-size', { type: 'number', hidden: true, describe: 'Renamed: --audit-set-size' })
      .option('design', {
        choices: AUDIT_DESIGNS,
        default: 'uniform' as AuditDesign,
        describe:
          'how S is drawn from C: uniform, or stratified by group with proportional or balanced allocation (as ' +
          'in respir configs)',
      })
      .option('sampling', { type: 'string', hidden: true, describe: 'Removed: --design' })
      .option('canaries', {
        type: 'number',
        default: 10,
        describe: 'k, candidates outside S with known labels, retrieved among S',
      })
      .option('batch-size', { type: 'number', default: 64, describe: 'labels per request' })
      .option('tolerance', {
        type: 'number',
        default: 0.05,
        describe: 'ε (δ of paper A): the tolerance on the demographic-parity gap of S',
      })
      .option('alpha', { type: 'number', default: 0.05 })
      .option('beta', { type: 'number', default: 0.2 })
      .option('procedure', {
        type: 'string',
        choices: ['fixed', 'sequential', 'both'],
        default: 'both',
        describe: "paper B's fixed-size test, paper A's sequential GLR, or both on the same S",
      })
      .option('test', { type: 'string', hidden: true, describe: 'Renamed: --procedure' })
      .option('seed', {
        type: 'string',
        describe:
          'replay the draw of S and of the canaries from this seed (tests and demonstrations only: the provider ' +
          'can then predict S); default: node:crypto',
      })
      .option('transcript', {
        type: 'string',
        describe:
          'voprf: write the audit transcript (T, commitment, every batch, and S with its blinds) to this file ' +
          '(mode 0600) for pir verify; disclose it only after the audit',
      })
      .option('secret-challenge', {
        type: 'boolean',
        default: true,
        describe:
          "simplepir: VeriSimplePIR's secret-challenge preprocessing (--no-secret-challenge: Figure 3's public " +
          'checks only, refused at ≥ 2^18 labels)',
      })
      .option('json', { type: 'boolean', default: false, describe: 'print the results as one JSON object' })
      .option('shutdown', { type: 'boolean', default: false, describe: 'stop the provider afterwards' })
      .epilogue(
        `Exit codes: 0 the audit ran (reject, accept or inconclusive), ${PROVIDER_REJECTED_EXIT_CODE} a verdict ` +
          `is provider-rejected, 2 bad input, 1 internal failure.`,
      ) as Argv<AuditArguments>,
  handler: async (argv) => {
    refuseRenamedFlags(argv);
    checkIntegerFlag('--canaries', argv.canaries, 0, 10_000);
    checkIntegerFlag('--batch-size', argv['batch-size'], 1, 4096);
    if (argv['audit-set-size'] !== undefined) checkIntegerFlag('--audit-set-size', argv['audit-set-size'], 2);
    checkProbabilityFlag('--tolerance', argv.tolerance);
    checkErrorLevelFlags(argv.alpha, argv.beta);
    if (argv.transcript !== undefined && argv.transport !== 'voprf') {
      throw inputError({ where: '--transcript', expected: 'the voprf transport', found: argv.transport });
    }
    const pool = readPoolFile(argv.pool);
    requireIdColumn(pool, '--pool');
    const groupCount = groupCountOf(pool);
    if (groupCount === 2) checkBothGroups(pool.group, `${pool.source}: column group`);
    else checkEveryGroup(pool.group, groupCount, `${pool.source}: column group`);
    if (groupCount > 2 && argv.procedure !== 'fixed') {
      // Refused before the provider is contacted; runObliviousAudit refuses it too.
      throw inputError({
        where: '--procedure',
        expected: `fixed for a candidate set of ${groupCount} groups (the sequential GLR audit compares two groups)`,
        found: argv.procedure,
      });
    }
    checkPublicChecksSound(argv, pool);
    // A size the user gave is kept or refused, never lowered silently; the default fits the pool.
    const auditSetSize = argv['audit-set-size'] ?? Math.min(1000, pool.size);
    if (auditSetSize > pool.size) {
      throw inputError({
        where: '--audit-set-size',
        expected: `at most the ${pool.size} candidates of the pool`,
        found: auditSetSize,
      });
    }
    const endpoint = providerEndpoint(argv);
    loopbackBase(endpoint.url);
    const seed = argv.seed;
    if (seed !== undefined) {
      process.stderr.write(
        `warning: --seed ${JSON.stringify(seed)} makes S and the canaries predictable to anyone who knows the ` +
          `seed; a real audit leaves --seed out\n`,
      );
    }
    const random: Random = seed === undefined ? createCryptoRandom() : createRandom(`${seed}:plan`);
    const plan = drawAuditPlan(
      {
        groups: pool.group,
        knownLabels: pool.decision,
        auditSetSize,
        canaryCount: argv.canaries,
        design: argv.design,
        groupCount,
      },
      random,
    );
    let transport: LabelTransport;
    try {
      transport = await openTransport(argv, endpoint, pool, plan.order.length);
    } catch (error) {
      if (!(error instanceof PirVerificationError)) throw error;
      if (argv.shutdown) await ProviderConnection.requestShutdown(endpoint);
      const rejected = {
        provider: endpoint.url,
        transport: argv.transport,
        decision: 'provider-rejected',
        reason: error.message,
      };
      process.stdout.write(
        argv.json
          ? `${JSON.stringify(rejected)}\n`
          : `provider ${endpoint.url}: provider-rejected during the offline phase (${error.message})\n`,
      );
      process.exitCode = PROVIDER_REJECTED_EXIT_CODE;
      return;
    }
    const procedures: ObliviousProcedure[] =
      argv.procedure === 'both' ? ['fixed', 'sequential'] : [argv.procedure as ObliviousProcedure];
    const run = await runObliviousAudit(transport, {
      groups: pool.group,
      plan,
      batchSize: argv['batch-size'],
      procedures,
      tolerance: argv.tolerance,
      alpha: argv.alpha,
      beta: argv.beta,
      groupCount,
    });
    await transport.close();
    if (argv.shutdown) await ProviderConnection.requestShutdown(endpoint);
    if (argv.transcript !== undefined && transport instanceof VoprfConnection) {
      writeFileAtomic(argv.transcript, `${JSON.stringify(transport.transcript())}\n`, { mode: 0o600 });
    }
    const report = transportReport(transport, pool);
    const { results, ...costs } = run;
    if (argv.json) {
      const json = {
        ...report,
        ...(groupCount === 2 ? {} : { groupNames: pool.groupNames }),
        auditSetSize: plan.auditSet.length,
        canaries: plan.canaries.length,
        ...costs,
        results,
      };
      process.stdout.write(`${JSON.stringify(json)}\n`);
    } else writeTextReport(report, run, groupCount);
    if (results.some((result) => result.decision === 'provider-rejected'))
      process.exitCode = PROVIDER_REJECTED_EXIT_CODE;
  },
};
