import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';
import { describeFound, InputError } from '../util/errors.js';
import { parseJsonUntrusted } from '../util/parse-untrusted.js';
import { MAX_JSON_FILE_BYTES, readFileCapped } from '../util/read-capped.js';
import { type DecodedChunk, decodeChunkColumns } from './chunk-payload.js';
import type { KindRunner, OutcomeColumn } from './kind-runner.js';
import { type Plan, type PlanChunk, replicateSeed, type Shard, shardChunks, shardHasChunk } from './plan.js';

/** The format of .checkpoints/plan.json and of the chunk files beside it (format 1, before December 2026, had no
 * checksums). */
export const CHECKPOINT_FORMAT = 'fairaudit-checkpoints/2';

/** What .checkpoints/plan.json records, so a resume can check it continues the same plan. */
interface CheckpointPlan {
  format: typeof CHECKPOINT_FORMAT;
  experiment: string;
  fingerprint: string;
  shard: Shard | null;
}

/** A completed chunk and its payload bytes (encodeChunkPayload). */
export interface CompletedChunk {
  chunk: PlanChunk;
  payload: Uint8Array;
}

/** A damaged or foreign checkpoint: the file, the chunk when only one chunk of it is bad, and why. */
export interface CheckpointProblem {
  file: string;
  chunk: number | null;
  reason: string;
}

/** The largest checkpoint file read whole: the batcher writes at most ~8 MiB of chunks to one file. */
const MAX_CHECKPOINT_FILE_BYTES = 1 << 30;

/** The batcher starts a new file after this many bytes of chunks (so a file, and the memory for it, stays small). */
export const CHECKPOINT_FILE_BYTES = 8 << 20;

const BATCH_MAGIC = 0x32434146; // "FAC2" read as a little-endian uint32
const FORMAT_1_MAGIC = 0x42434146; // "FACB": format 1, without checksums
const FINGERPRINT_BYTES = 64;
const FILE_HEADER_BYTES = 8 + FINGERPRINT_BYTES;
const ENTRY_HEADER_BYTES = 8 + 32;
/** A checkpoint file's name: its first chunk, and a number when another file already had that name (repair). */
const CHUNK_FILE = /^chunks-(\d+)(?:-\d+)?\.bin$/;

/** A name for a new file whose first chunk is firstChunk that no file in the folder has: never written over. */
function batchFile(folder: string, firstChunk: number): string {
  const base = `chunks-${String(firstChunk).padStart(7, '0')}`;
  let path = join(folder, `${base}.bin`);
  for (let copy = 1; existsSync(path); copy++) path = join(folder, `${base}-${copy}.bin`);
  return path;
}

/** The checksum of a chunk entry: SHA-256 of the plan fingerprint, the chunk index and length (uint32 LE each) and the
 * payload. */
function entryChecksum(fingerprint: string, index: number, payload: Uint8Array): Buffer {
  const numbers = Buffer.alloc(8);
  numbers.writeUInt32LE(index, 0);
  numbers.writeUInt32LE(payload.byteLength, 4);
  return createHash('sha256').update(fingerprint).update(numbers).update(payload).digest();
}

/** One chunk entry of a checkpoint file, as read. */
interface Entry {
  index: number;
  payload: Uint8Array;
  /** Why the entry cannot be trusted, or null when its checksum holds. */
  problem: string | null;
}

/**
 * The entries of a checkpoint file (format 2), each with its checksum checked against
 * `fingerprint`; throws a CheckpointProblem-shaped Error (`fileProblem`) when the file
 * as a whole is not a checkpoint of this plan. O(bytes).
 */
