import { existsSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writePoolFile } from '../../src/audit/pool-io.js';
import { generateSyntheticPool } from '../../src/data/synthetic-pool.js';
import { parseConfig } from '../../src/harness/config.js';
import { mergeShards } from '../../src/harness/merge-shards.js';
import { decodeResultTable } from '../../src/harness/results-table.js';
import { runExperiment } from '../../src/harness/run-experiment.js';
import { deriveSeed } from '../../src/util/random.js';
import { spawnCli } from '../helpers/cli.js';
import { bytesOf, smallExperimentYaml, temporaryFolder, writeText } from './helpers.js';

describe('runExperiment(config, {threads})', () => {
  it('writes byte-identical results.arrow with 1 and 2 threads, rows in canonical order', async () => {
    const folder = temporaryFolder();
    const config = parseConfig(smallExperimentYaml('threads'), join(folder, 'threads.yaml'));
    const progress: [number, number][] = [];
    const one = await runExperiment(config, {
      threads: 1,
      outDirectory: join(folder, 'one'),
      onProgress: (done, total) => progress.push([done, total]),
    });
    // onProgress(done, total): from 0 to 120 replicates, one call per chunk of at most 7.
    expect(progress[0]).toEqual([0, 120]);
    expect(progress.at(-1)).toEqual([120, 120]);
    expect(progress).toHaveLength(1 + 20);
    for (let i = 1; i < progress.length; i++) expect(progress[i][0]).toBeGreaterThan(progress[i - 1][0]);
    const two = await runExperiment(config, { threads: 2, outDirectory: join(folder, 'two') });
    expect(two.threads).toBe(2);
    expect(bytesOf(two.resultsFile).equals(bytesOf(one.resultsFile))).toBe(true);
    expect(existsSync(join(folder, 'one', '.checkpoints'))).toBe(false);

    const table = decodeResultTable(bytesOf(one.resultsFile), one.resultsFile);
    expect(table.rows).toBe(4 * 30);
    expect(table.columns.map((c) => c.name)).toEqual([
      'experiment',
      'kind',
      'cell',
      'metric',
      'pool',
      'replicate',
      'seed',
      'decision',
      'queries',
      'statistic',
      'oracle_gap',
      'oracle_decision',
      'fixed_decision',
      'fixed_samples',
      'pool_size',
      'proxy_gap',
    ]);
    // Cells in grid order (keys sorted: metric, then pool varying fastest), then replicate index.
    expect(table.data.cell[0]).toBe('{"metric":"sp","pool":"fair"}');
    expect(table.data.cell[30]).toBe('{"metric":"sp","pool":"unfair"}');
    expect(table.data.cell[60]).toBe('{"metric":"eo","pool":"fair"}');
    expect(table.data.replicate.slice(0, 3)).toEqual([0, 1, 2]);
    expect(table.data.seed[31]).toBe(deriveSeed('7', '{"metric":"sp","pool":"unfair"}', 1));
    // The unfair pool's oracle SP gap is 0.15 by construction (decision rates 0.45 and 0.30).
    expect(table.data.oracle_gap[30]).toBeCloseTo(0.15, 10);
    expect(table.data.oracle_decision[30]).toBe('reject');

    const record = JSON.parse(readFileSync(one.runFile, 'utf8'));
    expect(record.plan.cells).toHaveLength(4);
    expect(record.provenance.threads).toBe(1);
    expect(record.provenance.masterSeed).toBe('7');
    // The machine and the effort: CPU seconds over the run, the CPU, its cores, the load before and after.
    expect(record.provenance.cpuSeconds).toBeGreaterThan(0);
    expect(record.provenance.machine.cores).toBe(cpus().length);
    expect(record.provenance.machine.cpuModel).toBe(cpus()[0].model.trim());
    expect(record.provenance.loadAverage.started).toHaveLength(3);
    expect(record.provenance.loadAverage.finished.every((value: number) => value >= 0)).toBe(true);
  });

  it('does not depend on the order of keys in the YAML', async () => {
    const folder = temporaryFolder();
    const reordered = `seed: 7
kind: sequential-audit
chunkSize: 7
replicates: 30
experiment: threads
grid:
  pool:
    - synthetic: { seed: 3, truePositiveRate: [0.7, 0.69], decisionRate: [0.40, 0.39], size: 3000 }
      name: fair
    - name: unfair
      synthetic: { decisionRate: [0.45, 0.30], size: 3000, seed: 4, truePositiveRate: [0.8, 0.6] }
  metric: [sp, eo]
settings:
  budget: 800
  access: score
`;
    const a = await runExperiment(parseConfig(smallExperimentYaml('threads'), join(folder, 'a.yaml')), {
      threads: 1,
      outDirectory: join(folder, 'a'),
    });
    const b = await runExperiment(parseConfig(reordered, join(folder, 'b.yaml')), {
      threads: 1,
      outDirectory: join(folder, 'b'),
    });
    expect(bytesOf(b.resultsFile).equals(bytesOf(a.resultsFile))).toBe(true);
  });
});

