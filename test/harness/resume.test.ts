import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Checkpoints } from '../../src/harness/checkpoints.js';
import { parseConfig } from '../../src/harness/config.js';
import { sequentialAuditRunner } from '../../src/kinds/sequential-audit/run.js';
import { buildPlan } from '../../src/harness/plan.js';
import { decodeResultTable } from '../../src/harness/results-table.js';
import { runExperiment } from '../../src/harness/run-experiment.js';
import { spawnCli } from '../helpers/cli.js';
import { bytesOf, temporaryFolder, writeText } from './helpers.js';

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

/** Chunks in the checkpoint files (chunks-N.bin; a uint32 chunk count at byte 4, src/harness/checkpoints.ts). */
function checkpointedChunks(folder: string): number {
  const checkpoints = join(folder, '.checkpoints');
  if (!existsSync(checkpoints)) return 0;
  let count = 0;
  for (const name of readdirSync(checkpoints)) {
    if (/^chunks-\d+\.bin$/.test(name)) count += readFileSync(join(checkpoints, name)).readUInt32LE(4);
  }
  return count;
}

describe('fairaudit run CONFIG --resume after kill -9', () => {
  it('finishes without losing or repeating a replicate and writes the bytes of an uninterrupted run', async () => {
    const folder = temporaryFolder();
    const file = writeText(folder, 'resume.yaml', YAML);
    const out = join(folder, 'killed');
    const { child, done } = spawnCli(['run', file, '--threads', '1', '--out', out, '--quiet']);
    let running = true;
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => {
        running = false;
        resolve(signal);
      }),
    );
    const deadline = Date.now() + 60_000;
    while (running && checkpointedChunks(out) < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGKILL');
    expect(await exited, `the run ended before the kill: ${(await done).stderr}`).toBe('SIGKILL');
    const survived = checkpointedChunks(out);
    expect(survived).toBeGreaterThanOrEqual(3);
    expect(survived).toBeLessThan(CHUNKS);
    expect(existsSync(join(out, 'results.arrow'))).toBe(false);

    const resumed = await spawnCli(['run', file, '--threads', '2', '--out', out, '--resume']).done;
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

    const again = await spawnCli(['run', file, '--out', out, '--resume']).done;
    expect(again.stdout).toContain('already complete');
  });

  it('refuses to resume checkpoints of another plan', async () => {
    const folder = temporaryFolder();
    const file = writeText(folder, 'resume.yaml', YAML);
    const out = join(folder, 'out');
    const { child, done } = spawnCli(['run', file, '--threads', '1', '--out', out, '--quiet']);
    const deadline = Date.now() + 60_000;
    while (checkpointedChunks(out) < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGKILL');
    await done;
    const result = await spawnCli(['run', file, '--out', out, '--resume', '--set', 'budget=3000']).done;
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--resume: expected checkpoints of this plan');
  });

  it('refuses a damaged checkpoint file with exit 2, naming it', async () => {
    const folder = temporaryFolder();
    const small = YAML.replace('replicates: 1500', 'replicates: 50');
    const file = writeText(folder, 'resume.yaml', small);
    const out = join(folder, 'out');
    // A finished run's checkpoints are removed; recreate them as a killed run leaves them, then damage one.
    const plan = buildPlan(parseConfig(small, file), sequentialAuditRunner as never);
    const checkpoints = new Checkpoints(out, plan, null, sequentialAuditRunner.outcomeColumns);
    checkpoints.start();
    checkpoints.save([{ chunk: plan.chunkAt(0), payload: new Uint8Array(16) }]);
    const result = await spawnCli(['run', file, '--out', out, '--resume']).done;
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/chunks-0000000\.bin: chunk 0: expected a fairaudit chunk checkpoint/);
    expect(existsSync(join(out, 'results.arrow'))).toBe(false);
  });
});