function readEntries(bytes: Uint8Array, fingerprint: string): { entries: Entry[] } | { fileProblem: string } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength >= 4 && view.getUint32(0, true) === FORMAT_1_MAGIC) {
    return { fileProblem: 'a checkpoint of an older fairaudit (format 1, without checksums)' };
  }
  if (bytes.byteLength < FILE_HEADER_BYTES || view.getUint32(0, true) !== BATCH_MAGIC)
    return { fileProblem: 'other bytes (not a fairaudit checkpoint file)' };
  const recorded = Buffer.from(bytes.subarray(8, FILE_HEADER_BYTES)).toString('latin1');
  if (recorded !== fingerprint) {
    return {
      fileProblem:
        `chunks of another plan (${describeFound(recorded.slice(0, 12))}, ` +
        `not ${fingerprint.slice(0, 12)}: another seed, config or --set)`,
    };
  }
  const count = view.getUint32(4, true);
  const entries: Entry[] = [];
  let offset = FILE_HEADER_BYTES;
  for (let i = 0; i < count; i++) {
    if (offset + ENTRY_HEADER_BYTES > bytes.byteLength) return { fileProblem: 'a truncated file' };
    const index = view.getUint32(offset, true);
    const length = view.getUint32(offset + 4, true);
    if (offset + ENTRY_HEADER_BYTES + length > bytes.byteLength) return { fileProblem: 'a truncated file' };
    const payload = bytes.subarray(offset + ENTRY_HEADER_BYTES, offset + ENTRY_HEADER_BYTES + length);
    const checksum = bytes.subarray(offset + 8, offset + ENTRY_HEADER_BYTES);
    const holds = entryChecksum(fingerprint, index, payload).equals(checksum);
    entries.push({
      index,
      payload,
      problem: holds ? null : 'bytes that do not match their SHA-256 (the file is damaged)',
    });
    offset += ENTRY_HEADER_BYTES + length;
  }
  if (offset !== bytes.byteLength) return { fileProblem: `${bytes.byteLength - offset} bytes after the last chunk` };
  return { entries };
}

/** A set of chunks of one shard: one bit per chunk of the shard (chunk index ÷ shard count). */
export class ChunkSet {
  private readonly bits: Uint8Array;
  private readonly step: number;
  size = 0;

  constructor(plan: Plan, shard: Shard | null) {
    this.step = shard ? shard.count : 1;
    this.bits = new Uint8Array(Math.ceil(Math.ceil(plan.chunkCount / this.step) / 8));
  }

  has(index: number): boolean {
    const position = Math.floor(index / this.step);
    return (this.bits[position >> 3] & (1 << (position & 7))) !== 0;
  }

  add(index: number): void {
    const position = Math.floor(index / this.step);
    if (this.has(index)) return;
    this.bits[position >> 3] |= 1 << (position & 7);
    this.size += 1;
  }
}

/** The chunks --resume found whole, and the problems --repair would fix. */
export interface ResumeState {
  done: ChunkSet;
  /** Replicates in the chunks found whole. */
  rows: number;
  problems: CheckpointProblem[];
  /** plan.json could not be read (damaged or of an older format): --repair rewrites it. */
  planProblem: string | null;
}

/**
 * The checkpoints of a run: results/<experiment>/.checkpoints/ holds plan.json (format,
 * experiment, plan fingerprint and shard) and checkpoint files chunks-NNNNNNN.bin, each
 * holding one or more completed chunks (NNNNNNN: the smallest chunk index in it, so
 * files of a run and of its resumes never share a name). Layout (format 2,
 * little-endian): "FAC2", a uint32 chunk count, the plan fingerprint (64 ASCII hex
 * digits), then per chunk a uint32 chunk index, a uint32 byte length, the SHA-256 of
 * (fingerprint, index, length, payload) and the payload bytes the worker sent
 * (chunk-payload.ts; a multiple of 8 bytes). Each file is written atomically
 * (temporary name, then rename), so a killed run leaves only whole files; the
 * checksums and the fingerprint catch the rest (a flipped byte, chunks of another
 * plan).
 */
export class Checkpoints {
  readonly folder: string;
  readonly planFile: string;

  constructor(
    outDirectory: string,
    private readonly plan: Plan,
    private readonly shard: Shard | null,
    private readonly columns: readonly OutcomeColumn[],
    /** The kind's row check (KindRunner.rowProblem): a chunk with a row that does not re-derive is not this plan's. */
    private readonly rowProblem?: KindRunner['rowProblem'],
  ) {
    this.folder = join(outDirectory, '.checkpoints');
    this.planFile = join(this.folder, 'plan.json');
  }

  /** Deletes any checkpoints and starts a fresh set for this plan. */
  start(): void {
    rmSync(this.folder, { recursive: true, force: true });
    mkdirSync(this.folder, { recursive: true });
    this.writePlan();
  }

