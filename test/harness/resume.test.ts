import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Checkpoints } from '../../src/harness/checkpoints.js';
import { parseConfig } from '../../src/harness/config.js';
import { buildPlan } from '../../src/harness/plan.js';
import { decodeResultTable } from '../../src/harness/results-table.js';
import { runExperiment } from '../../src/harness/run-experiment.js';
import { sequentialAuditRunner } from '../../src/kinds/sequential-audit/run.js';
import { runCliInProcess, spawnCli } from '../helpers/cli.js';
import { bytesOf, longExperimentYaml, temporaryFolder, workerPayload, writeText } from './helpers.js';

// 2 cells × 12000 replicates in chunks of 25: 960 chunks, a second or more of work at one
// thread, several checkpoint saves (a quarter second apart), so the kill lands mid-run.
const REPLICATES = 12_000;
const YAML = longExperimentYaml('resume');
const KILLED = YAML.replace('replicates: 1500', `replicates: ${REPLICATES}`);
const CHUNKS = (2 * REPLICATES) / 25;

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
    const file = writeText(folder, 'resume.yaml', KILLED);
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
    expect(table.rows).toBe(2 * REPLICATES);
    expect(seen.size).toBe(2 * REPLICATES);

    const reference = await runExperiment(parseConfig(KILLED, file), {
      threads: 2,
      outDirectory: join(folder, 'whole'),
    });
    expect(bytesOf(join(out, 'results.arrow')).equals(bytesOf(reference.resultsFile))).toBe(true);

    const again = await spawnCli(['run', file, '--out', out, '--resume']).done;
    expect(again.stdout).toContain('already complete');
  });

  it('refuses to resume checkpoints of another plan', async () => {
    const folder = temporaryFolder();
    const file = writeText(folder, 'resume.yaml', KILLED);
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

/** A killed run's checkpoints for `small` (chunks 0..7 of 12 saved, two chunks a file), and the folder of an
 * uninterrupted run. */
async function killedRun(small: string) {
  const folder = temporaryFolder();
  const file = writeText(folder, 'resume.yaml', small);
  const plan = buildPlan(parseConfig(small, file), sequentialAuditRunner as never);
  const reference = await runExperiment(parseConfig(small, file), { threads: 2, outDirectory: join(folder, 'whole') });
  const out = join(folder, 'killed');
  const checkpoints = new Checkpoints(out, plan, null, sequentialAuditRunner.outcomeColumns);
  checkpoints.start();
  for (let first = 0; first < 8; first += 2) {
    const pair = [first, first + 1];
    checkpoints.save(
      await Promise.all(
        pair.map(async (index) => ({
          chunk: plan.chunkAt(index),
          payload: await workerPayload(plan, sequentialAuditRunner as never, index),
        })),
      ),
    );
  }
  /** Every file of the killed folder with its bytes, to check a refused resume changed nothing. */
  const snapshot = () =>
    readdirSync(checkpoints.folder).map((name) => [
      name,
      readFileSync(join(checkpoints.folder, name)).toString('base64'),
    ]);
  return { file, out, plan, checkpoints, reference: reference.resultsFile, snapshot };
}

describe('fairaudit run CONFIG --resume: checked checkpoints', () => {
  // 2 cells × 60 replicates in chunks of 10: 12 chunks.
  const SMALL = YAML.replace('replicates: 1500', 'replicates: 60').replace('chunkSize: 25', 'chunkSize: 10');

  it(
    'a checkpoint with one flipped byte: exit 2 naming the file and chunk, nothing changed; --repair reruns ' +
      'that chunk and writes the bytes of an uninterrupted run',
    async () => {
      const { file, out, checkpoints, reference, snapshot } = await killedRun(SMALL);
      const damaged = join(checkpoints.folder, 'chunks-0000004.bin');
      const bytes = readFileSync(damaged);
      bytes[bytes.length - 100] ^= 0x01;
      writeFileSync(damaged, bytes);
      const before = snapshot();
      const refused = await runCliInProcess(['run', file, '--out', out, '--resume', '--quiet']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toBe(
        `fairaudit: --resume: expected checkpoints of this plan, found 1 damaged or foreign: ${damaged}: chunk 5: ` +
          `bytes that do not match their SHA-256 (the file is damaged); run with --resume --repair to recompute ` +
          `exactly ` +
          `those chunks, or without --resume to start over\n`,
      );
      expect(snapshot()).toEqual(before);
      expect(existsSync(join(out, 'results.arrow'))).toBe(false);
      const repaired = await runCliInProcess(['run', file, '--out', out, '--resume', '--repair']);
      expect(repaired.code).toBe(0);
      expect(repaired.stdout).toContain('7 chunks resumed from checkpoints');
      expect(bytesOf(join(out, 'results.arrow')).equals(bytesOf(reference))).toBe(true);
      const record = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
      expect([record.provenance.resumedChunks, record.provenance.ranChunks]).toEqual([7, 5]);
    },
  );

  it(
    'chunks computed under another seed: exit 2 naming them; --repair recomputes them and writes the bytes of ' +
      'an uninterrupted run',
    async () => {
      const { file, out, plan, checkpoints, reference, snapshot } = await killedRun(SMALL);
      const otherPlan = buildPlan(
        parseConfig(SMALL.replace('seed: resume-test', 'seed: another'), file),
        sequentialAuditRunner as never,
      );
      // Another seed's chunks 8 and 9 in a file carrying this plan's fingerprint (and valid checksums).
      checkpoints.save(
        await Promise.all(
          [8, 9].map(async (index) => ({
            chunk: plan.chunkAt(index),
            payload: await workerPayload(otherPlan, sequentialAuditRunner as never, index),
          })),
        ),
      );
      const before = snapshot();
      const refused = await runCliInProcess(['run', file, '--out', out, '--resume', '--quiet']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(
        new RegExp(
          String.raw`found 2 damaged or foreign: .*chunks-0000008\.bin: chunk 8: the seed "[0-9a-f]{32}" for ` +
            String.raw`replicate 20, not this plan.s \(another seed or config\); .*chunk 9: `,
        ),
      );
      expect(snapshot()).toEqual(before);
      const repaired = await runCliInProcess(['run', file, '--out', out, '--resume', '--repair', '--quiet']);
      expect(repaired.code).toBe(0);
      expect(bytesOf(join(out, 'results.arrow')).equals(bytesOf(reference))).toBe(true);
    },
  );

  it(
    'a damaged .checkpoints/plan.json: exit 2 naming it (a SyntaxError stack, exit 1, before); --repair checks ' +
      'each chunk and resumes',
    async () => {
      const { file, out, checkpoints, reference } = await killedRun(SMALL);
      writeFileSync(checkpoints.planFile, '{"format": "fairaudit-checkpoints/2", "fingerpr');
      const refused = await runCliInProcess(['run', file, '--out', out, '--resume', '--quiet']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toBe(
        `fairaudit: ${checkpoints.planFile}: expected the checkpoint plan of this run, found unreadable JSON (the ` +
          `file is damaged); run with --resume --repair to check every chunk against this plan and rewrite it, ` +
          `or without ` +
          `--resume to start over\n`,
      );
      const repaired = await runCliInProcess(['run', file, '--out', out, '--resume', '--repair']);
      expect(repaired.code).toBe(0);
      expect(repaired.stdout).toContain('8 chunks resumed from checkpoints');
      expect(bytesOf(join(out, 'results.arrow')).equals(bytesOf(reference))).toBe(true);
    },
  );

  it('--repair without --resume is exit 2', async () => {
    const { file, out } = await killedRun(SMALL);
    const result = await runCliInProcess(['run', file, '--out', out, '--repair']);
    expect(result).toMatchObject({
      code: 2,
      stderr: 'fairaudit: --repair: expected together with --resume (it repairs the checkpoints a resume finds)\n',
    });
  });
});

describe('fairaudit run CONFIG --resume --repair with checkpoint files mixed by hand', () => {
  // 2 cells × 150 replicates in chunks of 10: 30 chunks.
  const MIXED = YAML.replace('replicates: 1500', 'replicates: 150').replace('chunkSize: 25', 'chunkSize: 10');

  it(
    'a chunk in two files: --resume refuses the second copy; --repair writes under fresh names, loses no good ' +
      'chunk and gives the bytes of an uninterrupted run',
    async () => {
      const folder = temporaryFolder();
      const file = writeText(folder, 'mixed.yaml', MIXED);
      const plan = buildPlan(parseConfig(MIXED, file), sequentialAuditRunner as never);
      const reference = await runExperiment(parseConfig(MIXED, file), {
        threads: 2,
        outDirectory: join(folder, 'whole'),
      });
      const out = join(folder, 'mixed');
      const checkpoints = new Checkpoints(out, plan, null, sequentialAuditRunner.outcomeColumns);
      checkpoints.start();
      const completed = async (indices: number[]) =>
        Promise.all(
          indices.map(async (index) => ({
            chunk: plan.chunkAt(index),
            payload: await workerPayload(plan, sequentialAuditRunner as never, index),
          })),
        );
      checkpoints.save(await completed([20, 22, 24, 26])); // chunks-0000020.bin
      checkpoints.save(await completed([19, 20, 21])); // chunks-0000019.bin, with chunk 20 again
      // Damage chunk 19 (the first entry: a 72-byte file header, then a 40-byte entry header).
      const mixed = join(checkpoints.folder, 'chunks-0000019.bin');
      const bytes = readFileSync(mixed);
      bytes[72 + 40 + 20] ^= 0x01;
      writeFileSync(mixed, bytes);

      const refused = await spawnCli(['run', file, '--out', out, '--resume', '--quiet']).done;
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(
        'chunks-0000020.bin: chunk 20: a second copy of a chunk already checkpointed (files copied or mixed by hand)',
      );

      const repaired = await spawnCli(['run', file, '--out', out, '--resume', '--repair']).done;
      expect(repaired.stderr).toBe('');
      expect(repaired.code).toBe(0);
      // 20, 21, 22, 24, 26 kept (19 damaged, recomputed with the 24 never saved).
      expect(repaired.stdout).toContain('5 chunks resumed from checkpoints');
      expect(bytesOf(join(out, 'results.arrow')).equals(bytesOf(reference.resultsFile))).toBe(true);
    },
  );
});
