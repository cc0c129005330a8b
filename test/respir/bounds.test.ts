import { describe, expect, it } from 'vitest';
import {
  finitePopulationFactor,
  finitePopulationMargin,
  hoeffdingMargin,
} from '../../src/respir/concentration-margin.js';
import { detectionProbability } from '../../src/respir/detection-probability.js';
import { equalOpportunityFlipBound } from '../../src/respir/equal-opportunity-flip-bound.js';
import { finitePopulationFlipBound } from '../../src/respir/finite-population-flip-bound.js';
import { ceilFlipCount } from '../../src/respir/flip-count.js';
import { manipulationBounds } from '../../src/respir/manipulation-bounds.js';
import { respirFlipBound } from '../../src/respir/respir-flip-bound.js';
import { vanillaFlipBound } from '../../src/respir/vanilla-flip-bound.js';
import { InputError } from '../../src/util/errors.js';

describe('vanillaFlipBound(gap, tolerance, auditMinoritySize)', () => {
  it('takes 2 flips to hide a 0.01 gap on a balanced 400-row audit set (paper B §3.2 example)', () => {
    expect(vanillaFlipBound(0.03, 0.02, 200)).toBe(2);
    expect(vanillaFlipBound(0.05, 0.04, 200)).toBe(2); // (0.05 − 0.04)·200 is 2.0000000000000018 in doubles
  });
  it('is 0 when the gap is already within the tolerance, and ignores the gap sign', () => {
    expect(vanillaFlipBound(0.01, 0.02, 200)).toBe(0);
    expect(vanillaFlipBound(-0.03, 0.02, 200)).toBe(2);
  });
  it('rounds up: (0.028 − 0.014)·2675 = 37.45 gives 38 (paper B Table 2, CCD gender)', () => {
    expect(vanillaFlipBound(0.028, 0.014, 2675)).toBe(38);
  });
});

describe('ceilFlipCount(value)', () => {
  it('rounds up, guards float noise, and maps non-positive and NaN to 0', () => {
    expect(ceilFlipCount(1.0000001)).toBe(2);
    expect(ceilFlipCount(2.0000000000000018)).toBe(2);
    expect(ceilFlipCount(0)).toBe(0);
    expect(ceilFlipCount(-3)).toBe(0);
    expect(ceilFlipCount(Number.NaN)).toBe(0);
  });
});

describe('hoeffdingMargin(failureProbability, auditMinoritySize)', () => {
  it('is sqrt(2 ln(4/δ)/n_min) (paper B Theorem 2): δ = 0.05, n_min = 200 gives 0.2093329079402921', () => {
    // python3: math.sqrt(2*math.log(80)/200)
    expect(hoeffdingMargin(0.05, 200)).toBeCloseTo(0.2093329079402921, 14);
  });
  it('is at most δ-failure by construction: 4·exp(−γ²·n_min/2) = δ', () => {
    const gamma = hoeffdingMargin(0.2, 473);
    expect(4 * Math.exp((-gamma * gamma * 473) / 2)).toBeCloseTo(0.2, 12);
  });
});

describe('respirFlipBound(gap, tolerance, failureProbability, auditMinoritySize, candidateMinoritySize)', () => {
  it(
    'is ⌈(|d| − ε + γ)·N_min⌉ (paper B Eq. 4): d = 0.5, ε = 0.4, δ = 0.05, n_min = 200, N_min = 1000 gives ' + '310',
    () => {
      // (0.1 + 0.2093329079402921)·1000 = 309.33 (python3, as above)
      const result = respirFlipBound(0.5, 0.4, 0.05, 200, 1000);
      expect(result).toMatchObject({ flips: 310, bestEffort: false });
      expect(result.targetGap).toBeCloseTo(0.4 - 0.2093329079402921, 14);
    },
  );
  it('reports best effort ⌈|d|·N_min⌉ when ε < γ (paper B §5): CCD gender gives 150 = ⌈0.028·5350⌉', () => {
    expect(respirFlipBound(0.028, 0.014, 0.2, 2675, 5350)).toMatchObject({
      flips: 150,
      bestEffort: true,
      targetGap: 0,
    });
  });
  it('asks for no flips when the gap already sits below ε − γ', () => {
    expect(respirFlipBound(0.1, 0.5, 0.05, 200, 1000).flips).toBe(0);
  });
  it('exceeds the vanilla count on the same audit set whenever N_min > n_min', () => {
    expect(respirFlipBound(0.5, 0.4, 0.05, 200, 1000).flips).toBeGreaterThan(vanillaFlipBound(0.5, 0.4, 200));
  });
});

describe('finitePopulationFactor(auditSetSize, populationSize)', () => {
  it('follows both branches of paper B Appendix D', () => {
    expect(finitePopulationFactor(200, 1000)).toBeCloseTo(1 - 199 / 1000, 15);
    expect(finitePopulationFactor(800, 1000)).toBeCloseTo((1 - 0.8) * (1 + 1 / 800), 15);
  });
});

