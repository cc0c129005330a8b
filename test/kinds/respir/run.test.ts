import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/harness/config.js';
import { findKindRunner } from '../../../src/harness/kind-runners.js';
import { buildPlan } from '../../../src/harness/plan.js';
import { respirMinimalFlipsRunner, respirRunner } from '../../../src/kinds/respir/run.js';
import { InputError } from '../../../src/util/errors.js';
import { createRandom } from '../../../src/util/random.js';

const origin = { configFile: 'test.yaml', baseDirectory: tmpdir() };
const folder = mkdtempSync(join(tmpdir(), 'fairaudit-respir-kind-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function configText(settings: string): string {
  return `experiment: respir-test\nkind: respir\nseed: 1\nreplicates: 10\nsettings:\n${settings}`;
}

const synthetic = `  candidates: { synthetic: { size: 2000, minorityShare: 0.1, positiveRates: [0.2, 0.75] } }
  auditSetSize: 400
  passProbability: 0.95
`;

describe('respirRunner through the runner registry', () => {
  it('is registered and its settings validate and plan', () => {
    expect(findKindRunner('respir')).toBe(respirRunner);
    expect(findKindRunner('respir-minimal-flips')).toBe(respirMinimalFlipsRunner);
    const config = parseConfig(configText(`${synthetic}  tolerance: 0.5\n`), 'test.yaml');
    expect(buildPlan(config, respirRunner).cells).toHaveLength(1);
  });
  it('rejects both or neither of tolerance and hideFraction, naming the key', () => {
    expect(() => parseConfig(configText(`${synthetic}  tolerance: 0.5\n  hideFraction: 0.5\n`), 'test.yaml')).toThrow(
      InputError,
    );
    expect(() => parseConfig(configText(synthetic), 'test.yaml')).toThrow(/tolerance/);
    expect(() => parseConfig(configText(`${synthetic.replace('400', '4000')}  tolerance: 0.5\n`), 'test.yaml')).toThrow(
      /auditSetSize/,
    );
  });
});

describe('respirRunner.prepare(settings, origin) and runReplicate(context, settings, random)', () => {
  const resolved = (extra: Record<string, unknown>) => {
    const config = parseConfig(configText(`${synthetic}  tolerance: 0.5\n`), 'test.yaml');
    return { ...buildPlan(config, respirRunner).cells[0].settings, ...extra } as never;
  };
  it(
    'fills every outcome column, with the cell bounds of Figure 1 (10% minority: Theorem 1 asks 104 ' + 'flips)',
    async () => {
      const cell = resolved({});
      const context = await respirRunner.prepare(cell, origin);
      const row = respirRunner.runReplicate(context, cell, createRandom('r'));
      for (const column of respirRunner.outcomeColumns) expect(row[column.name], column.name).toBeDefined();
      // C: N₁ = 200 at rate 0.75, N₀ = 1800 at rate 0.2: d_C = 0.55; ε = 0.5; E[n_min] = 40, γ = 0.468
      // Theorem 1: ⌈(0.55 − 0.5 + 0.468)·200⌉ = ⌈103.6⌉ = 104 (python3:
      // math.ceil((0.05+math.sqrt(2*math.log(80)/40))*200))
      expect(row.theorem1_flips).toBe(104);
      expect(row.candidate_gap).toBeCloseTo(0.55, 12);
      expect(row.flips).toBe(104);
      expect(row.best_effort).toBe(0);
    },
  );
  it('gives each replicate the same row whatever order replicates run in (both samplers)', async () => {
    for (const sampler of ['counts', 'indices']) {
      const cell = resolved({ sampler });
      const context = await respirRunner.prepare(cell, origin);
      const seeds = ['a', 'b', 'c', 'd'];
      const forward = seeds.map((seed) => respirRunner.runReplicate(context, cell, createRandom(seed)));
      const backward = [...seeds].reverse().map((seed) => respirRunner.runReplicate(context, cell, createRandom(seed)));
      expect(backward.reverse()).toEqual(forward);
    }
  });
  it('reads a pool file as C and audits equal opportunity on its label = 1 rows', async () => {
    const rows = ['group,label,decision'];
    for (let i = 0; i < 100; i++)
      rows.push(`${i < 40 ? 1 : 0},${i % 2},${i % 4 === 1 || (i < 40 && i % 2 === 1) ? 1 : 0}`);
    const file = join(folder, 'pool.csv');
    writeFileSync(file, `${rows.join('\n')}\n`);
    const cell = resolved({ candidates: { file }, metric: 'eo', auditSetSize: 50, tolerance: 0.1 });
    const context = await respirRunner.prepare(cell, origin);
    // label = 1 rows: 20 in group 1 (all decision 1), 30 in group 0 (odd i ≥ 40 with i % 4 = 1: 15 of them)
    expect(context.facts.population.eligibleSizes).toEqual([30, 20]);
    expect(context.facts.population.eligiblePositives).toEqual([15, 20]);
    expect(context.facts.candidateGap).toBeCloseTo(0.5, 12);
  });
  it('throws InputError for a missing pool file', async () => {
    const cell = resolved({ candidates: { file: join(folder, 'absent.csv') } });
    await expect(respirRunner.prepare(cell, origin)).rejects.toThrow(InputError);
  });
});

describe('respirMinimalFlipsRunner.runReplicate(facts, settings, random)', () => {
  it('finds fewer flips than Theorem 1 asks, passing at 1 − δ', async () => {
    const config = parseConfig(
      `experiment: m\nkind: respir-minimal-flips\nseed: 1\nreplicates: 1\nsettings:\n${synthetic}  tolerance: ` +
        `0.5\n  drawsPerStep: 500\n`,
      'test.yaml',
    );
    const cell = buildPlan(config, respirMinimalFlipsRunner).cells[0].settings as never;
    const facts = await respirMinimalFlipsRunner.prepare(cell, origin);
    const row = respirMinimalFlipsRunner.runReplicate(facts, cell, createRandom('m'));
    expect(row.minimal_flips).toBeGreaterThan(0);
    expect(row.minimal_flips).toBeLessThan(Number(row.theorem1_flips));
    expect(row.minimal_flips_pass_rate).toBeGreaterThanOrEqual(0.95);
    // The exact minimum (certified, strongest adversary) sits below Theorem 1's sufficient
    // count and within the bisection's Monte Carlo error of its estimate (500 draws per step:
    // a pass-rate SE of about 0.01, a few flips at this slope).
    expect(row.exact_minimal_flips_certified).toBe(1);
    expect(Number(row.exact_minimal_flips)).toBeGreaterThan(0);
    expect(Number(row.exact_minimal_flips)).toBeLessThan(Number(row.theorem1_flips));
    expect(Math.abs(Number(row.exact_minimal_flips) - Number(row.minimal_flips))).toBeLessThanOrEqual(6);
  });
});
