import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { packageRoot } from '../../src/util/paths.js';

/** A fresh temporary folder. */
export function temporaryFolder(prefix = 'fairaudit-runner-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes text to name inside folder and returns the path. */
export function writeText(folder: string, name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

/** Runs the CLI in this process; returns its exit code and what it wrote to stdout and stderr. */
export async function runCli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
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
  try {
    const code = await main(argv);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
    process.exitCode = undefined;
  }
}

/** Runs bin/fairaudit as a child process (the compiled CLI; `npm run build` first). */
export function spawnCli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(join(packageRoot(), 'bin', 'fairaudit'), argv, { cwd: packageRoot(), maxBuffer: 1 << 26 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** The bytes of a file. */
export function bytesOf(path: string): Buffer {
  return readFileSync(path);
}

/**
 * A small sequential-audit experiment: 2 pools × 2 metrics = 4 cells on small
 * synthetic pools, chunks of 7 so that chunk edges fall inside cells.
 */
export function smallExperimentYaml(name: string, replicates = 30): string {
  return `experiment: ${name}
kind: sequential-audit
seed: 7
replicates: ${replicates}
chunkSize: 7
settings:
  access: score
  budget: 800
grid:
  metric: [sp, eo]
  pool:
    - name: fair
      synthetic: { size: 3000, decisionRate: [0.40, 0.39], truePositiveRate: [0.7, 0.69], seed: 3 }
    - name: unfair
      synthetic: { size: 3000, decisionRate: [0.45, 0.30], truePositiveRate: [0.8, 0.6], seed: 4 }
`;
}
