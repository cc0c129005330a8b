import { describe, expect, it } from 'vitest';
import { countPool } from '../../../src/audit/calibration/count-pool.js';
import {
  CoupledQueries,
  pairRow,
  recordCoupledPair,
  recordCoupledPath,
} from '../../../src/audit/calibration/coupled-count-paths.js';
import { LazyBernoulliGlr } from '../../../src/audit/calibration/lazy-bernoulli-glr.js';
import {
  binIndex,
  type CountCell,
  emptyPathCounts,
  FULL_WINDOW,
  lowerThreshold,
  mergePathCounts,
  PathExtremes,
  type ThresholdGrid,
  type ThresholdPathCounts,
  upperThreshold,
} from '../../../src/audit/calibration/threshold-paths.js';
import { prepareAudit } from '../../../src/audit/prepare-audit.js';
import { runTestAudit } from '../../../src/audit/run-test-audit.js';
import { BernoulliGlrStream } from '../../../src/stats/bernoulli-glr-stream.js';
import { GlrThresholdTest } from '../../../src/stats/glr-threshold-test.js';
import { createRandom, standardNormal } from '../../../src/util/random.js';

const grid: ThresholdGrid = { step: 0.25, upperCount: 20, lowerCount: 16 };

/** The decision of the threshold rule on a statistic sequence: 1 reject, -1 accept, 0 neither. */
function decide(sequence: number[], upper: number, lower: number): number {
  for (const s of sequence) {
    if (s >= upper) return 1;
    if (s <= lower) return -1;
  }
  return 0;
}

function rejectsAt(counts: ThresholdPathCounts, j: number, k: number): number {
  let total = 0;
  for (let b = j + 1; b <= grid.upperCount; b++) total += counts.nullBins![binIndex(grid.lowerCount, k, b)];
  return total;
}

function acceptsAt(counts: ThresholdPathCounts, j: number, k: number): number {
  let total = 0;
  for (let b = k + 1; b <= grid.lowerCount; b++) total += counts.alternativeBins![binIndex(grid.upperCount, j, b)];
  return total;
}

function walks(count: number, seed: string): number[][] {
  const random = createRandom(seed);
  return Array.from({ length: count }, () => {
    let s = 0;
    return Array.from({ length: 60 }, () => (s += 0.4 * standardNormal(random)));
  });
}

describe('PathExtremes(grid, recordNull, recordAlternative)', () => {
  it(
    'its histograms give, for every threshold pair of the grid, exactly the rejections and acceptances of the ' +
      'threshold rule',
    () => {
      const sequences = walks(400, 'extremes');
      const counts = emptyPathCounts(grid, true, true);
      const extremes = new PathExtremes(grid, true, true);
      for (const sequence of sequences) {
        extremes.start();
        for (const s of sequence) if (extremes.observe(s)) break;
        extremes.finish(counts);
      }
      for (let j = 0; j < grid.upperCount; j += 3) {
        for (let k = 0; k < grid.lowerCount; k += 2) {
          const upper = upperThreshold(grid, j);
          const lower = lowerThreshold(grid, k);
          const direct = sequences.map((sequence) => decide(sequence, upper, lower));
          expect(rejectsAt(counts, j, k)).toBe(direct.filter((d) => d === 1).length);
          expect(acceptsAt(counts, j, k)).toBe(direct.filter((d) => d === -1).length);
        }
      }
      expect(counts.paths).toBe(400);
    },
  );

  it('stopping when observe() says so records the same as following the whole path', () => {
    const sequences = walks(200, 'early-stop');
    const stopped = emptyPathCounts(grid, true, true);
    const full = emptyPathCounts(grid, true, true);
    const extremes = new PathExtremes(grid, true, true);
    for (const sequence of sequences) {
      extremes.start();
      for (const s of sequence) if (extremes.observe(s)) break;
      extremes.finish(stopped);
      extremes.start();
      for (const s of sequence) extremes.observe(s);
      extremes.finish(full);
    }
    expect(stopped).toEqual(full);
  });

  it('mergePathCounts adds histograms, so chunks merge in any order to the same counts', () => {
    const make = (seed: string) => {
      const counts = emptyPathCounts(grid, true, false);
      const extremes = new PathExtremes(grid, true, false);
      for (const sequence of walks(50, seed)) {
        extremes.start();
        for (const s of sequence) if (extremes.observe(s)) break;
        extremes.finish(counts);
      }
      return counts;
    };
    const forward = emptyPathCounts(grid, true, false);
    const backward = emptyPathCounts(grid, true, false);
    for (const seed of ['c1', 'c2', 'c3']) mergePathCounts(forward, make(seed));
    for (const seed of ['c3', 'c2', 'c1']) mergePathCounts(backward, make(seed));
    expect(forward).toEqual(backward);
    expect(forward.paths).toBe(150);
  });
});