describe('fairaudit run CONFIG --shard i/4, then fairaudit merge', () => {
  it('four shard processes merged give exactly the bytes of one run', async () => {
    const folder = temporaryFolder();
    const file = writeText(folder, 'shards.yaml', smallExperimentYaml('shards'));
    const [whole, ...shards] = await Promise.all([
      spawnCli(['run', file, '--threads', '1', '--out', join(folder, 'whole'), '--quiet']).done,
      ...[1, 2, 3, 4].map(
        (i) =>
          spawnCli(['run', file, '--threads', '1', '--shard', `${i}/4`, '--out', join(folder, `shard-${i}`), '--quiet'])
            .done,
      ),
    ]);
    expect(whole.stderr).toBe('');
    expect(whole.code).toBe(0);
    for (const shard of shards) expect(shard.code).toBe(0);
    // Each shard holds only its share.
    const sizes = [1, 2, 3, 4].map(
      (i) => decodeResultTable(bytesOf(join(folder, `shard-${i}`, 'results.arrow')), 'shard').rows,
    );
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(120);
    expect(Math.max(...sizes)).toBeLessThan(120);
    const merged = await spawnCli([
      'merge',
      ...[3, 1, 4, 2].map((i) => join(folder, `shard-${i}`)),
      '--out',
      join(folder, 'merged'),
    ]).done;
    expect(merged.code).toBe(0);
    expect(
      bytesOf(join(folder, 'merged', 'results.arrow')).equals(bytesOf(join(folder, 'whole', 'results.arrow'))),
    ).toBe(true);
    const record = JSON.parse(readFileSync(join(folder, 'merged', 'run.json'), 'utf8'));
    expect(record.provenance.mergedFrom).toHaveLength(4);
  });

  it('mergeShards refuses a missing shard, a doubled shard, and shards of another plan', async () => {
    const folder = temporaryFolder();
    const config = parseConfig(smallExperimentYaml('refuse', 8), join(folder, 'refuse.yaml'));
    for (const i of [1, 2])
      await runExperiment(config, { threads: 1, shard: { index: i, count: 2 }, outDirectory: join(folder, `s${i}`) });
    const other = parseConfig(smallExperimentYaml('refuse', 9), join(folder, 'other.yaml'));
    await runExperiment(other, { threads: 1, shard: { index: 2, count: 2 }, outDirectory: join(folder, 'o2') });
    const out = join(folder, 'merged');
    await expect(mergeShards([join(folder, 's1')], out)).rejects.toThrow('found none for shard 2/2');
    await expect(mergeShards([join(folder, 's1'), join(folder, 's1')], out)).rejects.toThrow(
      'expected each shard once',
    );
    await expect(mergeShards([join(folder, 's1'), join(folder, 'o2')], out)).rejects.toThrow(
      'expected a shard of the same plan',
    );
    await expect(mergeShards([join(folder, 'nothing-here')], out)).rejects.toThrow(
      'nothing-here: expected a results folder written by "fairaudit run"',
    );
    expect(existsSync(out)).toBe(false);
    await mergeShards([join(folder, 's2'), join(folder, 's1')], out);
    expect(decodeResultTable(bytesOf(join(out, 'results.arrow')), 'merged').rows).toBe(4 * 8);
  });
});

