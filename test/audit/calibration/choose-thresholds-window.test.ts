import { describe, expect, it } from 'vitest';
import { runTuningChunk } from '../../../src/audit/calibration/calibration-chunks.js';
import { pilotChunks, planCalibration } from '../../../src/audit/calibration/calibration-plan.js';
import {
  chooseThresholds,
  chooseThresholdsInWindow,
  pilotWindow,
} from '../../../src/audit/calibration/choose-thresholds.js';
import {
  emptyPathCounts,
  mergePathCounts,
  type ThresholdPathCounts,
  type TuningWindow,
} from '../../../src/audit/calibration/threshold-paths.js';

const setting = {
  access: 'decision' as const,
  countA: 600,
  countB: 400,
  tolerance: 0.1,
  budget: 300,
  minimumPerGroup: 1,
  order: 'random' as const,
  alpha: 0.1,
  beta: 0.2,
};
const plan = planCalibration(setting, { seed: 'window', paths: 1500, baseRates: [0, 0.3, 0.6, 1] });

function tuned(chunks: typeof plan.chunks, window?: TuningWindow): ThresholdPathCounts[] {
  const tuning = plan.cells.map((cell) =>
    emptyPathCounts(plan.grid, cell.role !== 'alternative', cell.role !== 'null'),
  );
  for (const chunk of chunks)
    for (const [offset, counts] of runTuningChunk(plan, chunk, window).entries())
      mergePathCounts(tuning[chunk.cell + offset], counts);
  return tuning;
}

describe('chooseThresholdsInWindow(plan, tuning, window)', () => {
  const full = chooseThresholds(plan, tuned(plan.chunks));

  it('gives chooseThresholds’ choice on the whole grid when the pilot window holds it', () => {
    const window = pilotWindow(plan, tuned(pilotChunks(plan)));
    expect(window.upperStart + window.lowerStart).toBeGreaterThan(0);
    expect(chooseThresholdsInWindow(plan, tuned(plan.chunks, window), window)).toEqual(full);
  });

  it('refuses a window that starts beyond the choice (null), so the caller tunes on the whole grid', () => {
    const window = { upperStart: full.upperIndex, lowerStart: full.lowerIndex };
    expect(chooseThresholdsInWindow(plan, tuned(plan.chunks, window), window)).toBeNull();
  });
});
