import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CALIBRATED_SYNTHETIC_NOTICE,
  calibratedCounts,
  calibratedPool,
  calibrationTarget,
  DATASET_COMPOSITIONS,
  PAPER_A_DATASETS,
  PAPER_A_MODELS,
} from '../../../papers/paper-a/calibrated-pools.js';
import type { AuditPool } from '../../../src/audit/pool.js';
import { packageRoot } from '../../../src/util/paths.js';
import { createRandom } from '../../../src/util/random.js';

interface PublishedCell {
  id: string;
  value: number | string;
}

/** Table 1's published gaps, read from papers/paper-a/published.json (itself from paper A Table 1). */
function publishedGap(dataset: string, model: string, metric: 'sp' | 'eo'): number {
  const file = JSON.parse(readFileSync(join(packageRoot(), 'papers/paper-a/published.json'), 'utf8')) as {
    cells: PublishedCell[];
  };
  const cell = file.cells.find((c) => c.id === `paper-a/table1/${dataset}/${model}/${metric}/gap`);
  if (!cell || typeof cell.value !== 'number')
    throw new Error(`no published Table 1 cell for ${dataset}/${model}/${metric}`);
  return cell.value;
}

function gaps(pool: AuditPool): { sp: number; eo: number; rows: number[]; positives: number[] } {
  const rows = [0, 0];
  const decided = [0, 0];
  const positives = [0, 0];
  const truePositives = [0, 0];
  for (let i = 0; i < pool.size; i++) {
    const g = pool.group[i];
    rows[g]++;
    decided[g] += pool.decision[i];
    if (pool.label[i] === 1) {
      positives[g]++;
      truePositives[g] += pool.decision[i];
    }
  }
  return {
    sp: Math.abs(decided[0] / rows[0] - decided[1] / rows[1]),
    eo: Math.abs(truePositives[0] / positives[0] - truePositives[1] / positives[1]),
    rows,
    positives,
  };
}

describe('calibratedPool(dataset, model)', () => {
  for (const dataset of PAPER_A_DATASETS) {
    for (const model of PAPER_A_MODELS) {
      it(`calibratedPool("${dataset}", "${model}") has paper A Table 1's SP and EO gaps up to one row`, () => {
        const pool = calibratedPool(dataset, model);
        const measured = gaps(pool);
        // One row of the smaller group moves a rate by 1 / (its size); half of that is the rounding bound.
        expect(Math.abs(measured.sp - publishedGap(dataset, model, 'sp'))).toBeLessThanOrEqual(
          0.5 / Math.min(...measured.rows),
        );
        expect(Math.abs(measured.eo - publishedGap(dataset, model, 'eo'))).toBeLessThanOrEqual(
          0.5 / Math.min(...measured.positives),
        );
        // And to the printed four decimals (the search over integer pairs gets that close).
        expect(measured.sp.toFixed(4)).toBe(publishedGap(dataset, model, 'sp').toFixed(4));
        expect(measured.eo.toFixed(4)).toBe(publishedGap(dataset, model, 'eo').toFixed(4));
      });
    }
  }

  it(
    'calibratedPool("adult", m) has 13,567 rows and a 3,362-row label-1 pool (paper A §4.1 and Table 4 ' + 'caption)',
    () => {
      const pool = calibratedPool('adult', 'robust-base');
      expect(pool.size).toBe(13_567);
      let positives = 0;
      for (let i = 0; i < pool.size; i++) positives += pool.label[i];
      expect(positives).toBe(3_362);
    },
  );

  it(
    'calibratedPool("acs", m) has 30% of 195,665 rows and a label-1 pool larger than B = 4000 (Table 4: fixed = ' +
      '4000 for ACS EO)',
    () => {
      const pool = calibratedPool('acs', 'robust-base');
      expect(pool.size).toBe(Math.ceil(0.3 * 195_665));
      let positives = 0;
      for (let i = 0; i < pool.size; i++) positives += pool.label[i];
      expect(positives).toBeGreaterThan(4000);
    },
  );

  it(
    'calibratedPool("adult", m) keeps the data\'s female share 14,695 / 45,222 and base rates (counted in ' +
      'shared/datasets/adult)',
    () => {
      const measured = gaps(calibratedPool('adult', 'unstable-base'));
      expect(measured.rows[1] / 13_567).toBeCloseTo(14_695 / 45_222, 3);
      expect(measured.positives[0] / measured.rows[0]).toBeCloseTo(9_539 / 30_527, 3);
      expect(measured.positives[1] / measured.rows[1]).toBeCloseTo(1_669 / 14_695, 3);
    },
  );

  it(
    'calibratedPool(d, m) gives decision = (score >= 0.5) = (logit >= 0) and score = sigmoid(logit) on every ' + 'row',
    () => {
      for (const dataset of PAPER_A_DATASETS) {
        const pool = calibratedPool(dataset, 'unstable-dp');
        const wrong: number[] = [];
        for (let i = 0; i < pool.size; i++) {
          const score = pool.score![i];
          const logit = pool.logit![i];
          const consistent =
            (score >= 0.5 ? 1 : 0) === pool.decision[i] &&
            (logit >= 0 ? 1 : 0) === pool.decision[i] &&
            Math.abs(score - 1 / (1 + Math.exp(-logit))) <= 1e-12;
          if (!consistent) wrong.push(i);
        }
        expect(wrong).toEqual([]);
      }
    },
  );

  it(
    'calibratedPool(d, m) is the same pool on every call, and another Random gives other scores with the same ' +
      'decisions',
    () => {
      const first = calibratedPool('adult', 'robust-dp');
      const second = calibratedPool('adult', 'robust-dp');
      expect(Buffer.from(second.logit!.buffer).equals(Buffer.from(first.logit!.buffer))).toBe(true);
      const other = calibratedPool('adult', 'robust-dp', createRandom('another seed'));
      expect(Buffer.from(other.logit!.buffer).equals(Buffer.from(first.logit!.buffer))).toBe(false);
      expect(gaps(other).sp).toBe(gaps(first).sp);
      expect(first.source).toBe('synthetic:calibrated/adult/robust-dp');
    },
  );

  it('calibratedPool("german", m) throws an InputError naming the choices', () => {
    // biome-ignore lint/suspicious/noExplicitAny: deliberately wrong input
    expect(() => calibratedPool('german' as any, 'robust-base')).toThrow(/acs, adult/);
  });

  it(
    "calibratedCounts(composition, target) puts group b's TPR above group a's for the DP models (Adult " +
      'Robust-DP: SP 0.0043, EO 0.3233)',
    () => {
      const counts = calibratedCounts(DATASET_COMPOSITIONS.adult, calibrationTarget('adult', 'robust-dp'));
      expect(counts.truePositives[1] / counts.positives[1]).toBeGreaterThan(
        counts.truePositives[0] / counts.positives[0],
      );
      expect(CALIBRATED_SYNTHETIC_NOTICE).toMatch(/NOT A REPRODUCTION/);
    },
  );
});
