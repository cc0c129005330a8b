import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Checkpoints } from '../../src/harness/checkpoints.js';
import { parseConfig } from '../../src/harness/config.js';
import { buildPlan, replicateSeed } from '../../src/harness/plan.js';
import { sequentialAuditRunner } from '../../src/kinds/sequential-audit/run.js';
import { InputError } from '../../src/util/errors.js';
import { smallExperimentYaml, temporaryFolder, workerPayload } from './helpers.js';

const kind = sequentialAuditRunner as never;
const columns = sequentialAuditRunner.outcomeColumns;

/** The plan of smallExperimentYaml (4 cells × 10 replicates in chunks of 7: 8 chunks), with another seed on request. */
function planOf(seed = 7) {
  return buildPlan(parseConfig(smallExperimentYaml('ck', 10).replace('seed: 7', `seed: ${seed}`), 'ck.yaml'), kind);
}

/** Checkpoints holding chunks 0..count−1 of the plan, saved one file per two chunks, as a killed run leaves them. */
async function savedCheckpoints(count: number, plan = planOf()) {
  const out = temporaryFolder();
  const checkpoints = new Checkpoints(out, plan, null, columns);
  checkpoints.start();
  for (let first = 0; first < count; first += 2) {
    const batch = [];
    for (let index = first; index < Math.min(count, first + 2); index++)
      batch.push({ chunk: plan.chunkAt(index), payload: await workerPayload(plan, kind, index) });
    checkpoints.save(batch);
  }
  return { out, plan, checkpoints, folder: checkpoints.folder };
}

