import { describe, expect, it } from 'vitest';
import { countPool } from '../../../src/audit/calibration/count-pool.js';
import {
  CoupledQueries,
  decideCoupledPair,
  decideCoupledPath,
  pairRow,
} from '../../../src/audit/calibration/coupled-count-paths.js';
import { LazyBernoulliGlr } from '../../../src/audit/calibration/lazy-bernoulli-glr.js';
import { prepareAudit } from '../../../src/audit/prepare-audit.js';
import { runTestAudit } from '../../../src/audit/run-test-audit.js';
import { BernoulliGlrStream } from '../../../src/stats/bernoulli-glr-stream.js';
import { GlrThresholdTest } from '../../../src/stats/glr-threshold-test.js';
import { createRandom } from '../../../src/util/random.js';

const settings = { tolerance: 0.1, budget: 250, minimumPerGroup: 1, order: 'random' as const, upper: 2.5, lower: -1.5 };

describe('CoupledQueries', () => {
  it('draws each group its rows without replacement, in the order law: random and balanced', () => {
    for (const order of ['random', 'balanced'] as const) {
      const queries = new CoupledQueries(30, 20, 50, order);
      const random = createRandom(`coupled ${order}`);
      for (let path = 0; path < 5; path++) {
        queries.start(random);
        expect(queries.ensure(49)).toBe(50);
        const seen = [new Set<number>(), new Set<number>()];
        for (let t = 0; t < 50; t++) seen[queries.groups[t]].add(queries.ranks[t]);
        // The whole pool read: every row of each group exactly once.
        expect([seen[0].size, seen[1].size]).toEqual([30, 20]);
        if (order === 'balanced')
          expect(Array.from(queries.groups.subarray(0, 40))).toEqual(Array.from({ length: 40 }, (_, t) => t & 1));
      }
    }
  });
});

describe('CoupledQueries.drawnAt(group, rank)', () => {
  it('is the query that drew a row on this path, and -1 before it is drawn', () => {
    const queries = new CoupledQueries(30, 20, 40, 'random');
    const random = createRandom('drawn at');
    for (let path = 0; path < 4; path++) {
      queries.start(random);
      expect(queries.drawnAt(0, 5)).toBe(-1);
      queries.ensure(39);
      const found = [new Map<number, number>(), new Map<number, number>()];
      for (let t = 0; t < 40; t++) found[queries.groups[t]].set(queries.ranks[t], t);
      for (const group of [0, 1])
        for (let rank = 0; rank < (group === 0 ? 30 : 20); rank++)
          expect(queries.drawnAt(group, rank)).toBe(found[group].get(rank) ?? -1);
    }
  });
});

describe('decideCoupledPair(cell, other, row, ...)', () => {
  it('decides both cells of a pair as decideCoupledPath decides each, with the same query counts', () => {
    const pairs = [
      [
        { countA: 300, positivesA: 60, countB: 200, positivesB: 60 },
        { countA: 300, positivesA: 60, countB: 200, positivesB: 61 },
      ],
      [
        { countA: 300, positivesA: 200, countB: 200, positivesB: 150 },
        { countA: 300, positivesA: 201, countB: 200, positivesB: 150 },
      ],
    ];
    for (const exhaustion of [false, true]) {
      // With exhaustion the budget reads the whole pool, so undecided paths decide their known gap.
      const budget = exhaustion ? 500 : 250;
      const test = { ...settings, budget };
      for (const [index, [cell, other]] of pairs.entries()) {
        const row = pairRow(cell, other);
        expect(row).not.toBeNull();
        const queries = new CoupledQueries(300, 200, budget, 'random');
        const [glr, spare] = [new LazyBernoulliGlr(budget), new LazyBernoulliGlr(budget)];
        const empty = () => ({ paths: 0, reject: 0, accept: 0, inconclusive: 0, queries: 0 });
        const paired = [empty(), empty()];
        const alone = [empty(), empty()];
        const random = createRandom(`decide pair ${index}`);
        for (let path = 0; path < 300; path++) {
          queries.start(random);
          decideCoupledPair(cell, other, row!, queries, glr, spare, test, paired[0], paired[1], exhaustion);
          decideCoupledPath(cell, queries, glr, test, alone[0], exhaustion);
          decideCoupledPath(other, queries, glr, test, alone[1], exhaustion);
        }
        expect(paired).toEqual(alone);
        expect(alone[0].reject + alone[0].accept).toBeGreaterThan(30);
      }
    }
  });
});

