import { constants } from 'node:os';

/** How long an interrupted command may take to stop on its own before it is ended (milliseconds). */
export const INTERRUPT_GRACE_MS = 5000;

/** A command's watch for SIGTERM and SIGINT. */
export interface Interruption {
  /** Aborted at the first SIGTERM or SIGINT. */
  signal: AbortSignal;
  /** The signal received, or null. */
  received(): NodeJS.Signals | null;
  /** The exit code a shell gives a process ended by the received signal (128 + its number: 143, 130). */
  exitCode(): number;
  /** Removes the handlers. */
  dispose(): void;
}

/**
 * watchInterruption(onSignal) replaces Node's default for SIGTERM and SIGINT (end at once,
 * skipping every 'exit' handler, so a folder's lock would stay) with: abort `signal`, call
 * onSignal, and let the command stop on its own (a run checkpoints what it completed and
 * releases its lock). A second signal, or INTERRUPT_GRACE_MS without stopping, ends the
 * process with process.exit, which still runs the 'exit' handlers that release locks.
 * A batch scheduler that preempts a task (Slurm's requeue, a Kubernetes eviction) sends
 * SIGTERM first and SIGKILL some seconds later (Slurm's KillWait, 30 s by default).
 * @param onSignal called once with the signal, to say what happens (the CLI prints it)
 * @returns the watch; dispose() it when the command ends
 * @example const watch = watchInterruption((signal) => process.stderr.write(`${signal}\n`));
 */
export function watchInterruption(onSignal: (signal: NodeJS.Signals) => void): Interruption {
  const controller = new AbortController();
  let received: NodeJS.Signals | null = null;
  const exitCode = () => (received === null ? 0 : 128 + constants.signals[received]);
  const handle = (signal: NodeJS.Signals) => {
    if (received !== null) process.exit(exitCode());
    received = signal;
    onSignal(signal);
    controller.abort();
    setTimeout(() => process.exit(exitCode()), INTERRUPT_GRACE_MS).unref();
  };
  process.on('SIGTERM', handle);
  process.on('SIGINT', handle);
  return {
    signal: controller.signal,
    received: () => received,
    exitCode,
    dispose: () => {
      process.removeListener('SIGTERM', handle);
      process.removeListener('SIGINT', handle);
    },
  };
}

/** An argument as a POSIX shell reads it back. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/**
 * resumeCommand(argv) is the command that continues an interrupted `fairaudit run`: the
 * same arguments with --resume (added once).
 * @param argv the command's arguments after "fairaudit"
 * @returns a line to paste into a shell
 * @example resumeCommand(['run', 'x.yaml', '--shard', '1/2']) // 'fairaudit run x.yaml --shard 1/2 --resume'
 */
export function resumeCommand(argv: readonly string[]): string {
  const words = argv.includes('--resume') ? [...argv] : [...argv, '--resume'];
  return ['fairaudit', ...words].map(shellWord).join(' ');
}

/**
 * endOnInterruption(folder) is the watch of a command that writes `folder` whole or not at
 * all (merge, report): at SIGTERM or SIGINT it says so and ends the process at once; the
 * 'exit' handlers release the folder's lock, and a temporary file left half-written is
 * removed by the next command that locks the folder.
 * @param folder the folder the command writes
 * @returns the watch; dispose() it when the command ends
 * @example const watch = endOnInterruption('results/quickstart');
 */
export function endOnInterruption(folder: string): Interruption {
  const watch: Interruption = watchInterruption((signal) => {
    process.stderr.write(
      `fairaudit: interrupted by ${signal}: the lock of ${folder} is released; every file written there is ` +
        `complete (none half-written); run the same command again\n`,
    );
    process.exit(watch.exitCode());
  });
  return watch;
}