  private writePlan(): void {
    const record: CheckpointPlan = {
      format: CHECKPOINT_FORMAT,
      experiment: this.plan.experiment,
      fingerprint: this.plan.fingerprint,
      shard: this.shard,
    };
    writeFileAtomic(this.planFile, `${JSON.stringify(record)}\n`);
  }

  /** The checkpoint files, smallest first chunk first. */
  private files(): { path: string; first: number }[] {
    if (!existsSync(this.folder)) return [];
    return readdirSync(this.folder)
      .map((name) => ({ name, match: CHUNK_FILE.exec(name) }))
      .filter((entry) => entry.match !== null)
      .map((entry) => ({ path: join(this.folder, entry.name), first: Number(entry.match?.[1]) }))
      .sort((a, b) => a.first - b.first);
  }

  /**
   * readPlan() reads plan.json: undefined when there is none; a problem (in words) when
   * it is damaged or of an older format; throws InputError when it records another
   * plan or shard (the config, --set values or --shard differ). O(size of plan.json).
   */
  readPlan(): { problem: string } | CheckpointPlan | undefined {
    if (!existsSync(this.planFile)) return undefined;
    let recorded: CheckpointPlan;
    try {
      recorded = parseJsonUntrusted(
        readFileCapped(this.planFile, MAX_JSON_FILE_BYTES, 'a checkpoint plan.json').toString('utf8'),
        this.planFile,
      ) as CheckpointPlan;
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      return { problem: 'unreadable JSON (the file is damaged)' };
    }
    if (
      typeof recorded !== 'object' ||
      recorded === null ||
      recorded.format !== CHECKPOINT_FORMAT ||
      typeof recorded.fingerprint !== 'string'
    ) {
      return {
        problem: `no checkpoint plan of format ${CHECKPOINT_FORMAT} (damaged, or written by an older fairaudit)`,
      };
    }
    const shardText = (shard: Shard | null | undefined) => (shard ? `${shard.index}/${shard.count}` : 'none');
    if (recorded.fingerprint !== this.plan.fingerprint || shardText(recorded.shard) !== shardText(this.shard)) {
      throw new InputError(
        `--resume: expected checkpoints of this plan (${this.plan.fingerprint.slice(0, 12)}, ` +
          `shard ${shardText(this.shard)}) in ${this.folder}, found checkpoints of ` +
          `plan ${describeFound(String(recorded.fingerprint).slice(0, 12))}, shard ${shardText(recorded.shard)} (the ` +
          `config, --set values or --shard differ; run without --resume to start over)`,
      );
    }
    return recorded;
  }

  /**
   * resume() checks the checkpoints of an interrupted run of this plan: plan.json, then
   * every chunk of every checkpoint file (its SHA-256, that it belongs to this plan and
   * shard, its columns and their values, and that its seeds are the seeds of its
   * replicates). Returns the chunks found whole and the problems found (damaged or
   * foreign chunks and files), or undefined when there is nothing to resume. Removes
   * nothing (stray temporary files go in repair() or start()). Throws InputError for
   * checkpoints of another plan or shard. O(checkpoint bytes + replicates resumed);
   * memory O(one file + shard chunks / 8).
   */
  resume(): ResumeState | undefined {
    const recorded = this.readPlan();
    if (recorded === undefined) return undefined;
    const planProblem = 'problem' in recorded ? recorded.problem : null;
    const done = new ChunkSet(this.plan, this.shard);
    const problems: CheckpointProblem[] = [];
    let rows = 0;
    for (const { path, first } of this.files()) {
      const read = readEntries(
        readFileCapped(path, MAX_CHECKPOINT_FILE_BYTES, 'a checkpoint file'),
        this.plan.fingerprint,
      );
      if ('fileProblem' in read) {
        problems.push({ file: path, chunk: null, reason: read.fileProblem });
        continue;
      }
      if (new Set(read.entries.map((entry) => entry.index)).size !== read.entries.length) {
        problems.push({ file: path, chunk: null, reason: 'the same chunk twice (a file mixed by hand)' });
        continue;
      }
      const smallest = Math.min(...read.entries.map((entry) => entry.index));
      if (read.entries.length > 0 && smallest !== first) {
        problems.push({ file: path, chunk: null, reason: `a name that does not match its first chunk (${smallest})` });
        continue;
      }
      for (const entry of read.entries) {
        const problem =
          entry.problem ??
          this.chunkProblem(entry, path) ??
          (done.has(entry.index)
            ? 'a second copy of a chunk already checkpointed (files copied or mixed by hand)'
            : null);
        if (problem !== null) problems.push({ file: path, chunk: entry.index, reason: problem });
        else {
          done.add(entry.index);
          rows += this.plan.chunkAt(entry.index).count;
        }
      }
    }
    return { done, rows, problems, planProblem };
  }

