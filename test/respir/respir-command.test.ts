import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/cli.js';

const ccdGender = ['respir', 'bounds', '--candidates', '13500', '--audit', '6750', '--candidates-min', '5350', '--audit-min', '2675', '--gap', '0.028'];

describe('fairaudit respir bounds', () => {
  it('prints the issue\'s JSON shape: vanilla {flips, detection}, respir {flips, bestEffort, detection}', async () => {
    const { code, stdout } = await runCliInProcess([...ccdGender, '--hide-fraction', '0.5', '--pass-probability', '0.8', '--canaries', '5,50', '--json']);
    expect(code).toBe(0);
    const json = JSON.parse(stdout);
    expect(Object.keys(json)).toEqual(['vanilla', 'respir']);
    expect(Object.keys(json.vanilla)).toEqual(['flips', 'detection']);
    expect(Object.keys(json.respir)).toEqual(['flips', 'bestEffort', 'detection']);
    // paper B Table 2, CCD gender: vanilla ⌈0.014·2675⌉ = 38, respir best effort ⌈0.028·5350⌉ = 150
    expect(json.vanilla.flips).toBe(38);
    expect(json.respir).toMatchObject({ flips: 150, bestEffort: true });
    expect(Object.keys(json.respir.detection)).toEqual(['5', '50']);
  });
  it('exits 2 naming the flag for bad input', async () => {
    const both = await runCliInProcess([...ccdGender, '--tolerance', '0.01', '--hide-fraction', '0.5', '--pass-probability', '0.8']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--tolerance\/--hide-fraction/);
    const probability = await runCliInProcess([...ccdGender, '--tolerance', '0.01', '--pass-probability', '1.5']);
    expect(probability.code).toBe(2);
    expect(probability.stderr).toMatch(/--pass-probability/);
    const canaries = await runCliInProcess([...ccdGender, '--tolerance', '0.01', '--pass-probability', '0.8', '--canaries', '5,x']);
    expect(canaries.code).toBe(2);
    expect(canaries.stderr).toMatch(/--canaries/);
  });
});

describe('fairaudit respir table3', () => {
  it('prints the seven Table 3 rows computed from the published Table 2', async () => {
    const { code, stdout } = await runCliInProcess(['respir', 'table3', '--json']);
    expect(code).toBe(0);
    const rows = JSON.parse(stdout);
    expect(rows).toHaveLength(7);
    expect(rows[5]).toMatchObject({ dataset: 'COMPAS', attribute: 'race', vanilla_flips: 39, respir_flips: 156 });
  });
});
