import { readFileSync } from 'node:fs';
import type { Argv, CommandModule } from 'yargs';
import { readPoolFile } from '../../audit/pool-io.js';
import { candidateListDigest } from '../../pir/candidate-digest.js';
import { type VoprfTranscript, verifyVoprfTranscript } from '../../pir/voprf-transcript.js';
import { inputError } from '../../util/errors.js';
import { PROVIDER_REJECTED_EXIT_CODE } from './pir-audit.js';

interface VerifyArguments {
  transcript: string;
  pool?: string;
  json: boolean;
}

/** Reads a transcript file as JSON, or InputError naming the file (exit 2). */
function readTranscript(path: string): VoprfTranscript {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw inputError({
      where: path,
      expected: 'a transcript written by pir audit --transcript',
      found: (error as NodeJS.ErrnoException).code ?? String(error),
    });
  }
  try {
    const parsed = JSON.parse(text) as VoprfTranscript;
    if (typeof parsed !== 'object' || parsed === null || !Array.isArray(parsed.batches)) throw new Error('no batches');
    return parsed;
  } catch (error) {
    throw inputError({
      where: path,
      expected: 'a JSON transcript with batches',
      found: (error as Error).message.slice(0, 100),
    });
  }
}

/** `fairaudit pir verify TRANSCRIPT`: a third party re-checks an audit of the label transfer. */
export const pirVerifyCommand: CommandModule<object, VerifyArguments> = {
  command: 'verify <transcript>',
  describe:
    'Third party: re-check a voprf audit transcript (commitment, every DLEQ proof, every label) once the auditor ' +
    'discloses S and its blinds',
  builder: (yargs: Argv) =>
    yargs
      .positional('transcript', {
        type: 'string',
        demandOption: true,
        describe: 'the file pir audit --transcript wrote',
      })
      .option('pool', {
        type: 'string',
        describe: "also check the transcript's candidate digest against this pool's id and group columns",
      })
      .option('json', { type: 'boolean', default: false, describe: 'print the result as one JSON object' })
      .epilogue(
        `Exit codes: 0 verified, ${PROVIDER_REJECTED_EXIT_CODE} a check failed, 2 bad input.`,
      ) as Argv<VerifyArguments>,
  handler: (argv) => {
    const transcript = readTranscript(argv.transcript);
    let digest: string | undefined;
    if (argv.pool !== undefined) {
      const pool = readPoolFile(argv.pool);
      digest = Buffer.from(candidateListDigest(pool.id, pool.group)).toString('hex');
    }
    let result: ReturnType<typeof verifyVoprfTranscript>;
    try {
      result = verifyVoprfTranscript(transcript, digest);
    } catch (error) {
      // A field of the wrong type or size (the library refuses it): the file is not a transcript.
      throw inputError({
        where: argv.transcript,
        expected: 'a transcript written by pir audit --transcript',
        found: (error as Error).message.slice(0, 100),
      });
    }
    if (argv.json) process.stdout.write(`${JSON.stringify({ transcript: argv.transcript, ...result })}\n`);
    else if (result.verified) {
      process.stdout.write(
        `${argv.transcript}: verified: the commitment, ${transcript.batches.length} DLEQ proofs ` +
          `and ${result.labelsChecked} labels hold\n`,
      );
    } else
      process.stdout.write(
        `${argv.transcript}: NOT verified after ${result.labelsChecked} labels: ${result.failure}\n`,
      );
    if (!result.verified) process.exitCode = PROVIDER_REJECTED_EXIT_CODE;
  },
};