  /** Why a chunk whose checksum holds is still not this plan's (another shard, other rows, other seeds or values), or
   * null. */
  private chunkProblem(entry: Entry, path: string): string | null {
    if (!(entry.index < this.plan.chunkCount) || !shardHasChunk(this.shard, entry.index)) {
      return `a chunk this plan${this.shard ? ` and shard ${this.shard.index}/${this.shard.count}` : ''} does not have`;
    }
    const chunk = this.plan.chunkAt(entry.index);
    let decoded: DecodedChunk;
    try {
      decoded = decodeChunkColumns(entry.payload, this.columns, `${path}: chunk ${entry.index}`);
    } catch (error) {
      if (error instanceof InputError) return error.message.slice(error.message.indexOf('expected'));
      throw error;
    }
    if (decoded.rows !== chunk.count) return `${decoded.rows} replicates where the plan has ${chunk.count}`;
    const key = this.plan.cellAt(chunk.cell).key;
    for (let i = 0; i < chunk.count; i++) {
      if (decoded.seeds[i] !== replicateSeed(this.plan.seed, key, chunk.firstReplicate + i)) {
        return (
          `the seed ${describeFound(decoded.seeds[i])} for replicate ${chunk.firstReplicate + i}, not this ` +
          `plan's (another seed or config)`
        );
      }
    }
    if (this.rowProblem !== undefined) {
      const { settings } = this.plan.cellAt(chunk.cell);
      for (let i = 0; i < chunk.count; i++) {
        const problem = this.rowProblem(settings, decoded.columns, i);
        if (problem !== null)
          return (
            `replicate ${chunk.firstReplicate + i} with values that do not re-derive (${problem}): edited, ` +
            `since its checksum holds`
          );
      }
    }
    return null;
  }

  /**
   * repair(state) makes the checkpoints hold exactly the chunks `state` found whole:
   * the good chunks of a file with a bad one are written to a new file and the file is
   * removed, files that are wholly bad are removed, stray temporary files go, and
   * plan.json is rewritten when it was damaged. The run then recomputes the rest.
   * O(bytes of the files with problems).
   */
  repair(state: ResumeState): void {
    this.removeTemporaryFiles();
    const files = new Set(state.problems.map((problem) => problem.file));
    for (const path of files) {
      const read = readEntries(
        readFileCapped(path, MAX_CHECKPOINT_FILE_BYTES, 'a checkpoint file'),
        this.plan.fingerprint,
      );
      const bad = new Set(state.problems.filter((problem) => problem.file === path).map((problem) => problem.chunk));
      const keep =
        'entries' in read && !bad.has(null)
          ? read.entries.filter((entry) => !bad.has(entry.index) && entry.problem === null)
          : [];
      if (keep.length > 0) {
        const kept = this.write(keep.map((entry) => ({ index: entry.index, payload: entry.payload })));
        if (kept !== path) rmSync(path, { force: true });
      } else {
        rmSync(path, { force: true });
      }
    }
    if (state.planProblem !== null) this.writePlan();
  }

  /** Removes temporary files left by a killed run. */
  removeTemporaryFiles(): void {
    if (!existsSync(this.folder)) return;
    for (const name of readdirSync(this.folder))
      if (name.endsWith('.tmp')) rmSync(join(this.folder, name), { force: true });
  }

  /** Records completed chunks atomically in one file: their payload bytes as the workers sent them, with checksums.
   * O(bytes). */
  save(completed: readonly CompletedChunk[]): void {
    if (completed.length === 0) return;
    this.write(completed.map(({ chunk, payload }) => ({ index: chunk.index, payload })));
  }

