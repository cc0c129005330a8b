import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/harness/config.js';
import { runExperiment } from '../../src/harness/run-experiment.js';
import { LOCK_FILE_NAME } from '../../src/util/folder-lock.js';
import { type RunningCli, spawnCli } from '../helpers/cli.js';
import { bytesOf, longExperimentYaml, temporaryFolder, writeText } from './helpers.js';

// 2 cells × 12000 replicates in chunks of 25: 960 chunks, 480 per shard, a few seconds of
// one thread per shard, so each signal lands mid-run.
const YAML = longExperimentYaml('preempted').replace('replicates: 1500', 'replicates: 12000');

/** Chunks in the checkpoint files (a uint32 chunk count at byte 4 of chunks-N.bin, src/harness/checkpoints.ts). */
function checkpointedChunks(folder: string): number {
  const checkpoints = join(folder, '.checkpoints');
  if (!existsSync(checkpoints)) return 0;
  let count = 0;
  for (const name of readdirSync(checkpoints)) {
    if (/^chunks-\d+\.bin$/.test(name)) count += readFileSync(join(checkpoints, name)).readUInt32LE(4);
  }
  return count;
}

/** Waits until `folder` has at least `chunks` checkpointed chunks (or the run ended), then sends `signal`. */
async function signalAfter(running: RunningCli, folder: string, chunks: number, signal: NodeJS.Signals) {
  let exited = false;
  running.child.on('exit', () => {
    exited = true;
  });
  const deadline = Date.now() + 60_000;
  while (!exited && checkpointedChunks(folder) < chunks && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
  expect(exited, 'the run ended before the signal').toBe(false);
  running.child.kill(signal);
  return running.done;
}

// The environment of Slurm array task 812_1 (the scheduler identity the lock records).
const TASK = { SLURM_ARRAY_JOB_ID: '812', SLURM_ARRAY_TASK_ID: '1', SLURM_JOB_ID: '813', FAIRAUDIT_TASK_ID: undefined };

describe('fairaudit run --shard 1/2 --resume preempted (SIGTERM, SIGINT) and requeued on another host', () => {
  it('SIGTERM: exit 143, the completed chunks saved, the lock released, and the line that resumes ' +
    'printed', async () => {
    const folder = temporaryFolder();
    const file = writeText(folder, 'preempted.yaml', YAML);
    const out = join(folder, 'shard-1');
    const args = ['run', file, '--shard', '1/2', '--threads', '1', '--out', out, '--resume', '--quiet'];
    const result = await signalAfter(spawnCli(args, { env: TASK }), out, 3, 'SIGTERM');
    expect(result.code).toBe(143);
    const saved = checkpointedChunks(out);
    expect(saved).toBeGreaterThanOrEqual(3);
    expect(result.stderr).toContain(
      `fairaudit: interrupted by SIGTERM: ${saved * 25} of 12000 replicates are saved ` +
        `in ${join(out, '.checkpoints')} and the folder's lock is released; continue with: fairaudit ` +
        `run ${file} --shard ` +
        `1/2 --threads 1 --out ${out} --resume --quiet\n`,
    );
    expect(existsSync(join(out, LOCK_FILE_NAME))).toBe(false);

    // SIGINT (Ctrl-C) the resumed run: the same, exit 130.
    const interrupted = await signalAfter(spawnCli(args, { env: TASK }), out, saved + 3, 'SIGINT');
    expect(interrupted.code).toBe(130);
    expect(interrupted.stderr).toMatch(/interrupted by SIGINT: \d+ of 12000 replicates are saved/);
    expect(existsSync(join(out, LOCK_FILE_NAME))).toBe(false);

    // A kill -9 leaves the lock; the task is requeued on another node: the lock names node-a.
    const killed = await signalAfter(spawnCli(args, { env: TASK }), out, checkpointedChunks(out) + 3, 'SIGKILL');
    expect(killed.code).toBeNull();
    const lockFile = join(out, LOCK_FILE_NAME);
    const lock = JSON.parse(readFileSync(lockFile, 'utf8'));
    expect(lock.task).toBe('slurm 812_1');
    writeFileSync(lockFile, JSON.stringify({ ...lock, host: 'node-a' }));

    // Another task may not take it over; the requeued task (same array job and task) does.
    const other = await spawnCli(args, { env: { ...TASK, SLURM_ARRAY_TASK_ID: '2' } }).done;
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('locked by');
    const requeued = await spawnCli(args, { env: TASK }).done;
    expect(requeued.stderr).toMatch(
      /notice: took over the lock .* which is an earlier run of this task \(slurm 812_1\)/,
    );
    expect(requeued.code).toBe(0);

    const second = await spawnCli(['run', file, '--shard', '2/2', '--out', join(folder, 'shard-2'), '--quiet']).done;
    expect(second.code).toBe(0);
    const merged = await spawnCli(['merge', out, join(folder, 'shard-2'), '--out', join(folder, 'merged')]).done;
    expect(merged.code).toBe(0);
    const local = await runExperiment(parseConfig(YAML, file), { threads: 2, outDirectory: join(folder, 'local') });
    expect(bytesOf(join(folder, 'merged', 'results.arrow')).equals(bytesOf(local.resultsFile))).toBe(true);
  }, 180_000);
});