describe(
  'Checkpoints(outDirectory, plan, shard, columns): format 2, each chunk with a SHA-256 and the plan ' + 'fingerprint',
  () => {
    it('resume() finds every saved chunk whole, with no problem', async () => {
      const { checkpoints, plan } = await savedCheckpoints(5);
      const state = checkpoints.resume();
      expect(state?.problems).toEqual([]);
      expect(state?.planProblem).toBeNull();
      expect(state?.done.size).toBe(5);
      expect(state?.rows).toBe([0, 1, 2, 3, 4].reduce((sum, i) => sum + plan.chunkAt(i).count, 0));
    });

    it("resume() names the file and chunk of a flipped byte; repair() keeps the file's other chunk", async () => {
      const { checkpoints, folder } = await savedCheckpoints(4);
      const file = join(folder, 'chunks-0000002.bin');
      const bytes = readFileSync(file);
      bytes[bytes.length - 9] ^= 0x40; // inside chunk 3's payload (the file's last chunk)
      writeFileSync(file, bytes);
      const state = checkpoints.resume();
      expect(state?.problems).toEqual([
        { file, chunk: 3, reason: 'bytes that do not match their SHA-256 (the file is damaged)' },
      ]);
      expect(state?.done.has(2) && !state?.done.has(3)).toBe(true);
      checkpoints.repair(state as never);
      const again = checkpoints.resume();
      expect(again?.problems).toEqual([]);
      expect([0, 1, 2, 3].map((i) => again?.done.has(i))).toEqual([true, true, true, false]);
    });

    it('resume() refuses a file of another plan (another seed) as a whole', async () => {
      const { checkpoints, folder } = await savedCheckpoints(2);
      const other = await savedCheckpoints(4, planOf(8));
      const foreign = join(other.folder, 'chunks-0000002.bin');
      writeFileSync(join(folder, 'chunks-0000002.bin'), readFileSync(foreign));
      const state = checkpoints.resume();
      expect(state?.problems).toHaveLength(1);
      expect(state?.problems[0]).toMatchObject({ file: join(folder, 'chunks-0000002.bin'), chunk: null });
      expect(state?.problems[0].reason).toMatch(
        /^chunks of another plan \(".{12}", not .{12}: another seed, config or --set\)$/,
      );
    });

    it("resume() refuses a chunk whose checksum holds but whose seeds are another plan's", async () => {
      const plan = planOf();
      const out = temporaryFolder();
      const checkpoints = new Checkpoints(out, plan, null, columns);
      checkpoints.start();
      // Chunk 0 computed under seed 8, saved (with a valid checksum) as this plan's chunk 0.
      checkpoints.save([{ chunk: plan.chunkAt(0), payload: await workerPayload(planOf(8), kind, 0) }]);
      const [problem] = checkpoints.resume()?.problems ?? [];
      const otherSeed = replicateSeed('8', plan.cellAt(0).key, 0);
      expect(problem).toEqual({
        file: join(checkpoints.folder, 'chunks-0000000.bin'),
        chunk: 0,
        reason: `the seed "${otherSeed}" for replicate 0, not this plan's (another seed or config)`,
      });
    });

    it('resume() refuses a chunk of another shard, and a file of format 1 (no checksums)', async () => {
      const { folder, plan, out } = await savedCheckpoints(2);
      const shardCheckpoints = new Checkpoints(out, plan, { index: 2, count: 2 }, columns);
      writeFileSync(
        join(folder, 'plan.json'),
        JSON.stringify({
          format: 'fairaudit-checkpoints/2',
          experiment: 'ck',
          fingerprint: plan.fingerprint,
          shard: { index: 2, count: 2 },
        }),
      );
      const state = shardCheckpoints.resume();
      expect(state?.problems.map((p) => [p.chunk, p.reason])).toEqual([
        [0, 'a chunk this plan and shard 2/2 does not have'],
      ]);
      expect(state?.done.has(1)).toBe(true);
      writeFileSync(join(folder, 'chunks-0000004.bin'), Buffer.from('FACB\u0001\u0000\u0000\u0000'));
      expect(shardCheckpoints.resume()?.problems.at(-1)?.reason).toBe(
        'a checkpoint of an older fairaudit (format 1, without checksums)',
      );
    });

    it('a damaged plan.json is a planProblem (repair() rewrites it); one of another plan is InputError', async () => {
      const { checkpoints, folder } = await savedCheckpoints(2);
      writeFileSync(join(folder, 'plan.json'), '{"format": "fairaudit-checkpoints/2", "finger');
      expect(checkpoints.resume()?.planProblem).toBe('unreadable JSON (the file is damaged)');
      checkpoints.repair(checkpoints.resume() as never);
      expect(checkpoints.resume()?.planProblem).toBeNull();
      writeFileSync(
        join(folder, 'plan.json'),
        JSON.stringify({
          format: 'fairaudit-checkpoints/2',
          experiment: 'ck',
          fingerprint: 'e'.repeat(64),
          shard: null,
        }),
      );
      expect(() => checkpoints.resume()).toThrow(InputError);
      expect(() => checkpoints.resume()).toThrow(
        new RegExp(
          String.raw`--resume: expected checkpoints of this plan \(.{12}, shard none\) in .*, found ` +
            'checkpoints of plan "e{12}", shard none',
        ),
      );
    });

    it(
      'chunksInOrder() yields every chunk in plan order from files written out of order, and names a missing ' + 'one',
      async () => {
        const plan = planOf();
        const out = temporaryFolder();
        const checkpoints = new Checkpoints(out, plan, null, columns);
        checkpoints.start();
        // Files as workers finishing out of order leave them: {1, 5}, {0, 3}, {2, 7}, {4, 6}.
        for (const pair of [
          [1, 5],
          [0, 3],
          [2, 7],
          [4, 6],
        ]) {
          checkpoints.save(
            await Promise.all(
              pair.map(async (index) => ({
                chunk: plan.chunkAt(index),
                payload: await workerPayload(plan, kind, index),
              })),
            ),
          );
        }
        const order = [...checkpoints.chunksInOrder()].map(({ chunk, decoded }) => [chunk.index, decoded.rows]);
        expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map((index) => [index, plan.chunkAt(index).count]));
        const names = readdirSync(checkpoints.folder).filter((name) => name.endsWith('.bin'));
        expect(names.sort()).toEqual([
          'chunks-0000000.bin',
          'chunks-0000001.bin',
          'chunks-0000002.bin',
          'chunks-0000004.bin',
        ]);
        checkpoints.clear();
        expect(existsSync(checkpoints.folder)).toBe(false);
        const partial = await savedCheckpoints(3);
        expect(() => [...partial.checkpoints.chunksInOrder()]).toThrow(/expected a checkpoint of chunk 3, found none/);
      },
    );
  },
);
