import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/harness/config.js';
import { findKindRunner } from '../../src/harness/kind-runners.js';
import { buildPlan, cellShardRows, chunksOfShard, parseShard, shardSize } from '../../src/harness/plan.js';
import { smallExperimentYaml } from './helpers.js';

const kind = findKindRunner('sequential-audit')!;

describe('buildPlan(config, kind)', () => {
  it('expands the grid in sorted key order with the last key fastest, and cuts chunks inside cells', () => {
    const plan = buildPlan(parseConfig(smallExperimentYaml('p', 30), 'p.yaml'), kind);
    expect(plan.cells.map((cell) => cell.key)).toEqual([
      '{"metric":"sp","pool":"fair"}',
      '{"metric":"sp","pool":"unfair"}',
      '{"metric":"eo","pool":"fair"}',
      '{"metric":"eo","pool":"unfair"}',
    ]);
    // 30 replicates in chunks of 7: 7, 7, 7, 7, 2 per cell.
    expect(plan.chunks.filter((chunk) => chunk.cell === 0).map((chunk) => chunk.count)).toEqual([7, 7, 7, 7, 2]);
    expect(plan.chunks).toHaveLength(20);
    expect(plan.tasks).toBe(120);
    expect(plan.gridColumns).toEqual([
      { key: 'metric', column: 'metric', type: 'utf8' },
      { key: 'pool', column: 'pool', type: 'utf8' },
    ]);
  });

  it('gives the same fingerprint and keys whatever the order of keys in the YAML, and another for another seed', () => {
    const a = buildPlan(
      parseConfig(
        'experiment: x\nkind: sequential-audit\nseed: 1\nsettings: {budget: 10, pool: {synthetic: {decisionRate: ' +
          '[0.3, 0.2], size: 100}}}\ngrid: {tolerance: [0.02, 0.05], access: [decision, score]}\n',
        'a.yaml',
      ),
      kind,
    );
    const b = buildPlan(
      parseConfig(
        'grid: {access: [decision, score], tolerance: [0.02, 0.05]}\nsettings: {pool: {synthetic: {size: 100, ' +
          'decisionRate: [0.3, 0.2]}}, budget: 10}\nseed: 1\nkind: sequential-audit\nexperiment: x\n',
        'b.yaml',
      ),
      kind,
    );
    const c = buildPlan(
      parseConfig(
        'experiment: x\nkind: sequential-audit\nseed: 2\nsettings: {budget: 10, pool: {synthetic: {decisionRate: ' +
          '[0.3, 0.2], size: 100}}}\ngrid: {tolerance: [0.02, 0.05], access: [decision, score]}\n',
        'c.yaml',
      ),
      kind,
    );
    expect(b.fingerprint).toBe(a.fingerprint);
    expect(b.cells.map((cell) => cell.key)).toEqual(a.cells.map((cell) => cell.key));
    expect(a.cells[1].key).toBe('{"access":"decision","tolerance":0.05}');
    expect(c.fingerprint).not.toBe(a.fingerprint);
  });

  it('applies --set overrides to settings and grid', () => {
    const config = parseConfig(smallExperimentYaml('p'), 'p.yaml', [
      { path: ['settings', 'budget'], value: 123, flag: '--set budget=123' },
      { path: ['grid', 'metric'], value: ['eo'], flag: '--set grid.metric=[eo]' },
    ]);
    const plan = buildPlan(config, kind);
    expect(plan.cells).toHaveLength(2);
    expect(plan.cells.every((cell) => cell.settings.budget === 123 && cell.settings.metric === 'eo')).toBe(true);
  });
});

describe('chunksOfShard(plan, shard)', () => {
  it('deals every chunk to exactly one of n shards', () => {
    const plan = buildPlan(parseConfig(smallExperimentYaml('p', 30), 'p.yaml'), kind);
    const dealt = [1, 2, 3].flatMap((index) => chunksOfShard(plan, { index, count: 3 }).map((chunk) => chunk.index));
    expect(dealt.sort((x, y) => x - y)).toEqual(plan.chunks.map((chunk) => chunk.index));
  });
  it('parseShard reads i/n and refuses the rest', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    for (const bad of ['0/4', '5/4', '1/0', 'a/b', '2', ''])
      expect(() => parseShard(bad)).toThrow('--shard: expected i/n');
  });
});