describe('finitePopulationMargin(failureProbability, sizes)', () => {
  it('matches the hand computation and never exceeds the Hoeffding margin', () => {
    // python3: sqrt(rho(200,1000)*log(80)/400)*2 = 0.1873500289397837
    const balanced = finitePopulationMargin(0.05, { auditGroupSizes: [200, 200], candidateGroupSizes: [1000, 1000] });
    expect(balanced).toBeCloseTo(0.1873500289397837, 14);
    expect(balanced).toBeLessThanOrEqual(hoeffdingMargin(0.05, 200));
    // python3: sqrt(rho(40,200)*L/80) + sqrt(rho(360,1800)*L/720) = 0.2797879144470834
    const unbalanced = finitePopulationMargin(0.05, { auditGroupSizes: [40, 360], candidateGroupSizes: [200, 1800] });
    expect(unbalanced).toBeCloseTo(0.2797879144470834, 14);
    // more than half of each group sampled: the second branch, 0.09892544797705899
    const large = finitePopulationMargin(0.05, { auditGroupSizes: [150, 250], candidateGroupSizes: [200, 300] });
    expect(large).toBeCloseTo(0.09892544797705899, 14);
  });
});

describe('finitePopulationFlipBound(gap, tolerance, failureProbability, sizes)', () => {
  it('is ⌈(|d| − ε + γ_FPC)·N_min⌉ (paper B Theorem 4): 288 where Theorem 1 asks 310', () => {
    const sizes = { auditGroupSizes: [200, 200] as const, candidateGroupSizes: [1000, 1000] as const };
    expect(finitePopulationFlipBound(0.5, 0.4, 0.05, sizes)).toMatchObject({ flips: 288, bestEffort: false });
  });
});

describe('equalOpportunityFlipBound(gap, tolerance, failureProbability, n⁺_min, N⁺_min)', () => {
  it('is Theorem 1 on the label = 1 strata (paper B Theorem 3)', () => {
    expect(equalOpportunityFlipBound(0.5, 0.4, 0.05, 200, 1000)).toMatchObject({ flips: 310, bestEffort: false });
    expect(equalOpportunityFlipBound(0.3, 0.1, 0.05, 50, 400)).toMatchObject({ flips: 120, bestEffort: true });
  });
});

describe('detectionProbability(flips, setSize, canaryEffectiveness, canaries)', () => {
  it('is 1 − (1 − q·m/n)^k (paper B Eq. 3)', () => {
    // python3: 1-(1-0.8*38/6750)**5
    expect(detectionProbability(38, 6750, 0.8, 5)).toBeCloseTo(0.022316596494645236, 14);
    expect(detectionProbability(150, 13500, 0.8, 50)).toBeCloseTo(0.36009243146014314, 14);
  });
  it('is 0 with no flips or no canaries, and caps the modified share at 1', () => {
    expect(detectionProbability(0, 100, 0.8, 10)).toBe(0);
    expect(detectionProbability(10, 100, 0.8, 0)).toBe(0);
    expect(detectionProbability(500, 100, 1, 1)).toBe(1);
  });
});

describe('manipulationBounds(setting)', () => {
  const ccdGender = {
    candidateSetSize: 13500,
    auditSetSize: 6750,
    candidateMinoritySize: 5350,
    auditMinoritySize: 2675,
    gap: 0.028,
    tolerance: 0.014,
    passProbability: 0.8,
    canaryEffectiveness: 0.8,
    canaryCounts: [5, 10, 20, 50],
  };
  it('gives paper B Table 3 for CCD gender from the Table 2 cells (vanilla 38, respir 150 best effort)', () => {
    const result = manipulationBounds(ccdGender);
    expect(result.vanilla.flips).toBe(38);
    expect(result.respir).toMatchObject({ flips: 150, bestEffort: true });
    expect(Object.keys(result.vanilla.detection)).toEqual(['5', '10', '20', '50']);
    expect(result.vanilla.detection['5']).toBeCloseTo(0.022316596494645236, 14);
    expect(result.respir.detection['50']).toBeCloseTo(0.36009243146014314, 14);
  });
  it('throws InputError naming the setting for bad input', () => {
    expect(() => manipulationBounds({ ...ccdGender, passProbability: 1 })).toThrow(InputError);
    expect(() => manipulationBounds({ ...ccdGender, auditMinoritySize: 4000 })).toThrow(/auditMinoritySize/);
    expect(() => manipulationBounds({ ...ccdGender, candidateMinoritySize: 100 })).toThrow(/candidateMinoritySize/);
    expect(() => manipulationBounds({ ...ccdGender, gap: Number.NaN })).toThrow(/gap.*NaN/);
    expect(() => manipulationBounds({ ...ccdGender, canaryCounts: [2.5] })).toThrow(/canaryCounts/);
  });
});
