import { describe, expect, it } from 'vitest';
import { calibrateMultiGroupThresholds } from '../../../src/audit/calibration/multi-group-calibration.js';
import {
  configurationGap,
  multiGroupConfigurations,
} from '../../../src/audit/calibration/multi-group-configurations.js';
import { createMultiGroupTest } from '../../../src/audit/create-multi-group-test.js';
import { REJECT } from '../../../src/stats/sequential-test.js';
import { InputError } from '../../../src/util/errors.js';
import { createRandom, shuffleInPlace } from '../../../src/util/random.js';

describe('multiGroupConfigurations(groupSizes, tolerance, bottoms)', () => {
  it('lays out compliant configurations within the tolerance and violating ones just beyond it', () => {
    const sizes = [40, 300, 200, 460];
    const cells = multiGroupConfigurations(sizes, 0.1, [0.02, 0.45, 0.88]);
    expect(cells.filter((c) => c.role === 'null').length).toBeGreaterThanOrEqual(12);
    expect(cells.filter((c) => c.role === 'alternative').length).toBeGreaterThanOrEqual(12);
    for (const cell of cells) {
      const gap = configurationGap(sizes, cell.positives)[2];
      if (cell.role === 'null') expect(gap).toBeLessThanOrEqual(0.1 + 1e-12);
      else {
        expect(gap).toBeGreaterThan(0.1);
        expect(gap).toBeLessThanOrEqual(0.1 + 1 / 40 + 1 / 40 + 1e-12);
      }
    }
  });
});

describe('calibrateMultiGroupThresholds(setting, options)', () => {
  const setting = {
    groupSizes: [300, 200, 40],
    tolerance: 0.1,
    budget: 540,
    minimumPerGroup: 1,
    alpha: 0.2,
    beta: 0.3,
  };
  it('certifies thresholds under which fresh audits of the worst simulated configuration stay within alpha', () => {
    const result = calibrateMultiGroupThresholds(setting, { seed: 'calibration test', paths: 300, bottoms: [0.45] });
    expect(result.upper).toBeGreaterThan(0);
    expect(result.lower).toBeLessThan(0);
    expect(result.certification.errors.length).toBe(result.configurations.length);
    // Fresh audits, another seed, of the configuration the certificate found worst.
    const worst = result.certification.errors.filter((e) => e.error === 'reject').sort((a, b) => b.rate - a.rate)[0];
    const cell = result.configurations.find((c) => c.key === worst.cell);
    if (cell === undefined) throw new Error('worst configuration not found');
    const { test } = createMultiGroupTest({
      groupSizes: setting.groupSizes,
      test: 'calibrated-glr',
      access: 'decision',
      aggregation: 'difference',
      tolerance: 0.1,
      alpha: 0.2,
      beta: 0.3,
      thresholds: result,
    });
    const rows: Array<[number, number]> = [];
    setting.groupSizes.forEach((n, g) => {
      for (let r = 0; r < n; r++) rows.push([g, r < cell.positives[g] ? 1 : 0]);
    });
    const random = createRandom('fresh audits');
    let rejections = 0;
    for (let audit = 0; audit < 300; audit++) {
      shuffleInPlace(random, rows);
      test.reset();
      for (const [g, v] of rows) {
        test.add(g, v);
        if (test.verdict !== 0) break;
      }
      if (test.verdict === REJECT) rejections++;
    }
    expect(rejections / 300).toBeLessThanOrEqual(0.2 + 3 * Math.sqrt((0.2 * 0.8) / 300));
  }, 120_000);
  it('throws InputError naming the key for a bad setting', () => {
    expect(() => calibrateMultiGroupThresholds({ ...setting, groupSizes: [5] }, { seed: 's' })).toThrow(/groupSizes/);
    expect(() => calibrateMultiGroupThresholds({ ...setting, budget: 0 }, { seed: 's' })).toThrow(/budget/);
    expect(() => calibrateMultiGroupThresholds({ ...setting, alpha: 2 }, { seed: 's' })).toThrow(InputError);
  });
});
