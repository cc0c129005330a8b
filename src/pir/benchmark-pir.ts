import { randomBytes, randomInt } from 'node:crypto';
import { entryLocation } from './packing.js';
import { choosePirParameters, type PirParameters } from './parameters.js';
import { PirClient } from './pir-client.js';
import { PirServer } from './pir-server.js';
import { HEADER_BYTES } from './wire-format.js';

/** One size of `fairaudit bench pir`: times in milliseconds (medians), sizes in bytes. */
export interface PirBenchmarkRow {
  /** log2 of the number of entries (not an integer for the candidate-set sizes). */
  readonly logN: number;
  readonly entries: number;
  readonly entryBits: number;
  readonly plaintextModulus: number;
  readonly rows: number;
  readonly columns: number;
  /** Offline: H = D·A in WebAssembly (A already expanded), wall time. */
  readonly hintMs: number;
  /** The same in CPU time of the process: robust when other processes share the cores. */
  readonly hintCpuMs: number;
  readonly hintBytes: number;
  /** Offline: Z = C·D, the commitment proof, and the auditor's checks of it. */
  readonly commitMs: number;
  readonly commitCheckMs: number;
  /** CPU time of the commitment check (all threads), beside its wall time commitCheckMs. */
  readonly commitCheckCpuMs: number;
  /**
   * The next four with options.secretChallenge only. CPU time of the auditor's PirClient.create (A expanded from
   * its seed, A and H loaded).
   */
  readonly clientCreateCpuMs?: number;
  /**
   * CPU time of the auditor's half of VeriSimplePIR's secret challenge, which `pir audit` runs by default
   * (and must above 2^18 one-bit labels): the encrypted challenge (beginSecretChallenge) and the check of
   * the provider's evaluation (finishSecretChallenge).
   */
  readonly secretChallengeCpuMs?: number;
  /** Provider, per audit: the secret challenge's hints H₂ and its evaluation of the encrypted C, wall time. */
  readonly secretChallengeProviderMs?: number;
  /** Bytes of the secret challenge on the wire: the hints H₂ (all planes), the encrypted C and the answers. */
  readonly secretChallengeBytes?: number;
  /** The auditor's CPU time per retrieval: query plus verifying recovery, the mean over the repetitions. */
  readonly auditorCpuMsPerQuery: number;
  readonly proofBytes: number;
  /** Online, auditor: one Regev encryption of a unit vector (A·s + e + Δ·1_c). */
  readonly queryMs: number;
  /**
   * Online, provider: D·u for one query, the whole call (limb split, kernel, copies),
   * answers timed back to back (warm cache, as for the Go reference's figure).
   */
  readonly answerMs: number;
  /** Online, auditor: decrypt the column and check its noise. */
  readonly recoverMs: number;
  /** Online, auditor: the extra check Z·u = C·v against the commitment. */
  readonly verifyMs: number;
  readonly queryBytes: number;
  readonly answerBytes: number;
  /** Raw database (N·d bits / 8 bytes) per answerMs, in 10^9 bytes per second. */
  readonly answerGBps: number;
  /** The same for the bare answer kernel, and for the multiply-add ceiling loop. */
  readonly kernelGBps: number;
  readonly ceilingGBps: number;
  /** Every entry of every recovered column equalled the database. */
  readonly correct: boolean;
}

