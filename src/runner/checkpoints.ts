import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';
import { InputError } from '../util/errors.js';
import { type ChunkPayload, decodeChunkPayload } from './chunk-payload.js';
import type { OutcomeColumn } from './kind.js';
import type { PlanChunk, Shard } from './plan.js';

/** What .checkpoints/plan.json records, so a resume can check it continues the same plan. */
interface CheckpointPlan {
  fingerprint: string;
  shard: Shard | null;
}

function chunkFile(folder: string, chunk: number): string {
  return join(folder, `chunk-${String(chunk).padStart(7, '0')}.bin`);
}

/**
 * The checkpoints of a run: results/<experiment>/.checkpoints/ holds plan.json (the
 * plan's fingerprint and shard) and one file per completed chunk (chunk-NNNNNNN.bin: the
 * payload bytes the worker sent, see chunk-payload.ts), each written atomically
 * (temporary name, then rename), so a killed run leaves only whole chunks.
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
      const match = /^chunk-(\d+)\.bin$/.exec(name);
      if (!match) continue;
      done.set(Number(match[1]), decodeChunkPayload(readFileSync(join(this.folder, name)), outcomeColumns, join(this.folder, name)));
    }
    return done;
  }

  /** Records a completed chunk atomically: its payload bytes (encodeChunkPayload) as they are. */
  save(chunk: PlanChunk, payload: Uint8Array): void {
    writeFileAtomic(chunkFile(this.folder, chunk.index), payload);
  }

  /** Removes the checkpoints once the results are written. */
  clear(): void {
    rmSync(this.folder, { recursive: true, force: true });
  }
}
