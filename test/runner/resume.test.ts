import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/runner/config.js';
import { decodeResultTable } from '../../src/runner/results-table.js';
import { runExperiment } from '../../src/runner/run-experiment.js';
import { packageRoot } from '../../src/util/paths.js';
import { bytesOf, spawnCli, temporaryFolder, writeText } from './helpers.js';

// 2 cells × 1500 replicates in chunks of 25: 120 chunks, about two seconds of work at
// one thread on an idle core (more on a busy machine), so the kill lands mid-run.
const YAML = `experiment: resume
kind: sequential-audit
seed: resume-test
replicates: 1500
chunkSize: 25
settings:
  budget: 4000
  pool: { name: near, synthetic: { size: 20000, decisionRate: [0.40, 0.37] } }
grid:
  access: [decision, logit]
`;
const CHUNKS = 120;

function chunkFiles(folder: string): string[] {
  const checkpoints = join(folder, '.checkpoints');
  return existsSync(checkpoints) ? readdirSync(checkpoints).filter((name) => /^chunk-\d+\.bin$/.test(name)) : [];
}

describe('fairaudit run CONFIG --resume after kill -9', () => {
  it('finishes without losing or repeating a replicate and writes the bytes of an uninterrupted run', async () => {
    const folder = temporaryFolder();
    const file = writeText(folder, 'resume.yaml', YAML);
    const out = join(folder, 'killed');
    const child = spawn(join(packageRoot(), 'bin', 'fairaudit'), ['run', file, '--threads', '1', '--out', out, '--quiet'], {
      cwd: packageRoot(),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (data) => {
      stderr += String(data);
    });
    let running = true;
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => {
        running = false;
        resolve(signal);
      }),
    );
    const deadline = Date.now() + 60_000;
    while (running && chunkFiles(out).length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGKILL');
    expect(await exited, `the run ended before the kill: ${stderr}`).toBe('SIGKILL');
    const survived = chunkFiles(out).length;
    expect(survived).toBeGreaterThanOrEqual(3);
    expect(survived).toBeLessThan(CHUNKS);
    expect(existsSync(join(out, 'results.arrow'))).toBe(false);

    const resumed = await spawnCli(['run', file, '--threads', '2', '--out', out, '--resume']);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain(`${survived} chunks resumed from checkpoints`);
    const record = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
    expect(record.provenance.resumedChunks + record.provenance.ranChunks).toBe(CHUNKS);
    expect(existsSync(join(out, '.checkpoints'))).toBe(false);

    const table = decodeResultTable(bytesOf(join(out, 'results.arrow')), 'resumed');
    const seen = new Set<string>();
    for (let row = 0; row < table.rows; row++) seen.add(`${table.data.cell[row]}#${table.data.replicate[row]}`);
    expect(table.rows).toBe(3000);
    expect(seen.size).toBe(3000);

    const reference = await runExperiment(parseConfig(YAML, file), { threads: 2, outDirectory: join(folder, 'whole') });
    expect(bytesOf(join(out, 'results.arrow')).equals(bytesOf(reference.resultsFile))).toBe(true);

    const again = await spawnCli(['run', file, '--out', out, '--resume']);
    expect(again.stdout).toContain('already complete');
  });

  it('refuses to resume checkpoints of another plan', async () => {
    const folder = temporaryFolder();
    const file = writeText(folder, 'resume.yaml', YAML);
    const out = join(folder, 'out');
    const child = spawn(join(packageRoot(), 'bin', 'fairaudit'), ['run', file, '--threads', '1', '--out', out, '--quiet'], {
      cwd: packageRoot(),
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    const deadline = Date.now() + 60_000;
    while (chunkFiles(out).length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGKILL');
    await exited;
    const result = await spawnCli(['run', file, '--out', out, '--resume', '--set', 'budget=3000']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--resume: expected checkpoints of this plan');
  });
});
