import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';
import { InputError } from '../util/errors.js';
import { type ChunkPayload, decodeChunkPayload } from './chunk-payload.js';
import type { OutcomeColumn } from './kind-runner.js';
import type { PlanChunk, Shard } from './plan.js';

/** What .checkpoints/plan.json records, so a resume can check it continues the same plan. */
interface CheckpointPlan {
  fingerprint: string;
  shard: Shard | null;
}

/** A completed chunk and its payload bytes (encodeChunkPayload). */
export interface CompletedChunk {
  chunk: PlanChunk;
  payload: Uint8Array;
}

const BATCH_MAGIC = 0x42434146; // "FACB" read as a little-endian uint32

function batchFile(folder: string, firstChunk: number): string {
  return join(folder, `chunks-${String(firstChunk).padStart(7, '0')}.bin`);
}

/**
 * The checkpoints of a run: results/<experiment>/.checkpoints/ holds plan.json (the
 * plan's fingerprint and shard) and checkpoint files chunks-NNNNNNN.bin, each holding
 * one or more completed chunks (NNNNNNN: the smallest chunk index in it, so files of a
 * run and of its resumes never share a name). Layout (little-endian): "FACB", a uint32
 * chunk count, then per chunk a uint32 chunk index, a uint32 byte length and the
 * payload bytes the worker sent (chunk-payload.ts; a multiple of 8 bytes). Each file is
 * written atomically (temporary name, then rename), so a killed run leaves only whole
 * chunks.
 */
export class Checkpoints {
  readonly folder: string;

  constructor(outDirectory: string) {
    this.folder = join(outDirectory, '.checkpoints');
  }

  /** Deletes any checkpoints and starts a fresh set for this plan. */
  start(fingerprint: string, shard: Shard | null): void {
    rmSync(this.folder, { recursive: true, force: true });
    mkdirSync(this.folder, { recursive: true });
    writeFileAtomic(join(this.folder, 'plan.json'), `${JSON.stringify({ fingerprint, shard } satisfies CheckpointPlan)}\n`);
  }

  /**
   * resume(fingerprint, shard, outcomeColumns) returns the completed chunks of an
   * interrupted run of the same plan (chunk index → seeds and outcome columns), or undefined
   * when there is nothing to resume. Throws InputError when the checkpoints belong to
   * another plan or shard. Leftover temporary files are removed.
   */
  resume(fingerprint: string, shard: Shard | null, outcomeColumns: readonly OutcomeColumn[]): Map<number, ChunkPayload> | undefined {
    const planFile = join(this.folder, 'plan.json');
    if (!existsSync(planFile)) return undefined;
    const recorded = JSON.parse(readFileSync(planFile, 'utf8')) as CheckpointPlan;
    if (recorded.fingerprint !== fingerprint || JSON.stringify(recorded.shard) !== JSON.stringify(shard)) {
      throw new InputError(
        `--resume: expected checkpoints of this plan (${fingerprint.slice(0, 12)}, shard ${shard ? `${shard.index}/${shard.count}` : 'none'}) in ${this.folder}, found checkpoints of plan ${recorded.fingerprint.slice(0, 12)}, shard ${recorded.shard ? `${recorded.shard.index}/${recorded.shard.count}` : 'none'} (the config, --set values or --shard differ; run without --resume to start over)`,
      );
    }
    const done = new Map<number, ChunkPayload>();
    for (const name of readdirSync(this.folder)) {
      if (name.endsWith('.tmp')) {
        rmSync(join(this.folder, name), { force: true });
        continue;
      }
      if (!/^chunks-\d+\.bin$/.test(name)) continue;
      const path = join(this.folder, name);
      for (const [index, payload] of readBatch(readFileSync(path), path)) {
        done.set(index, decodeChunkPayload(payload, outcomeColumns, `${path}: chunk ${index}`));
      }
    }
    return done;
  }

  /** Records completed chunks atomically in one file: their payload bytes as the workers sent them. O(bytes). */
  save(completed: readonly CompletedChunk[]): void {
    if (completed.length === 0) return;
    const total = completed.reduce((sum, entry) => sum + 8 + entry.payload.byteLength, 8);
    const bytes = new Uint8Array(total);
    const view = new DataView(bytes.buffer);
    view.setUint32(0, BATCH_MAGIC, true);
    view.setUint32(4, completed.length, true);
    let offset = 8;
    for (const { chunk, payload } of completed) {
      view.setUint32(offset, chunk.index, true);
      view.setUint32(offset + 4, payload.byteLength, true);
      bytes.set(payload, offset + 8);
      offset += 8 + payload.byteLength;
    }
    writeFileAtomic(batchFile(this.folder, Math.min(...completed.map((entry) => entry.chunk.index))), bytes);
  }

  /** Removes the checkpoints once the results are written. */
  clear(): void {
    rmSync(this.folder, { recursive: true, force: true });
  }
}

/** The (chunk index, payload bytes) pairs of a checkpoint file; throws InputError naming `path` for other bytes. */
function readBatch(bytes: Uint8Array, path: string): [number, Uint8Array][] {
  const fail = (found: string): never => {
    throw new InputError(`${path}: expected a fairaudit checkpoint file, found ${found}`);
  };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 8 || view.getUint32(0, true) !== BATCH_MAGIC) fail('other bytes');
  const count = view.getUint32(4, true);
  const chunks: [number, Uint8Array][] = [];
  let offset = 8;
  for (let i = 0; i < count; i++) {
    if (offset + 8 > bytes.byteLength) fail('a truncated file');
    const index = view.getUint32(offset, true);
    const length = view.getUint32(offset + 4, true);
    if (offset + 8 + length > bytes.byteLength) fail('a truncated file');
    chunks.push([index, bytes.subarray(offset + 8, offset + 8 + length)]);
    offset += 8 + length;
  }
  if (offset !== bytes.byteLength) fail(`${bytes.byteLength - offset} bytes after the last chunk`);
  return chunks;
}
