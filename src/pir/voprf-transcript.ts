import { voprfCommitment } from './voprf-commitment.js';
import { ELEMENT_BYTES, labelInput, labelPad, PROOF_BYTES, readEntry, VOPRF, VOPRF_SUITE } from './voprf-suite.js';

/** The format name a label-transfer transcript carries. */
export const TRANSCRIPT_FORMAT = 'fairaudit-voprf-transcript/1';

/** Bytes of the seed a blind is drawn from (the library's RandomScalar input for ristretto255). */
export const BLIND_SEED_BYTES = 48;

/**
 * One batch as sent and received, with what the auditor discloses after the audit: the
 * candidate of each element (S and the canaries, in the order sent) and each blind's seed.
 */
export interface TranscriptBatch {
  readonly indices: number[];
  /** Hex seeds of the blinds (disclosed after the audit: with them anyone re-derives each blinded element). */
  readonly blindSeeds: string[];
  readonly blinded: string[];
  readonly evaluated: string[];
  readonly proof: string;
  /** The labels the auditor read. */
  readonly labels: number[];
}

/** A whole audit of the label transfer, as `pir audit --transcript` writes it (hex strings, T in base64). */
export interface VoprfTranscript {
  readonly format: typeof TRANSCRIPT_FORMAT;
  readonly suite: typeof VOPRF_SUITE;
  readonly candidateDigest: string;
  readonly publicKey: string;
  readonly tableId: string;
  readonly entryCount: number;
  readonly entryBits: number;
  readonly table: string;
  readonly auditorNonce: string;
  readonly evaluationBudget: number;
  readonly commitment: string;
  readonly batches: TranscriptBatch[];
}

/** What a third party's re-check of a transcript found. */
export interface TranscriptVerification {
  readonly verified: boolean;
  readonly labelsChecked: number;
  /** The first check that failed, in words. */
  readonly failure?: string;
}

const hexBytes = (text: string) => new Uint8Array(Buffer.from(text, 'hex'));

/**
 * blindFromSeed(input, seed) blinds x with the blind the library derives from `seed`
 * (its RandomScalar on these bytes): the auditor draws the seed from node:crypto and keeps
 * it, so that it can disclose the blind after the audit and anyone can re-derive the blinded
 * element. O(1) group operations.
 * @param input the OPRF input x_i
 * @param seed 48 bytes
 * @returns the blind (scalar bytes) and the blinded element
 * @example blindFromSeed(labelInput(digest, tableId, 3), randomBytes(48))
 */
export function blindFromSeed(input: Uint8Array, seed: Uint8Array): { blind: Uint8Array; blinded: Uint8Array } {
  return VOPRF.blind(input, (length = BLIND_SEED_BYTES) => {
    if (length !== seed.length)
      throw new Error(`blindFromSeed: the library asked ${length} bytes, the seed has ${seed.length}`);
    return seed.slice();
  });
}

/**
 * verifyTranscriptBatch(transcript, batch, digest, tableId) re-checks one batch: every
 * blinded element re-derived from its disclosed candidate and seed, the batch's DLEQ proof
 * against pk, and every label equal to T_i ⊕ pad(y_i). Returns the failure in words, or
 * undefined. O(batch) group operations.
 */
