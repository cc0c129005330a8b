import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/util/paths.js';
import { spawnCliSync } from '../helpers/cli.js';
import { runSlurm, startSlurm, waitForJobs } from '../helpers/slurm.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';

const root = packageRoot();
const submit = join(root, 'examples', 'cluster', 'submit-slurm.sh');
// 12 cells × 20 replicates in chunks of 5: 48 chunks, 12 per shard, spread over every cell.
const small = ['--set', 'replicates=20', '--set', 'chunkSize=5'];
// The node has as few as 2 CPUs: the shard script's 8 CPUs and 8 GB are overridden.
const options = { SHARD_OPTIONS: '--cpus-per-task=1 --mem=1G', MERGE_OPTIONS: '--mem=1G' };

/** Runs submit-slurm.sh from the repository root and returns the array and merge job ids it printed. */
function submitSlurm(config: string, shards: number, extra: string[], env: Record<string, string>) {
  const run = spawnSync('bash', [submit, config, String(shards), ...extra], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
  if (run.status !== 0) throw new Error(`submit-slurm.sh exited ${run.status}:\n${run.stdout}${run.stderr}`);
  const arrayJob = /^shards: job (\d+)/m.exec(run.stdout)?.[1];
  const mergeJob = /^merge: job (\d+)/m.exec(run.stdout)?.[1];
  if (!arrayJob || !mergeJob) throw new Error(`submit-slurm.sh printed no job ids:\n${run.stdout}`);
  return { arrayJob, mergeJob, stdout: run.stdout };
}

const cluster = startSlurm();
const title = 'examples/cluster/submit-slurm.sh CONFIG N on a single-node Slurm';

if (!cluster.available) {
  describe.skip(`${title} (skipped: ${cluster.reason})`, () => {
    it('runs', () => {});
  });
} else {
  describe(title, () => {
    it(
      'submit-slurm.sh configs/quickstart.yaml 4: four array tasks and the merge job complete, and the merged ' +
        'results.arrow equals a local run byte for byte',
      async () => {
        const folder = temporaryFolder('fairaudit-slurm-');
        const env = { ...cluster.env, ...options, RESULTS: join(folder, 'results'), LOGS: join(folder, 'logs') };
        const { arrayJob, mergeJob } = submitSlurm('configs/quickstart.yaml', 4, small, env);
        // Bounded: on a 2-core machine submit to merged takes ~9 s (two waves of two shards, ~2 s each).
        const states = await waitForJobs([arrayJob, mergeJob], cluster.env, 180_000);
        const logs = join(folder, 'logs');
        const shardStates = states.filter((job) => job.jobId !== mergeJob);
        expect(shardStates).toHaveLength(4);
        for (const job of states)
          expect({ job: job.jobId, state: job.state, exit: job.exitCode }).toEqual({
            job: job.jobId,
            state: 'COMPLETED',
            exit: '0:0',
          });
        for (let i = 1; i <= 4; i++) {
          expect(readFileSync(join(logs, `fairaudit-shard-${arrayJob}_${i}.out`), 'utf8')).toMatch(
            new RegExp(`shard ${i}/4 done`),
          );
          expect(existsSync(join(folder, 'results', 'quickstart', `shard-${i}-of-4`, 'results.arrow'))).toBe(true);
        }
        expect(readFileSync(join(logs, `fairaudit-merge-${mergeJob}.out`), 'utf8')).toMatch(
          /merged 4 shards into .* \(240 replicates\)/,
        );

        const local = spawnCliSync([
          'run',
          'configs/quickstart.yaml',
          ...small,
          '--out',
          join(folder, 'local'),
          '--threads',
          '1',
          '--quiet',
        ]);
        expect(local.stderr).toBe('');
        expect(local.code).toBe(0);
        const merged = readFileSync(join(folder, 'results', 'quickstart', 'results.arrow'));
        const single = readFileSync(join(folder, 'local', 'results.arrow'));
        expect(merged.length).toBeGreaterThan(0);
        expect(merged.equals(single)).toBe(true);
      },
    );

    it('submit-slurm.sh configs/quickstart.yaml 2 with task 1 requeued mid-run (scontrol requeue): it resumes ' +
      'from its checkpoints, the merge job runs, and the merged results.arrow equals a local run byte for ' +
      'byte', async () => {
      const folder = temporaryFolder('fairaudit-slurm-');
      // 12 cells × 1000 replicates in chunks of 50: 120 chunks, 60 per shard, seconds of work per task.
      const long = ['--set', 'replicates=1000', '--set', 'chunkSize=50'];
      const env = { ...cluster.env, ...options, RESULTS: join(folder, 'results'), LOGS: join(folder, 'logs') };
      const { arrayJob, mergeJob } = submitSlurm('configs/quickstart.yaml', 2, long, env);
      const checkpoints = join(folder, 'results', 'quickstart', 'shard-1-of-2', '.checkpoints');
      const deadline = Date.now() + 120_000;
      const started = () => existsSync(checkpoints) && readdirSync(checkpoints).some((name) => name.endsWith('.bin'));
      while (!started() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(started(), 'task 1 checkpointed no chunk in 120 s').toBe(true);
      // Slurm sends SIGTERM, then SIGKILL after KillWait (5 s here), and queues the task again.
      runSlurm('scontrol', ['requeue', `${arrayJob}_1`], cluster.env);
      // Slurm holds a requeued job back until the old job's credential has expired (BeginTime, about
      // two minutes; starting it earlier fails with "Job credential revoked"): the wait below covers it.
      const states = await waitForJobs([arrayJob, mergeJob], cluster.env, 300_000);
      for (const job of states)
        expect({ job: job.jobId, state: job.state, exit: job.exitCode }).toEqual({
          job: job.jobId,
          state: 'COMPLETED',
          exit: '0:0',
        });
      const task = runSlurm('scontrol', ['-o', 'show', 'job', `${arrayJob}_1`], cluster.env);
      expect(/(?:^| )Restarts=(\d+)/.exec(task)?.[1]).toBe('1');
      const run = JSON.parse(readFileSync(join(folder, 'results', 'quickstart', 'shard-1-of-2', 'run.json'), 'utf8'));
      expect(run.provenance.resumedChunks).toBeGreaterThan(0);

      const local = spawnCliSync([
        'run',
        'configs/quickstart.yaml',
        ...long,
        '--out',
        join(folder, 'local'),
        '--quiet',
      ]);
      expect(local.code).toBe(0);
      const merged = readFileSync(join(folder, 'results', 'quickstart', 'results.arrow'));
      expect(merged.equals(readFileSync(join(folder, 'local', 'results.arrow')))).toBe(true);
    }, 300_000);

    it('submit-slurm.sh with a shard that fails: the merge job is cancelled and the shard log says why', async () => {
      const folder = temporaryFolder('fairaudit-slurm-');
      const config = join(folder, 'missing-pool.yaml');
      writeFileSync(
        config,
        'experiment: missing-pool\nkind: sequential-audit\nseed: 1\nreplicates: 4\nchunkSize: ' +
          '1\nsettings:\n  pool: { file: no-such-pool.csv }\n',
      );
      const env = { ...cluster.env, ...options, RESULTS: join(folder, 'results'), LOGS: join(folder, 'logs') };
      const { arrayJob, mergeJob } = submitSlurm(config, 2, [], env);
      const states = await waitForJobs([arrayJob, mergeJob], cluster.env, 120_000);
      const merge = states.find((job) => job.jobId === mergeJob);
      expect(merge?.state).toBe('CANCELLED');
      expect(merge?.reason).toBe('DependencyNeverSatisfied');
      expect(states.filter((job) => job.jobId !== mergeJob).map((job) => job.state)).toEqual(['FAILED', 'FAILED']);
      const log = readFileSync(join(folder, 'logs', `fairaudit-shard-${arrayJob}_1.out`), 'utf8');
      expect(log).toMatch(/no-such-pool\.csv: expected a readable pool file/);
      expect(existsSync(join(folder, 'results', 'missing-pool', 'results.arrow'))).toBe(false);
    });
  });
}
