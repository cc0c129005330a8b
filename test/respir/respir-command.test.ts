import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';

let printed: string[] = [];
let errors: string[] = [];

beforeEach(() => {
  printed = [];
  errors = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    printed.push(String(chunk));
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    errors.push(String(chunk));
    return true;
  });
  process.exitCode = undefined;
});

afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

const ccdGender = ['respir', 'bounds', '--candidates', '13500', '--audit', '6750', '--candidates-min', '5350', '--audit-min', '2675', '--gap', '0.028'];

describe('fairaudit respir bounds', () => {
  it('prints the issue\'s JSON shape: vanilla {flips, detection}, respir {flips, bestEffort, detection}', async () => {
    const code = await main([...ccdGender, '--hide-fraction', '0.5', '--pass-probability', '0.8', '--canaries', '5,50', '--json']);
    expect(code).toBe(0);
    const json = JSON.parse(printed.join(''));
    expect(Object.keys(json)).toEqual(['vanilla', 'respir']);
    expect(Object.keys(json.vanilla)).toEqual(['flips', 'detection']);
    expect(Object.keys(json.respir)).toEqual(['flips', 'bestEffort', 'detection']);
    // paper B Table 2, CCD gender: vanilla ⌈0.014·2675⌉ = 38, respir best effort ⌈0.028·5350⌉ = 150
    expect(json.vanilla.flips).toBe(38);
    expect(json.respir).toMatchObject({ flips: 150, bestEffort: true });
    expect(Object.keys(json.respir.detection)).toEqual(['5', '50']);
  });
  it('exits 2 naming the flag for bad input', async () => {
    expect(await main([...ccdGender, '--tolerance', '0.01', '--hide-fraction', '0.5', '--pass-probability', '0.8'])).toBe(2);
    expect(errors.join('')).toMatch(/--tolerance\/--hide-fraction/);
    errors = [];
    expect(await main([...ccdGender, '--tolerance', '0.01', '--pass-probability', '1.5'])).toBe(2);
    expect(errors.join('')).toMatch(/--pass-probability/);
    errors = [];
    expect(await main([...ccdGender, '--tolerance', '0.01', '--pass-probability', '0.8', '--canaries', '5,x'])).toBe(2);
    expect(errors.join('')).toMatch(/--canaries/);
  });
});

describe('fairaudit respir table3', () => {
  it('prints the seven Table 3 rows computed from the published Table 2', async () => {
    expect(await main(['respir', 'table3', '--json'])).toBe(0);
    const rows = JSON.parse(printed.join(''));
    expect(rows).toHaveLength(7);
    expect(rows[5]).toMatchObject({ dataset: 'COMPAS', attribute: 'race', vanilla_flips: 39, respir_flips: 156 });
  });
});
