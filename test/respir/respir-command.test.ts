import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/cli.js';

const ccdGender = [
  'respir',
  'bounds',
  '--candidates',
  '13500',
  '--audit',
  '6750',
  '--candidates-min',
  '5350',
  '--audit-min',
  '2675',
  '--gap',
  '0.028',
];

describe('fairaudit respir bounds', () => {
  it("prints the issue's JSON shape: vanilla {flips, detection}, respir {flips, bestEffort, detection}", async () => {
    const { code, stdout } = await runCliInProcess([
      ...ccdGender,
      '--hide-fraction',
      '0.5',
      '--pass-probability',
      '0.8',
      '--canaries',
      '5,50',
      '--json',
      '--no-exact',
    ]);
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
  it(
    'adds exactMinimum: the fewest flips passing with probability ≥ 1 − δ beside the bounds (CCD gender, ' +
      'minority rate 0.137)',
    async () => {
      const { code, stdout } = await runCliInProcess([
        ...ccdGender,
        '--hide-fraction',
        '0.5',
        '--pass-probability',
        '0.8',
        '--canaries',
        '5,50',
        '--minority-rate',
        '0.137',
        '--json',
      ]);
      expect(code).toBe(0);
      const json = JSON.parse(stdout);
      expect(Object.keys(json)).toEqual(['vanilla', 'respir', 'exactMinimum']);
      // Counts: round(0.137·5350) = 733 and round(0.109·8150) = 888 positives, ε = 0.014.
      expect(json.exactMinimum.assumptions).toMatchObject({ design: 'uniform', candidatePositives: [888, 733] });
      // SciPy, the same hypergeometric sums (full windows): lowering the smaller group's positives
      // by 101 passes with 0.8054, by 100 with 0.7960 (python3, scipy.stats.hypergeom; D = ⌊0.014·n₀n₁⌋).
      expect(json.exactMinimum.respir).toMatchObject({
        flips: 101,
        exact: true,
        positivesAfter: [888, 632],
        changes: [0, -101],
      });
      expect(json.exactMinimum.respir.passProbability).toBeCloseTo(0.805429373668825, 9);
      // Vanilla on S's counts (444 and 366 positives of 4075 and 2675): Proposition 1's 38 is attained.
      expect(json.exactMinimum.vanilla.flips).toBe(38);
      // Below paper B's 150 (Theorem 1, best effort), so detection is lower: Eq. 3 with 101 flips over N.
      expect(json.exactMinimum.respir.detection['50']).toBeCloseTo(1 - (1 - (0.8 * 101) / 13_500) ** 50, 12);
      expect(json.respir.flips).toBe(150);
    },
  );
  it(
    'prints the exact minimum beside Proposition 1 and Theorems 1 and 4, worded as sufficient ' + 'conditions',
    async () => {
      const { code, stdout } = await runCliInProcess([
        ...ccdGender,
        '--hide-fraction',
        '0.5',
        '--pass-probability',
        '0.8',
      ]);
      expect(code).toBe(0);
      // Rates centred on ½ by default (0.514 and 0.486): SciPy gives 0.8032 at 117 flips, 0.7981 at 116.
      expect(stdout).toMatch(/respir exact minimum \(uniform S\)\s+117 /);
      expect(stdout).toMatch(/respir \(Thm\. 1, sufficient\) best effort\s+150 /);
      expect(stdout).toMatch(/sufficient to pass with probability ≥ 1 − δ, not what a provider needs/);
    },
  );
  it('needs 0 flips when |d| ≤ ε, for the bounds and the exact minimum', async () => {
    const { code, stdout } = await runCliInProcess([
      ...ccdGender,
      '--tolerance',
      '0.03',
      '--pass-probability',
      '0.8',
      '--json',
    ]);
    expect(code).toBe(0);
    const json = JSON.parse(stdout);
    expect(json.respir).toMatchObject({ flips: 0, bestEffort: false });
    expect(json.vanilla.flips).toBe(0);
    expect(json.exactMinimum.respir).toMatchObject({ flips: 0, withinTolerance: true });
  });
  it('exits 2 naming --pass-probability when δ > ½ (Theorems 1 and 3 assume δ ≤ ½)', async () => {
    const result = await runCliInProcess([...ccdGender, '--tolerance', '0.01', '--pass-probability', '0.4']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(
        String.raw`--pass-probability: expected a pass probability 1 − δ from 0.5 to below 1 \(Theorems 1 ` +
          String.raw`and 3 assume δ ≤ ½\), found 0.4`,
      ),
    );
    const rate = await runCliInProcess([
      ...ccdGender,
      '--tolerance',
      '0.01',
      '--pass-probability',
      '0.8',
      '--minority-rate',
      '1.5',
    ]);
    expect(rate.code).toBe(2);
    expect(rate.stderr).toMatch(/--minority-rate/);
  });
  it('exits 2 naming the flag for bad input', async () => {
    const both = await runCliInProcess([
      ...ccdGender,
      '--tolerance',
      '0.01',
      '--hide-fraction',
      '0.5',
      '--pass-probability',
      '0.8',
    ]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--tolerance\/--hide-fraction/);
    const probability = await runCliInProcess([...ccdGender, '--tolerance', '0.01', '--pass-probability', '1.5']);
    expect(probability.code).toBe(2);
    expect(probability.stderr).toMatch(/--pass-probability/);
    const canaries = await runCliInProcess([
      ...ccdGender,
      '--tolerance',
      '0.01',
      '--pass-probability',
      '0.8',
      '--canaries',
      '5,x',
    ]);
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
