import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../../src/util/paths.js';

/** A single-node Slurm that answers, or why there is none. */
export type SlurmCluster =
  | { available: true; env: Record<string, string>; startSeconds: number }
  | { available: false; reason: string };

/** The script that configures and starts the single-node Slurm (see its header for the steps). */
export const startSlurmScript = join(packageRoot(), 'test', 'helpers', 'start-slurm.sh');

/**
 * startSlurm(stateDirectory) runs test/helpers/start-slurm.sh: munged, slurmctld and
 * slurmd on this host (started once, then reused), and waits until `sinfo` shows the
 * node idle. Returns the environment sbatch/squeue/scontrol need (SLURM_CONF), or why
 * Slurm is not available: not installed or not root (the script's exit 3), or
 * installed but not starting (exit 1) unless FAIRAUDIT_REQUIRE_SLURM=1, where CI has
 * installed it and a failure to start is an error (thrown, with the script's output).
 */
export function startSlurm(stateDirectory = '/tmp/fairaudit-slurm'): SlurmCluster {
  const started = performance.now();
  const run = spawnSync('bash', [startSlurmScript, stateDirectory], { encoding: 'utf8', timeout: 90_000 });
  const startSeconds = (performance.now() - started) / 1000;
  const output = `${run.stderr ?? ''}${run.error ? String(run.error) : ''}`.trim();
  if (run.status === 0) {
    const conf = /^SLURM_CONF=(.+)$/m.exec(run.stdout)?.[1];
    if (!conf) throw new Error(`start-slurm.sh printed no SLURM_CONF line:\n${run.stdout}`);
    return { available: true, env: { SLURM_CONF: conf }, startSeconds };
  }
  if (run.status !== 3 && process.env.FAIRAUDIT_REQUIRE_SLURM === '1') {
    throw new Error(`start-slurm.sh failed (exit ${run.status}) though FAIRAUDIT_REQUIRE_SLURM=1:\n${output}`);
  }
  const reason = output.split('\n')[0] || `start-slurm.sh exited ${run.status}`;
  return { available: false, reason: run.status === 3 ? reason : `Slurm is installed but would not start: ${reason}` };
}

/** What `scontrol show job ID` says about a job (one record per array task). */
export interface SlurmJobState {
  jobId: string;
  state: string;
  exitCode: string;
  reason: string;
}

/** runSlurm(command, args, env) runs a Slurm client command and returns its stdout; throws with its stderr when it
 * fails. */
export function runSlurm(command: string, args: string[], env: Record<string, string>): string {
  const run = spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 30_000 });
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${run.status}): ${run.stderr}`);
  return run.stdout;
}

/** jobStates(jobId, env): the state of a job, or of every task of an array job (`scontrol -o show job`). */
export function jobStates(jobId: string, env: Record<string, string>): SlurmJobState[] {
  return runSlurm('scontrol', ['-o', 'show', 'job', jobId], env)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const field = (name: string) => new RegExp(`(?:^| )${name}=(\\S*)`).exec(line)?.[1] ?? '';
      return { jobId: field('JobId'), state: field('JobState'), exitCode: field('ExitCode'), reason: field('Reason') };
    });
}

const FINISHED = new Set([
  'COMPLETED',
  'FAILED',
  'CANCELLED',
  'TIMEOUT',
  'NODE_FAIL',
  'OUT_OF_MEMORY',
  'PREEMPTED',
  'BOOT_FAIL',
  'DEADLINE',
]);

/**
 * waitForJobs(jobIds, env, timeoutMs) polls `scontrol show job` every 250 ms until every
 * job (every task of an array) has finished, and returns their states. After timeoutMs
 * it cancels the jobs (scancel) and throws with their states, so a stuck queue fails
 * the test in bounded time instead of hanging it.
 */
export async function waitForJobs(
  jobIds: string[],
  env: Record<string, string>,
  timeoutMs: number,
): Promise<SlurmJobState[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const states = jobIds.flatMap((id) => jobStates(id, env));
    if (states.every((job) => FINISHED.has(job.state))) return states;
    if (Date.now() > deadline) {
      spawnSync('scancel', jobIds, { env: { ...process.env, ...env } });
      throw new Error(
        `Slurm jobs ${jobIds.join(', ')} not finished after ${timeoutMs / 1000} s: ${JSON.stringify(states)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
