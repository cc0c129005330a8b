import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFromObject, loadConfig } from '../../src/harness/config.js';
import type { KindRunner } from '../../src/harness/kind-runner.js';
import { findKindRunner } from '../../src/harness/kind-runners.js';
import { buildPlan } from '../../src/harness/plan.js';
import { ignoredAxes } from '../../src/harness/plan-estimate.js';
import { packageRoot } from '../../src/util/paths.js';

const sweep = join(packageRoot(), 'configs', 'sweeps', 'linked-tolerances.yaml');
const kind = findKindRunner('sequential-audit') as KindRunner;
const pool = {
  name: 'p',
  synthetic: {
    size: 2000,
    groupShare: 0.4,
    labelRate: [0.45, 0.4],
    decisionRate: [0.42, 0.3],
    truePositiveRate: [0.8, 0.7],
    seed: 2,
  },
};
const base = { experiment: 'x', kind: 'sequential-audit', seed: 1, replicates: 2, settings: { pool } };

describe('grid.zip: linked axes', () => {
  it('loadConfig(linked-tolerances.yaml) has 3 zipped tolerance levels × 3 access regimes = 9 cells, not 81', () => {
    const config = loadConfig(sweep);
    expect(config.cellCount).toBe(9);
    const settings = config.cells.map((cell) => [
      cell.settings.access,
      cell.settings.tolerance,
      cell.settings.scoreTolerance,
      cell.settings.logitTolerance,
    ]);
    expect(settings.slice(0, 3)).toEqual([
      ['decision', 0.02, 0.02, 0.1],
      ['decision', 0.05, 0.05, 0.2],
      ['decision', 0.1, 0.1, 0.4],
    ]);
    // Each linked setting is a coordinate and a results column of its own.
    expect(config.cells[4].coordinates).toEqual({
      access: 'score',
      tolerance: 0.05,
      scoreTolerance: 0.05,
      logitTolerance: 0.2,
    });
    expect(buildPlan(config, kind).gridColumns.map((column) => column.column)).toEqual([
      'access',
      'logitTolerance',
      'scoreTolerance',
      'tolerance',
    ]);
  });

  it(
    'a linked axis gives the same cells, keys and fingerprint-relevant settings as the grid it replaces when ' +
      'that grid has one value per setting',
    () => {
      const zipped = configFromObject(
        { ...base, grid: { zip: [{ tolerance: 0.03, scoreTolerance: 0.04 }] } },
        'zipped',
      );
      const plain = configFromObject({ ...base, grid: { tolerance: [0.03], scoreTolerance: [0.04] } }, 'plain');
      expect(buildPlan(zipped, kind).cellAt(0).key).toBe(buildPlan(plain, kind).cellAt(0).key);
      expect(zipped.cellAt(0).settings).toEqual(plain.cellAt(0).settings);
    },
  );

  it(
    'configFromObject refuses zip items with other keys, unknown settings, repeats, and a setting on two axes, ' +
      'naming where',
    () => {
      const load = (grid: Record<string, unknown>) => () => configFromObject({ ...base, grid }, 'bad.yaml');
      expect(load({ zip: [{ tolerance: 0.02 }, { scoreTolerance: 0.02 }] })).toThrow(
        /grid\.zip\[1\]: expected the same keys as item 0 \(tolerance\), found "?scoreTolerance/,
      );
      expect(load({ zip: [{ tolerence: 0.02 }] })).toThrow(
        /grid\.zip\[0\]\.tolerence: expected a setting of kind sequential-audit \(did you mean "tolerance"\?\)/,
      );
      expect(load({ zip: [{ tolerance: 0.02 }, { tolerance: 0.02 }] })).toThrow(
        /grid\.zip\[1\]: expected values different/,
      );
      expect(load({ zip: [{ tolerance: 0.02 }], tolerance: [0.05] })).toThrow(/each setting varied by one axis only/);
      expect(load({ zip: [] })).toThrow(/grid\.zip: expected a non-empty list of mappings/);
      expect(load({ zip: [{ tolerance: -1 }] })).toThrow(/grid\.zip\[0\]\.tolerance/);
    },
  );

  it(
    'ignoredAxes(config, kind) flags grid.tolerance on score and logit cells, and not a zip that links each ' +
      'regime to its tolerance',
    () => {
      const cartesian = configFromObject(
        { ...base, grid: { tolerance: [0.02, 0.05], access: ['decision', 'score', 'logit'] } },
        'c',
      );
      const [ignored] = ignoredAxes(cartesian, kind);
      expect(ignored).toMatchObject({ setting: 'tolerance', axis: 'tolerance', cells: 4, of: 6 });
      expect(ignored.why).toMatch(/score access tests against scoreTolerance/);
      expect(ignoredAxes(loadConfig(sweep), kind)).toEqual([]);
    },
  );
});