  /** Writes entries to a new file named after their smallest index (never over another file); returns its path. */
  private write(entries: readonly { index: number; payload: Uint8Array }[]): string {
    const total = entries.reduce(
      (sum, entry) => sum + ENTRY_HEADER_BYTES + entry.payload.byteLength,
      FILE_HEADER_BYTES,
    );
    const bytes = Buffer.alloc(total);
    bytes.writeUInt32LE(BATCH_MAGIC, 0);
    bytes.writeUInt32LE(entries.length, 4);
    bytes.write(this.plan.fingerprint, 8, FINGERPRINT_BYTES, 'latin1');
    let offset = FILE_HEADER_BYTES;
    let smallest = Number.POSITIVE_INFINITY;
    for (const { index, payload } of entries) {
      bytes.writeUInt32LE(index, offset);
      bytes.writeUInt32LE(payload.byteLength, offset + 4);
      entryChecksum(this.plan.fingerprint, index, payload).copy(bytes, offset + 8);
      bytes.set(payload, offset + ENTRY_HEADER_BYTES);
      offset += ENTRY_HEADER_BYTES + payload.byteLength;
      smallest = Math.min(smallest, index);
    }
    const path = batchFile(this.folder, smallest);
    writeFileAtomic(path, bytes);
    return path;
  }

  /**
   * chunksInOrder() yields every chunk of this shard from the checkpoint files in plan
   * order, decoded (checksums checked again). The files are read one at a time in the
   * order of their first chunk, and a chunk read before its turn waits in memory: at
   * most the chunks finished out of order within a file (those of one quarter second,
   * at most CHECKPOINT_FILE_BYTES). Throws InputError naming the file when a chunk is
   * missing or damaged. O(checkpoint bytes).
   */
  *chunksInOrder(): Generator<{ chunk: PlanChunk; decoded: DecodedChunk }> {
    const files = this.files();
    let next = 0;
    const waiting = new Map<number, { payload: Uint8Array; path: string }>();
    for (const chunk of shardChunks(this.plan, this.shard)) {
      while (!waiting.has(chunk.index)) {
        const file = files[next++];
        if (file === undefined || file.first > chunk.index) {
          throw new InputError(
            `${this.folder}: expected a checkpoint of chunk ${chunk.index}, found none (run with --resume to ` +
              `compute it)`,
          );
        }
        const read = readEntries(
          readFileCapped(file.path, MAX_CHECKPOINT_FILE_BYTES, 'a checkpoint file'),
          this.plan.fingerprint,
        );
        if ('fileProblem' in read)
          throw new InputError(`${file.path}: expected a checkpoint file of this plan, found ${read.fileProblem}`);
        for (const entry of read.entries) {
          if (entry.problem !== null)
            throw new InputError(
              `${file.path}: chunk ${entry.index}: expected the chunk as checkpointed, found ${entry.problem}`,
            );
          if (entry.index >= chunk.index && shardHasChunk(this.shard, entry.index) && !waiting.has(entry.index)) {
            waiting.set(entry.index, { payload: entry.payload, path: file.path });
          }
        }
      }
      const entry = waiting.get(chunk.index) as { payload: Uint8Array; path: string };
      waiting.delete(chunk.index);
      yield { chunk, decoded: decodeChunkColumns(entry.payload, this.columns, `${entry.path}: chunk ${chunk.index}`) };
    }
  }

  /** Removes the checkpoints once the results are written. */
  clear(): void {
    rmSync(this.folder, { recursive: true, force: true });
  }
}

/**
 * describeProblems(problems) is the message for checkpoints that cannot be resumed:
 * the first three files and chunks with their reasons, and how many more. O(problems).
 */
export function describeProblems(problems: readonly CheckpointProblem[]): string {
  const shown = problems
    .slice(0, 3)
    .map((problem) => `${problem.file}${problem.chunk === null ? '' : `: chunk ${problem.chunk}`}: ${problem.reason}`);
  const more = problems.length > 3 ? `; and ${problems.length - 3} more` : '';
  return `${shown.join('; ')}${more}`;
}