describe('recordCoupledPath(cell, queries, glr, settings, extremes, into)', () => {
  it(
    'simulates from counts with the law of a shuffled pool: its rejection and acceptance rates agree with ' +
      'runTestAudit on that pool (within 4 standard errors)',
    () => {
      const cell = { countA: 300, positivesA: 60, countB: 200, positivesB: 55 };
      const settings = { tolerance: 0.1, budget: 250, minimumPerGroup: 1, order: 'random' as const };
      const paths = 3000;
      const counts = emptyPathCounts(grid, true, true);
      const queries = new CoupledQueries(cell.countA, cell.countB, settings.budget, settings.order);
      const glr = new LazyBernoulliGlr(settings.budget);
      const extremes = new PathExtremes(grid, true, true);
      const countsRandom = createRandom('counts');
      for (let path = 0; path < paths; path++) {
        queries.start(countsRandom);
        recordCoupledPath(cell, queries, glr, settings, extremes, counts);
      }
      const prepared = prepareAudit(countPool(cell), 'sp', 'decision');
      // upper 1.5, lower -1: most audits decide within the budget, both ways.
      const j = 5;
      const k = 3;
      const test = new GlrThresholdTest(
        new BernoulliGlrStream(),
        0.1,
        upperThreshold(grid, j),
        lowerThreshold(grid, k),
        1,
      );
      const random = createRandom('rows');
      let rejects = 0;
      let accepts = 0;
      for (let r = 0; r < paths; r++) {
        const { decision } = runTestAudit(prepared, test, 250, 'random', random);
        if (decision === 'reject') rejects++;
        if (decision === 'accept') accepts++;
      }
      const close = (a: number, b: number) => {
        const p = (a + b) / (2 * paths);
        expect(Math.abs(a - b) / paths).toBeLessThan(4 * Math.sqrt((2 * p * (1 - p)) / paths) + 1e-9);
      };
      close(rejectsAt(counts, j, k), rejects);
      close(acceptsAt(counts, j, k), accepts);
      expect(Math.min(rejects, accepts)).toBeGreaterThan(paths / 10);
    },
  );
});

describe('recordCoupledPair(cell, other, row, ...)', () => {
  it('records both cells of a pair as recordCoupledPath records each (exactly, inside a window or on the grid)', () => {
    const settings = { tolerance: 0.1, budget: 250, minimumPerGroup: 3, order: 'random' as const };
    const pairs: Array<[CountCell, CountCell]> = [
      [
        { countA: 300, positivesA: 60, countB: 200, positivesB: 59 },
        { countA: 300, positivesA: 60, countB: 200, positivesB: 60 },
      ],
      [
        { countA: 300, positivesA: 3, countB: 200, positivesB: 22 },
        { countA: 300, positivesA: 4, countB: 200, positivesB: 22 },
      ],
    ];
    for (const window of [FULL_WINDOW, { upperStart: 10, lowerStart: 6 }]) {
      for (const [index, [cell, other]] of pairs.entries()) {
        const row = pairRow(cell, other);
        expect(row).not.toBeNull();
        const queries = new CoupledQueries(300, 200, settings.budget, settings.order);
        const [glr, spare] = [new LazyBernoulliGlr(250), new LazyBernoulliGlr(250)];
        // The compliant cell records the null side, the violating one the alternative side, as in a calibration.
        const extremes = [new PathExtremes(grid, true, false, window), new PathExtremes(grid, false, true, window)];
        const paired = [emptyPathCounts(grid, true, false), emptyPathCounts(grid, false, true)];
        const alone = [emptyPathCounts(grid, true, false), emptyPathCounts(grid, false, true)];
        const random = createRandom(`pair ${index}`);
        let split = 0;
        for (let path = 0; path < 400; path++) {
          queries.start(random);
          const [into, intoOther] = paired;
          recordCoupledPair(
            cell,
            other,
            row!,
            queries,
            glr,
            spare,
            settings,
            extremes[0],
            extremes[1],
            into,
            intoOther,
          );
          if (queries.drawnAt(row!.group, row!.rank) >= 0) split++;
          recordCoupledPath(cell, queries, glr, settings, extremes[0], alone[0]);
          recordCoupledPath(other, queries, glr, settings, extremes[1], alone[1]);
        }
        // Both cases happen: the differing row read within the budget, and not.
        expect(split).toBeGreaterThan(50);
        expect(split).toBeLessThan(350);
        for (let k = window.lowerStart; k < grid.lowerCount; k++)
          for (let j = window.upperStart; j < grid.upperCount; j++) {
            expect(rejectsAt(paired[0], j, k)).toBe(rejectsAt(alone[0], j, k));
            expect(acceptsAt(paired[1], j, k)).toBe(acceptsAt(alone[1], j, k));
          }
        if (window === FULL_WINDOW) {
          expect(Array.from(paired[0].nullBins!)).toEqual(Array.from(alone[0].nullBins!));
          expect(Array.from(paired[1].alternativeBins!)).toEqual(Array.from(alone[1].alternativeBins!));
        }
      }
    }
  });
});
