import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/harness/config.js';
import { findKindRunner } from '../../src/harness/kind-runners.js';
import { buildPlan, chunksOfShard, parseShard } from '../../src/harness/plan.js';
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
    const a = buildPlan(parseConfig('experiment: x\nkind: sequential-audit\nseed: 1\nsettings: {budget: 10, pool: {synthetic: {decisionRate: [0.3, 0.2], size: 100}}}\ngrid: {tolerance: [0.02, 0.05], access: [decision, score]}\n', 'a.yaml'), kind);
    const b = buildPlan(parseConfig('grid: {access: [decision, score], tolerance: [0.02, 0.05]}\nsettings: {pool: {synthetic: {size: 100, decisionRate: [0.3, 0.2]}}, budget: 10}\nseed: 1\nkind: sequential-audit\nexperiment: x\n', 'b.yaml'), kind);
    const c = buildPlan(parseConfig('experiment: x\nkind: sequential-audit\nseed: 2\nsettings: {budget: 10, pool: {synthetic: {decisionRate: [0.3, 0.2], size: 100}}}\ngrid: {tolerance: [0.02, 0.05], access: [decision, score]}\n', 'c.yaml'), kind);
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
    for (const bad of ['0/4', '5/4', '1/0', 'a/b', '2', '']) expect(() => parseShard(bad)).toThrow('--shard: expected i/n');
  });
});

describe('buildPlan(config, kind) with recorded settings and null grid values', () => {
  const base = 'experiment: x\nkind: sequential-audit\nseed: 1\nsettings: {budget: 10, pool: {synthetic: {decisionRate: [0.3, 0.2], size: 100}}}\n';

  it('records test, thresholds and order as columns only when a cell sets them, and leaves the cell keys alone', () => {
    const plain = buildPlan(parseConfig(`${base}grid: {access: [decision, score]}\n`, 'a.yaml'), kind);
    expect(plain.gridColumns.map((column) => column.column)).toEqual(['access']);
    const set = buildPlan(parseConfig(`${base.replace('budget: 10,', 'budget: 10, test: betting, order: balanced,')}grid: {access: [decision, score]}\n`, 'b.yaml'), kind);
    expect(set.gridColumns).toEqual([
      { key: 'access', column: 'access', type: 'utf8' },
      { key: 'test', column: 'test', type: 'utf8', recorded: true },
      { key: 'order', column: 'order', type: 'utf8', recorded: true },
    ]);
    expect(set.cells.map((cell) => cell.key)).toEqual(plain.cells.map((cell) => cell.key));
    expect(set.cells[0].columns).toEqual({ access: 'decision', test: 'betting', order: 'balanced' });
    const given = buildPlan(parseConfig(`${base.replace('budget: 10,', 'budget: 10, thresholds: {upper: 5, lower: -2},')}`, 'c.yaml'), kind);
    expect(given.cells[0].columns).toEqual({ thresholds: '{"lower":-2,"upper":5}' });
  });

  it('a null in the grid leaves an optional setting absent (a number column records NaN)', () => {
    const oc = findKindRunner('operating-characteristic')!;
    const plan = buildPlan(parseConfig('experiment: x\nkind: operating-characteristic\nseed: 1\nsettings: {budget: 10, pool: {synthetic: {decisionRate: [0.3, 0.2], size: 100}}}\ngrid: {gap: [null, 0.02]}\n', 'd.yaml'), oc);
    expect(plan.cells.map((cell) => cell.key)).toEqual(['{"gap":null}', '{"gap":0.02}']);
    expect(plan.cells[0].columns.gap).toBeNaN();
    expect(plan.cells[0].settings.gap).toBeUndefined();
  });
});