export interface PirBenchmarkOptions {
  readonly entries: number;
  readonly entryBits: number;
  /** Timed repetitions of each online step (medians are reported). */
  readonly repetitions: number;
  /**
   * Also run VeriSimplePIR's secret challenge, as `pir audit` does by default, and time its steps (the
   * secretChallenge* fields; 0 without it). Default false: bench pir's figures are paper B's Table 1 setting.
   */
  readonly secretChallenge?: boolean;
  /**
   * Queries the auditor's mean CPU per retrieval is taken over (default `repetitions`). A mean over a few dozen
   * queries, multiplied by thousands of retrievals, multiplies any garbage-collection pause inside it too.
   */
  readonly auditorQueries?: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** CPU milliseconds of this process (every thread) since `since`. */
function cpuMsSince(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e3;
}

function time<T>(work: () => T): [T, number] {
  const start = process.hrtime.bigint();
  const result = work();
  return [result, Number(process.hrtime.bigint() - start) / 1e6];
}

/** The auditor's mean CPU ms per retrieval over `count` random queries: query and verifying recovery only. */
function auditorCpuPerQuery(server: PirServer, client: PirClient, count: number): number {
  let ms = 0;
  for (let r = 0; r < count; r++) {
    let before = process.cpuUsage();
    const state = client.query(randomInt(client.parameters.entryCount));
    ms += cpuMsSince(before);
    const answer = server.answer(state.query, 1);
    before = process.cpuUsage();
    client.recoverColumn(answer, state);
    ms += cpuMsSince(before);
  }
  return ms / count;
}

/**
 * VeriSimplePIR's secret challenge as ProviderConnection.connect runs it (after the public commitment check):
 * the provider's hints H₂ and its evaluation of the encrypted C (wall), the auditor's two steps (CPU), and the
 * bytes on the wire. From then on `client` checks answers against the secret C, as a default audit does.
 */
function runSecretChallenge(server: PirServer, client: PirClient) {
  const seed = new Uint8Array(randomBytes(16));
  const [hints, hintsMs] = time(() => server.challengeHints(seed));
  let before = process.cpuUsage();
  const { encrypted, state } = client.beginSecretChallenge(seed);
  let auditorCpuMs = cpuMsSince(before);
  const [answers, answersMs] = time(() => server.answerChallenge(encrypted));
  before = process.cpuUsage();
  client.finishSecretChallenge(state, hints, answers);
  auditorCpuMs += cpuMsSince(before);
  const bytes = 3 * HEADER_BYTES + (hints.length + encrypted.length + answers.length) * 4;
  return { auditorCpuMs, providerMs: hintsMs + answersMs, bytes };
}

/**
 * benchmarkPir(options) builds a random database of N entries of d bits (entries
 * from node:crypto), runs the offline phase (hint, commitment, commitment check) and
 * times the online phase — query, answer, recover, verify — over `repetitions`
 * queries to random indices, checking every recovered column against D. The answer
 * is timed after a warm-up so that V8's optimising tier runs it. O(repetitions·ℓm).
 */
export async function benchmarkPir(options: PirBenchmarkOptions): Promise<PirBenchmarkRow> {
  const { entries, entryBits, repetitions } = options;
  const parameters: PirParameters = choosePirParameters({ entryCount: entries, entryBits });
  const { rows, columns, lweDimension } = parameters;
  const database = new Uint8Array(randomBytes(entries)).map((byte) => byte & (2 ** Math.min(entryBits, 8) - 1));
  const server = await PirServer.create(database, parameters);
  const a = server.publicMatrix();
  const hintTimes: number[] = [];
  const hintCpuTimes: number[] = [];
  let hint: Uint32Array = new Uint32Array(0);
  for (let r = 0; r < 3; r++) {
    const cpuBefore = process.cpuUsage();
    const [value, ms] = time(() => server.hint(a));
    const cpu = process.cpuUsage(cpuBefore);
    hint = value;
    hintTimes.push(ms);
    hintCpuTimes.push((cpu.user + cpu.system) / 1e3);
  }
  const [{ proof }, commitMs] = time(() => server.commit());
  const createCpuBefore = process.cpuUsage();
  const checking = await PirClient.create(parameters, server.seed, hint);
  const clientCreateCpuMs = cpuMsSince(createCpuBefore);
  const checkCpuBefore = process.cpuUsage();
  const [, commitCheckMs] = time(() => checking.verifyCommitment(proof));
  const commitCheckCpuMs = cpuMsSince(checkCpuBefore);
  const challenge = options.secretChallenge ? runSecretChallenge(server, checking) : undefined;
  const plain = await PirClient.create(parameters, server.seed, hint);
  const matrix = server.matrix();

  // Warm-up, untimed: lets V8's optimising tier compile every step first.
  const warmUp = plain.query(0);
  for (let r = 0; r < 200; r++) server.answer(warmUp.query, 1);
  for (let r = 0; r < 20; r++) {
    const state = plain.query(r % entries);
    const answer = server.answer(state.query, 1);
    plain.recoverColumn(answer, state);
    checking.recoverColumn(answer, state);
  }
  const queryTimes: number[] = [];
  const answerTimes: number[] = [];
  const recoverTimes: number[] = [];
  const verifyTimes: number[] = [];
  const indices = Array.from({ length: repetitions }, () => randomInt(entries));
  const queryCpuBefore = process.cpuUsage();
  const states = indices.map((index) => {
    const [state, queryMs] = time(() => plain.query(index));
    queryTimes.push(queryMs);
    return state;
  });
  const queryCpuMs = cpuMsSince(queryCpuBefore);
  // Answers back to back, as a provider serving a batch would: D stays in cache.
  const answers = states.map((state) => {
    const [answer, answerMs] = time(() => server.answer(state.query, 1));
    answerTimes.push(answerMs);
    return answer;
  });
  let correct = true;
  for (let r = 0; r < repetitions; r++) {
    const index = indices[r];
    const state = states[r];
    const answer = answers[r];
    const [column, recoverMs] = time(() => plain.recoverColumn(answer, state));
    const [, verifiedMs] = time(() => checking.recoverColumn(answer, state));
    recoverTimes.push(recoverMs);
    verifyTimes.push(Math.max(0, verifiedMs - recoverMs));
    const { column: c } = entryLocation(index, parameters);
    for (let row = 0; row < rows; row++) {
      if (column.values[row] !== matrix[row * columns + c]) correct = false;
    }
  }
  // The auditor's CPU per retrieval: the query and the verifying client's recovery, summed over all threads.
  const recoverCpuBefore = process.cpuUsage();
  for (let r = 0; r < repetitions; r++) checking.recoverColumn(answers[r], states[r]);
  const auditorCpuMsPerQuery =
    options.auditorQueries === undefined
      ? (queryCpuMs + cpuMsSince(recoverCpuBefore)) / repetitions
      : auditorCpuPerQuery(server, checking, options.auditorQueries);
  const kernel = server.benchmarkKernel(warmUp.query, 1, Math.max(20, repetitions));
  const rawGigabytes = (entries * entryBits) / 8 / 1e9;
  const answerMs = median(answerTimes);
  return {
    logN: Math.log2(entries),
    entries,
    entryBits,
    plaintextModulus: parameters.plaintextModulus,
    rows,
    columns,
    commitCheckCpuMs,
    ...(challenge === undefined
      ? {}
      : {
          clientCreateCpuMs,
          secretChallengeCpuMs: challenge.auditorCpuMs,
          secretChallengeBytes: challenge.bytes,
          secretChallengeProviderMs: challenge.providerMs,
        }),
    auditorCpuMsPerQuery,
    hintMs: median(hintTimes),
    hintCpuMs: median(hintCpuTimes),
    hintBytes: rows * lweDimension * 4,
    commitMs,
    commitCheckMs,
    proofBytes: proof.byteLength,
    queryMs: median(queryTimes),
    answerMs,
    recoverMs: median(recoverTimes),
    verifyMs: median(verifyTimes),
    queryBytes: HEADER_BYTES + columns * 4,
    answerBytes: HEADER_BYTES + rows * 4,
    answerGBps: rawGigabytes / (answerMs / 1e3),
    kernelGBps: rawGigabytes / (kernel.answerMs / 1e3),
    ceilingGBps: rawGigabytes / (kernel.ceilingMs / 1e3),
    correct,
  };
}
