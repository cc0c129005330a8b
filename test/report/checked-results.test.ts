import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/harness/config.js';
import { decodeResultTable, encodeResultTable } from '../../src/harness/results-table.js';
import { runExperiment } from '../../src/harness/run-experiment.js';
import { writePaperLayoutManifest } from '../../src/report/paper-layout.js';
import { sha256Hex } from '../../src/util/sha256.js';
import { smallExperimentYaml, temporaryFolder } from '../harness/helpers.js';
import { runCliInProcess } from '../helpers/cli.js';
import { folderSnapshot } from '../helpers/folder-snapshot.js';

/** A finished run of smallExperimentYaml (4 cells × 3 replicates), sharded in two unless `whole`. */
async function finishedRun(name = 'checked') {
  const folder = temporaryFolder();
  const config = parseConfig(smallExperimentYaml(name, 3), join(folder, `${name}.yaml`));
  const out = join(folder, 'results');
  await runExperiment(config, { threads: 1, outDirectory: out });
  const shards = [1, 2].map((index) => join(folder, `shard-${index}`));
  for (const [i, shard] of shards.entries())
    await runExperiment(config, { threads: 1, outDirectory: shard, shard: { index: i + 1, count: 2 } });
  return { folder, out, shards };
}

/**
 * Rewrites results.arrow with `change` applied to its decoded rows and records the new
 * file's SHA-256, size and rows in run.json, as a producer that checksums what it wrote
 * would: what the checksum cannot catch, the row checks must.
 */
function rewriteConsistently(folder: string, change: (data: Record<string, unknown[]>) => void): void {
  const path = join(folder, 'results.arrow');
  const table = decodeResultTable(readFileSync(path), path);
  change(table.data as Record<string, unknown[]>);
  const rows = (table.data.cell as unknown[]).length;
  const bytes = encodeResultTable(table.columns, table.data as never, table.metadata);
  writeFileSync(path, bytes);
  const record = JSON.parse(readFileSync(join(folder, 'run.json'), 'utf8'));
  record.artifacts[0] = { ...record.artifacts[0], sha256: sha256Hex(bytes), bytes: bytes.byteLength, rows };
  writeFileSync(join(folder, 'run.json'), JSON.stringify(record));
}

/** report, compare and merge of the damaged folder: each exit 2 with `message`, under ~400 characters, nothing changed.
 * */
async function refusedEverywhere(run: { folder: string; out: string }, damaged: string, message: RegExp) {
  const before = folderSnapshot(run.folder);
  const commands = [
    ['report', damaged, '--no-png'],
    ['compare', damaged],
    ['merge', damaged, '--out', join(run.folder, 'merged')],
  ];
  for (const command of commands) {
    const { code, stderr } = await runCliInProcess(command);
    expect({ command: command[0], code }).toEqual({ command: command[0], code: 2 });
    expect(stderr).toMatch(message);
    expect(stderr.length).toBeLessThan(600);
  }
  expect(folderSnapshot(run.folder)).toEqual(before);
}

describe('merge, report and compare check what they read', () => {
  it('a results.arrow with one flipped byte: exit 2 naming it and the SHA-256 run.json records', async () => {
    const run = await finishedRun();
    const path = join(run.out, 'results.arrow');
    const bytes = readFileSync(path);
    bytes[bytes.length >> 1] ^= 0x01;
    writeFileSync(path, bytes);
    await refusedEverywhere(
      run,
      run.out,
      new RegExp(
        String.raw`results\.arrow: expected the SHA-256 .*run\.json records \("[0-9a-f]{16}"…\), found ` +
          String.raw`[0-9a-f]{16}… \(changed or damaged after the run; run the experiment again\)\n$`,
      ),
    );
  });

  it('a decision outside its values ("maybe"), checksummed: exit 2 naming the row and column', async () => {
    const run = await finishedRun();
    rewriteConsistently(run.out, (data) => {
      data.decision[5] = 'maybe';
    });
    await refusedEverywhere(
      run,
      run.out,
      /results\.arrow: row 5, column decision: expected one of reject, accept, inconclusive, found "maybe"\n$/,
    );
  });

  it("rows out of the plan's order, checksummed: exit 2 naming the row", async () => {
    const run = await finishedRun();
    rewriteConsistently(run.out, (data) => {
      for (const column of Object.values(data)) [column[0], column[4]] = [column[4], column[0]];
    });
    await refusedEverywhere(
      run,
      run.out,
      new RegExp(
        String.raw`results\.arrow: row 0, column cell: expected ` +
          String.raw`"\{\\"metric\\":\\"sp\\",\\"pool\\":\\"fair\\"\}" \(the plan's order\), found ` +
          String.raw`"\{\\"metric\\":\\"sp\\",\\"pool\\":\\"unfair\\"\}"\n$`,
      ),
    );
  });

  it('a run.json with the wrong row count: exit 2', async () => {
    const run = await finishedRun();
    const file = join(run.out, 'run.json');
    const record = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...record, rows: record.rows + 1 }));
    await refusedEverywhere(
      run,
      run.out,
      /run\.json: artifacts: expected results\.arrow's rows to be the run's 13, found 12\n$/,
    );
    writeFileSync(
      file,
      JSON.stringify({
        ...record,
        rows: record.rows + 1,
        artifacts: [{ ...record.artifacts[0], rows: record.rows + 1 }],
      }),
    );
    await refusedEverywhere(run, run.out, /run\.json: rows: expected the 12 replicates of the plan, found 13\n$/);
  });

  it('a folder written before checksums existed (run.json format 1): exit 2 saying to run again', async () => {
    const run = await finishedRun();
    const file = join(run.out, 'run.json');
    const { artifacts: _artifacts, ...record } = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...record, format: 'fairaudit-run/1' }));
    await refusedEverywhere(
      run,
      run.out,
      new RegExp(
        String.raw`run\.json: expected a run\.json that records the checksums of its results \(format ` +
          String.raw`fairaudit-run\/2\), found format fairaudit-run\/1, written before fairaudit checked its ` +
          String.raw`results; run the experiment again to trust these results\n$`,
      ),
    );
  });

  it('merge of a damaged shard: exit 2, no merged folder', async () => {
    const run = await finishedRun();
    const path = join(run.shards[1], 'results.arrow');
    const bytes = readFileSync(path);
    bytes[100] ^= 0x10;
    writeFileSync(path, bytes);
    const before = folderSnapshot(run.folder);
    const { code, stderr } = await runCliInProcess(['merge', ...run.shards, '--out', join(run.folder, 'merged')]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/shard-2\/results\.arrow: expected the SHA-256 /);
    expect(folderSnapshot(run.folder)).toEqual(before);
  });

  it(
    "compare of another experiment's results placed in a paper-a folder: exit 2 (it exited 0 and a CI gate " +
      'passed)',
    async () => {
      const run = await finishedRun('quick');
      writePaperLayoutManifest(run.out, { layout: 'paper-a', options: {} });
      const { code, stderr } = await runCliInProcess(['compare', run.out]);
      expect(code).toBe(2);
      expect(stderr).toMatch(
        new RegExp(
          String.raw`report-layout\.json: expected results of an experiment of layout paper-a \(paper-a, ` +
            String.raw`.*\), found "results of experiment quick"\n$`,
        ),
      );
    },
  );
});