describe('runExperiment(config) with a pool file', () => {
  it('reads a pool file relative to the config and gives the results of the same pool generated in place', async () => {
    const folder = temporaryFolder();
    const recipe = {
      size: 3000,
      groupShare: 0.5,
      labelRate: [0.4, 0.4],
      decisionRate: [0.45, 0.3],
      logitScale: 2,
      seed: '9',
    };
    writePoolFile(join(folder, 'pool.arrow'), generateSyntheticPool(recipe));
    const base =
      'experiment: file-pool\nkind: sequential-audit\nseed: 3\nreplicates: 12\nsettings:\n  budget: ' +
      '500\n  access: logit\n';
    const fromFile = await runExperiment(parseConfig(`${base}  pool: { file: pool.arrow }\n`, join(folder, 'a.yaml')), {
      threads: 1,
      outDirectory: join(folder, 'a'),
    });
    const generated = await runExperiment(
      parseConfig(`${base}  pool: { synthetic: ${JSON.stringify(recipe)} }\n`, join(folder, 'b.yaml')),
      {
        threads: 1,
        outDirectory: join(folder, 'b'),
      },
    );
    const a = decodeResultTable(bytesOf(fromFile.resultsFile), 'a');
    const b = decodeResultTable(bytesOf(generated.resultsFile), 'b');
    expect(a.data.queries).toEqual(b.data.queries);
    expect(a.data.statistic).toEqual(b.data.statistic);
    expect(a.data.decision).toEqual(b.data.decision);
  });

  it('stops with InputError and writes nothing when the pool lacks the column the access regime needs', async () => {
    const folder = temporaryFolder();
    const pool = generateSyntheticPool({
      size: 500,
      groupShare: 0.5,
      labelRate: [0.4, 0.4],
      decisionRate: [0.45, 0.3],
      logitScale: 2,
      seed: '9',
    });
    writePoolFile(join(folder, 'pool.arrow'), { ...pool, score: null, logit: null });
    const config = parseConfig(
      'experiment: no-score\nkind: sequential-audit\nseed: 3\nsettings:\n  access: score\n  pool: { file: ' +
        'pool.arrow }\n',
      join(folder, 'c.yaml'),
    );
    await expect(runExperiment(config, { threads: 1, outDirectory: join(folder, 'out') })).rejects.toThrow(/score/);
    expect(existsSync(join(folder, 'out'))).toBe(false);
  });

  it(
    'writes nothing when one context of a grid is bad, even after chunks of a good one have finished (2 ' + 'threads)',
    async () => {
      const folder = temporaryFolder();
      const pool = generateSyntheticPool({
        size: 500,
        groupShare: 0.5,
        labelRate: [0.4, 0.4],
        decisionRate: [0.45, 0.3],
        logitScale: 2,
        seed: '9',
      });
      writePoolFile(join(folder, 'pool.arrow'), { ...pool, score: null, logit: null });
      // The good pool's 20 chunks of 2 replicates each are queued on both workers; the bad pool is checked by one of
      // them.
      const config = parseConfig(
        `experiment: one-bad
kind: sequential-audit
seed: 3
replicates: 40
chunkSize: 2
settings:
  access: score
  budget: 200
grid:
  pool:
    - { name: good, synthetic: { size: 2000, decisionRate: [0.45, 0.3] } }
    - { name: bad, file: pool.arrow }
`,
        join(folder, 'd.yaml'),
      );
      await expect(runExperiment(config, { threads: 2, outDirectory: join(folder, 'out') })).rejects.toThrow(/score/);
      expect(existsSync(join(folder, 'out'))).toBe(false);
    },
  );
});

describe('runExperiment(config) of a grid above 10,000 cells', () => {
  it(
    'checks every cell before anything is written: a bad combination stops the run with InputError and no ' +
      'output folder',
    async () => {
      const folder = temporaryFolder();
      const budgets = Array.from({ length: 5001 }, (_, i) => i + 100).join(', ');
      const yaml =
        `experiment: lazy\nkind: sequential-audit\nseed: 1\nreplicates: 1\nsettings:\n  pool: { ` +
        `synthetic: { size: 1000, decisionRate: [0.4, 0.35] } }\ngrid:\n  budget: [${budgets}]\n  alpha: [0.1, ` +
        `0.5]\n  beta: [0.1, 0.6]\n`;
      const out = join(folder, 'out');
      await expect(
        runExperiment(parseConfig(yaml, join(folder, 'lazy.yaml')), { threads: 1, outDirectory: out }),
      ).rejects.toThrow(/lazy\.yaml:\d+: grid\.beta\[1\]: expected /);
      expect(existsSync(out)).toBe(false);
    },
  );
});