describe('decideCoupledPath(cell, queries, glr, settings, into)', () => {
  it('decides every shared path as the GLR test evaluated at every query on the same observations', () => {
    const cells = [
      { countA: 300, positivesA: 60, countB: 200, positivesB: 60 },
      { countA: 300, positivesA: 60, countB: 200, positivesB: 61 },
      { countA: 300, positivesA: 3, countB: 200, positivesB: 22 },
      { countA: 300, positivesA: 297, countB: 200, positivesB: 200 },
    ];
    const queries = new CoupledQueries(300, 200, 250, 'random');
    const glr = new LazyBernoulliGlr(250);
    const stream = new BernoulliGlrStream();
    const random = createRandom('coupled decisions');
    let decided = 0;
    for (let path = 0; path < 300; path++) {
      queries.start(random);
      for (const cell of cells) {
        const lazy = { paths: 0, reject: 0, accept: 0, inconclusive: 0, queries: 0 };
        decideCoupledPath(cell, queries, glr, settings, lazy);
        // The same observations through the full statistic, evaluated at every query.
        stream.reset(settings.tolerance);
        let decision = 'inconclusive';
        let t = 0;
        while (t < 250) {
          queries.ensure(t);
          const group = queries.groups[t];
          stream.add(group, queries.ranks[t] < (group === 0 ? cell.positivesA : cell.positivesB) ? 1 : 0);
          t++;
          if (!stream.ready) continue;
          if (stream.statistic >= settings.upper) decision = 'reject';
          else if (stream.statistic <= settings.lower) decision = 'accept';
          if (decision !== 'inconclusive') break;
        }
        expect(lazy[decision as 'reject' | 'accept' | 'inconclusive']).toBe(1);
        expect(lazy.queries).toBe(t);
        if (decision !== 'inconclusive') decided++;
      }
    }
    expect(decided).toBeGreaterThan(100);
  });

  it('each cell keeps the law of querying its shuffled pool: rates agree with runTestAudit (4 standard errors)', () => {
    const cell = { countA: 300, positivesA: 60, countB: 200, positivesB: 55 };
    const paths = 3000;
    const coupled = { paths: 0, reject: 0, accept: 0, inconclusive: 0, queries: 0 };
    const queries = new CoupledQueries(300, 200, 250, 'random');
    const glr = new LazyBernoulliGlr(250);
    const random = createRandom('coupled law');
    for (let path = 0; path < paths; path++) {
      queries.start(random);
      decideCoupledPath(cell, queries, glr, settings, coupled);
    }
    const prepared = prepareAudit(countPool(cell), 'sp', 'decision');
    const test = new GlrThresholdTest(new BernoulliGlrStream(), 0.1, settings.upper, settings.lower, 1, null);
    const direct = { reject: 0, accept: 0 };
    const auditRandom = createRandom('direct law');
    for (let path = 0; path < paths; path++) {
      const { decision } = runTestAudit(prepared, test, 250, 'random', auditRandom);
      if (decision !== 'inconclusive') direct[decision]++;
    }
    for (const error of ['reject', 'accept'] as const) {
      const p = (coupled[error] + direct[error]) / (2 * paths);
      const se = Math.sqrt((2 * p * (1 - p)) / paths);
      expect(Math.abs(coupled[error] - direct[error]) / paths).toBeLessThanOrEqual(4 * se + 1e-9);
    }
    expect(coupled.reject + coupled.accept).toBeGreaterThan(300);
  });
});
