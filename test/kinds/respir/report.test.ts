import { describe, expect, it } from 'vitest';
import { respirMinimalFlipsReporter, respirReporter } from '../../../src/kinds/respir/report.js';
import type { CellSummary } from '../../../src/report/cell-results.js';

const summary = {
  cell: '{"design":"uniform"}',
  settings: { design: 'uniform' },
  values: {
    pass_rate: 0.81,
    pass_rate_se: 0.01,
    pass_target: 0.8,
    detection: 0.3,
    detection_se: 0.02,
    eq3_respir: 0.31,
    vanilla_detection: 0.1,
    vanilla_detection_se: 0.005,
    eq3_vanilla: 0.12,
    minimal_flips_mean: 90,
    minimal_flips_mean_se: 1.5,
    exact_minimal_flips: 88,
    theorem4_flips: 100,
    theorem1_flips: 104,
    proposition1_flips: 38,
  },
} as unknown as CellSummary;

/** The bar data a chart spec carries (barChartSpec puts them in data.values). */
function bars(spec: Record<string, unknown>): Array<Record<string, unknown>> {
  return (spec.data as { values: Array<Record<string, unknown>> }).values;
}

describe('respirReporter.charts(summaries, varying, experiment)', () => {
  it('draws simulated rates with ±2 SE error bars and the guarantee and Eq. 3 without', () => {
    const [pass, detection] = respirReporter.charts?.([summary], ['design'], 'x') ?? [];
    const simulated = bars(pass.spec).find((bar) => bar.series === 'simulated pass rate');
    expect(simulated).toMatchObject({ category: 'uniform', value: 0.81 });
    expect(simulated?.lower).toBeCloseTo(0.79, 12);
    expect(simulated?.upper).toBeCloseTo(0.83, 12);
    const guarantee = bars(pass.spec).find((bar) => bar.series === '1 − δ (guarantee)');
    expect(guarantee?.value).toBe(0.8);
    expect(guarantee?.lower).toBeUndefined();
    const vanilla = bars(detection.spec).find((bar) => bar.series === 'vanilla simulated');
    expect(vanilla?.lower).toBeCloseTo(0.09, 12);
    expect(vanilla?.upper).toBeCloseTo(0.11, 12);
    expect(bars(detection.spec).find((bar) => bar.series === 'respir Eq. 3 (N)')?.upper).toBeUndefined();
  });
});

describe('respirMinimalFlipsReporter.charts(summaries, varying, experiment)', () => {
  it('draws the simulated minimum ±2 SE beside the exact minimum and the bounds', () => {
    const [flips] = respirMinimalFlipsReporter.charts?.([summary], ['design'], 'x') ?? [];
    const data = bars(flips.spec);
    expect(data.find((bar) => bar.series === 'simulated minimum')).toMatchObject({ value: 90, lower: 87, upper: 93 });
    expect(data.find((bar) => bar.series === 'exact minimum')).toMatchObject({ category: 'uniform', value: 88 });
    expect(data.find((bar) => bar.series === 'Theorem 1')).toMatchObject({ value: 104 });
    expect(data.find((bar) => bar.series === 'Proposition 1 (vanilla)')).toMatchObject({ value: 38 });
  });
});
