import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { vi } from 'vitest';
import { packageRoot } from '../../src/util/paths.js';

/** What one run of the CLI gave: its exit code (null when a signal ended it) and its output. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** How to run bin/fairaudit as a child process. */
export interface SpawnOptions {
  /** Variables added to (or overriding) this process's environment. */
  env?: Record<string, string | undefined>;
  /** Text written to the child's stdin (stdin is closed afterwards; ignored when absent). */
  stdin?: string;
  /** Working folder (default: the package root). */
  cwd?: string;
}

const root = packageRoot();

/** bin/fairaudit, the command users run; it loads the compiled dist/. */
export const cliPath = join(root, 'bin', 'fairaudit');

function childEnvironment(env: SpawnOptions['env']): NodeJS.ProcessEnv {
  const merged: NodeJS.ProcessEnv = { ...process.env };
  for (const [name, value] of Object.entries(env ?? {})) {
    if (value === undefined) delete merged[name];
    else merged[name] = value;
  }
  return merged;
}

/** Runs bin/fairaudit with args to the end and returns its exit code, stdout and stderr. */
export function spawnCliSync(args: string[], options: SpawnOptions = {}): CliResult {
  const run = spawnSync(process.execPath, [cliPath, ...args], {
    encoding: 'utf8',
    cwd: options.cwd ?? root,
    env: childEnvironment(options.env),
    maxBuffer: 1 << 26,
    ...(options.stdin === undefined ? {} : { input: options.stdin }),
  });
  if (run.error) throw run.error;
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** A bin/fairaudit child that is still running: the process, and its result once it exits. */
export interface RunningCli {
  child: ChildProcess;
  done: Promise<CliResult>;
}

/**
 * Starts bin/fairaudit with args without waiting (for servers and for runs a test
 * interrupts). The caller stops the child if the test ends first.
 */
export function spawnCli(args: string[], options: SpawnOptions = {}): RunningCli {
  const child = spawn(process.execPath, [cliPath, ...args], {
    cwd: options.cwd ?? root,
    env: childEnvironment(options.env),
    stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (options.stdin !== undefined) child.stdin?.end(options.stdin);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { child, done };
}

/**
 * Runs the CLI in this process (the same main() that bin/fairaudit calls, on the
 * TypeScript sources, no build needed), capturing what it writes to stdout and stderr,
 * through process.stdout/stderr.write or console.log/error (which vitest would
 * otherwise intercept). Resets process.exitCode afterwards so one run does not leak
 * into the next.
 */
export async function runCliInProcess(args: string[]): Promise<CliResult & { code: number }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  const log = vi.spyOn(console, 'log').mockImplementation((...values: unknown[]) => {
    stdout += `${values.map(String).join(' ')}\n`;
  });
  const error = vi.spyOn(console, 'error').mockImplementation((...values: unknown[]) => {
    stderr += `${values.map(String).join(' ')}\n`;
  });
  try {
    // Imported here, not at the top: tests that only spawn the built CLI do not load
    // (and do not depend on) every command's sources.
    const { main } = await import('../../src/cli/main.js');
    const code = await main(args);
    return { code, stdout, stderr };
  } finally {
    for (const spy of [out, err, log, error]) spy.mockRestore();
    process.exitCode = undefined;
  }
}