function verifyTranscriptBatch(
  transcript: VoprfTranscript,
  batch: TranscriptBatch,
  number: number,
): string | undefined {
  const digest = hexBytes(transcript.candidateDigest);
  const tableId = hexBytes(transcript.tableId);
  const table = new Uint8Array(Buffer.from(transcript.table, 'base64'));
  const count = batch.indices.length;
  const lengths = [batch.blindSeeds, batch.blinded, batch.evaluated, batch.labels].map((list) => list.length);
  if (lengths.some((length) => length !== count)) return `batch ${number}: lists of unequal length`;
  if (!/^[0-9a-f]*$/.test(batch.proof) || batch.proof.length !== 2 * PROOF_BYTES) return `batch ${number}: bad proof`;
  const items = [];
  for (let k = 0; k < count; k++) {
    const index = batch.indices[k];
    if (!Number.isInteger(index) || index < 0 || index >= transcript.entryCount) {
      return `batch ${number}, element ${k}: candidate ${index} is not in [0, ${transcript.entryCount})`;
    }
    const input = labelInput(digest, tableId, index);
    const { blind, blinded } = blindFromSeed(input, hexBytes(batch.blindSeeds[k]));
    if (Buffer.from(blinded).toString('hex') !== batch.blinded[k] || batch.evaluated[k].length !== 2 * ELEMENT_BYTES) {
      return `batch ${number}, element ${k}: the blinded element is not candidate ${index} under the disclosed blind`;
    }
    items.push({ input, blind, blinded, evaluated: hexBytes(batch.evaluated[k]) });
  }
  let outputs: Uint8Array[];
  try {
    outputs = VOPRF.finalizeBatch(items, hexBytes(transcript.publicKey), hexBytes(batch.proof));
  } catch (error) {
    return `batch ${number}: the DLEQ proof does not verify against pk (${(error as Error).message})`;
  }
  for (let k = 0; k < count; k++) {
    const label = readEntry(table, batch.indices[k], transcript.entryBits) ^ labelPad(outputs[k], transcript.entryBits);
    if (label !== batch.labels[k]) {
      return (
        `batch ${number}, candidate ${batch.indices[k]}: the committed label is ${label}, the transcript ` +
        `says ${batch.labels[k]}`
      );
    }
  }
  return undefined;
}

/**
 * verifyVoprfTranscript(transcript) re-checks an audit of the label transfer as a third
 * party can once the auditor discloses S and its blinds: the commitment recomputed over
 * (digest, pk, table id, T, nonce, budget), the evaluations within the budget, and every
 * batch (verifyTranscriptBatch). With `candidateDigest` it also checks the list's digest.
 * O(|T| + evaluations) group operations.
 * @param transcript the transcript `pir audit --transcript` wrote
 * @param candidateDigest the digest of the candidate list the verifier holds (hex), optional
 * @returns verified, the labels checked, and the first failure in words
 * @example verifyVoprfTranscript(JSON.parse(readFileSync('audit.json', 'utf8'))).verified
 */
export function verifyVoprfTranscript(transcript: VoprfTranscript, candidateDigest?: string): TranscriptVerification {
  const fail = (failure: string, labelsChecked = 0) => ({ verified: false, labelsChecked, failure });
  if (transcript.format !== TRANSCRIPT_FORMAT || transcript.suite !== VOPRF_SUITE) {
    return fail(`expected a ${TRANSCRIPT_FORMAT} transcript of ${VOPRF_SUITE}`);
  }
  if (candidateDigest !== undefined && candidateDigest !== transcript.candidateDigest) {
    return fail(`the transcript's candidate digest ${transcript.candidateDigest} is not the list's ${candidateDigest}`);
  }
  const recomputed = voprfCommitment({
    candidateDigest: hexBytes(transcript.candidateDigest),
    publicKey: hexBytes(transcript.publicKey),
    tableId: hexBytes(transcript.tableId),
    entryCount: transcript.entryCount,
    entryBits: transcript.entryBits,
    table: new Uint8Array(Buffer.from(transcript.table, 'base64')),
    auditorNonce: hexBytes(transcript.auditorNonce),
    evaluationBudget: transcript.evaluationBudget,
  });
  if (recomputed !== transcript.commitment)
    return fail('the commitment does not match (digest, pk, table id, T, nonce, budget)');
  const evaluations = transcript.batches.reduce((total, batch) => total + batch.indices.length, 0);
  if (evaluations > transcript.evaluationBudget) {
    return fail(`${evaluations} evaluations exceed the budget of ${transcript.evaluationBudget}`);
  }
  let labelsChecked = 0;
  for (const [number, batch] of transcript.batches.entries()) {
    const failure = verifyTranscriptBatch(transcript, batch, number);
    if (failure !== undefined) return fail(failure, labelsChecked);
    labelsChecked += batch.indices.length;
  }
  return { verified: true, labelsChecked };
}