describe('plans at scale: made from the grid on demand', () => {
  it('buildPlan of 10^8 replicates a cell in chunks of 1 (4 × 10^8 chunks) counts them without making them', () => {
    const config = parseConfig(
      smallExperimentYaml('huge', 100_000_000).replace('chunkSize: 7', 'chunkSize: 1'),
      'huge.yaml',
    );
    const plan = buildPlan(config, kind);
    expect([plan.cellCount, plan.chunksPerCell, plan.chunkCount, plan.tasks]).toEqual([
      4, 100_000_000, 400_000_000, 400_000_000,
    ]);
    expect(plan.chunkAt(399_999_999)).toEqual({ index: 399_999_999, cell: 3, firstReplicate: 99_999_999, count: 1 });
    expect(shardSize(plan, { index: 3, count: 7 })).toEqual({ chunks: 57_142_857, rows: 57_142_857 });
  });

  it('a grid of 96 million cells: counts, any cell on demand, and a fingerprint from the axes alone', () => {
    const axis = (count: number, step: number) =>
      `[${Array.from({ length: count }, (_, i) => Number(((i + 1) * step).toFixed(6))).join(', ')}]`;
    const yaml =
      `experiment: big\nkind: sequential-audit\nseed: 1\nreplicates: 1\nsettings:\n  pool: { name: p, ` +
      `synthetic: { size: 1000, decisionRate: [0.4, 0.35] } }\ngrid:\n  budget: ` +
      `[${Array.from({ length: 9600 }, (_, i) => i + 100).join(', ')}]\n` +
      `  tolerance: ${axis(100, 0.001)}\n  alpha: ${axis(100, 0.001)}\n`;
    const plan = buildPlan(parseConfig(yaml, 'big.yaml'), kind);
    expect(plan.cellCount).toBe(96_000_000);
    const last = plan.cellAt(95_999_999);
    expect(last.key).toBe('{"alpha":0.1,"budget":9699,"tolerance":0.1}');
    expect([last.settings.alpha, last.settings.budget, last.settings.tolerance]).toEqual([0.1, 9699, 0.1]);
    const again = buildPlan(parseConfig(yaml.replace('seed: 1', 'seed: 2'), 'big.yaml'), kind);
    expect(again.fingerprint).not.toBe(plan.fingerprint);
  });

  it('a grid above 10,000 cells is checked value by value when loaded and cell by cell when used', () => {
    const budgets = Array.from({ length: 5001 }, (_, i) => i + 100).join(', ');
    const yaml =
      `experiment: lazy\nkind: sequential-audit\nseed: 1\nreplicates: 1\nsettings:\n  pool: { ` +
      `synthetic: { size: 1000, decisionRate: [0.4, 0.35] } }\ngrid:\n  budget: [${budgets}]\n  alpha: [0.1, ` +
      `0.5]\n  beta: [0.1, 0.6]\n`;
    // Each value is fine beside the others' first values; alpha 0.5 with beta 0.6 is not (α + β < 1).
    const config = parseConfig(yaml, 'lazy.yaml');
    expect(config.cellCount).toBe(20_004);
    expect(config.cellAt(3).settings.budget).toBe(103);
    expect(() => config.cellAt(15_003)).toThrow(/lazy\.yaml:\d+: grid\.beta\[1\]: expected /);
    expect(() => parseConfig(yaml.replace('budget: [', 'budget: [99, '), 'lazy.yaml')).not.toThrow();
    expect(() => parseConfig(yaml.replace('beta: [0.1, 0.6]', 'beta: [0.1, 1.6]'), 'lazy.yaml')).toThrow(
      /grid\.beta\[1\]: expected a number in \(0, 1\), found 1\.6/,
    );
  });

  it('shardSize and cellShardRows agree with counting chunk by chunk', () => {
    for (const [replicates, chunkSize, shards] of [
      [30, 7, 3],
      [10, 5, 4],
      [8, 3, 5],
      [1, 1, 2],
    ]) {
      const plan = buildPlan(
        parseConfig(smallExperimentYaml('s', replicates).replace('chunkSize: 7', `chunkSize: ${chunkSize}`), 's.yaml'),
        kind,
      );
      for (let index = 1; index <= shards; index++) {
        const shard = { index, count: shards };
        const chunks = chunksOfShard(plan, shard);
        expect(shardSize(plan, shard)).toEqual({
          chunks: chunks.length,
          rows: chunks.reduce((sum, chunk) => sum + chunk.count, 0),
        });
        for (let cell = 0; cell < plan.cellCount; cell++) {
          expect(cellShardRows(plan, cell, shard)).toBe(
            chunks.filter((chunk) => chunk.cell === cell).reduce((sum, chunk) => sum + chunk.count, 0),
          );
        }
      }
    }
  });
});

describe('buildPlan(config, kind) with recorded settings and null grid values', () => {
  const base =
    'experiment: x\nkind: sequential-audit\nseed: 1\nsettings: {budget: 10, pool: {synthetic: {decisionRate: ' +
    '[0.3, 0.2], size: 100}}}\n';

  it('records test, thresholds and order as columns only when a cell sets them, and leaves the cell keys alone', () => {
    const plain = buildPlan(parseConfig(`${base}grid: {access: [decision, score]}\n`, 'a.yaml'), kind);
    expect(plain.gridColumns.map((column) => column.column)).toEqual(['access']);
    const set = buildPlan(
      parseConfig(
        `${base.replace('budget: 10,', 'budget: 10, test: betting, order: balanced,')}grid: {access: [decision, ` +
          `score]}\n`,
        'b.yaml',
      ),
      kind,
    );
    expect(set.gridColumns).toEqual([
      { key: 'access', column: 'access', type: 'utf8' },
      { key: 'test', column: 'test', type: 'utf8', recorded: true },
      { key: 'order', column: 'order', type: 'utf8', recorded: true },
    ]);
    expect(set.cells.map((cell) => cell.key)).toEqual(plain.cells.map((cell) => cell.key));
    expect(set.cells[0].columns).toEqual({ access: 'decision', test: 'betting', order: 'balanced' });
    const given = buildPlan(
      parseConfig(`${base.replace('budget: 10,', 'budget: 10, thresholds: {upper: 5, lower: -2},')}`, 'c.yaml'),
      kind,
    );
    expect(given.cells[0].columns).toEqual({ thresholds: '{"lower":-2,"upper":5}' });
  });

  it('a null in the grid leaves an optional setting absent (a number column records NaN)', () => {
    const oc = findKindRunner('operating-characteristic')!;
    const plan = buildPlan(
      parseConfig(
        'experiment: x\nkind: operating-characteristic\nseed: 1\nsettings: {budget: 10, pool: {synthetic: ' +
          '{decisionRate: [0.3, 0.2], size: 100}}}\ngrid: {gap: [null, 0.02]}\n',
        'd.yaml',
      ),
      oc,
    );
    expect(plan.cells.map((cell) => cell.key)).toEqual(['{"gap":null}', '{"gap":0.02}']);
    expect(plan.cells[0].columns.gap).toBeNaN();
    expect(plan.cells[0].settings.gap).toBeUndefined();
  });
});
