import { describe, expect, it } from 'vitest';
import { auditPool } from '../../src/audit/audit-pool.js';
import type { AuditPool } from '../../src/audit/pool.js';
import { oracleDecision, prepareAudit } from '../../src/audit/prepare-audit.js';
import { runSequentialAudit } from '../../src/audit/sequential-audit.js';
import { bernoulliGlrKernel } from '../../src/stats/bernoulli-glr.js';
import { InputError } from '../../src/util/errors.js';
import { createRandom, deriveSeed } from '../../src/util/random.js';

/** A pool whose group b decides 1 at rate rateB and group a at rateA (exactly, by construction). */
function syntheticPool(size: number, rateA: number, rateB: number, seed = 'pool'): AuditPool {
  const random = createRandom(seed);
  const group = new Uint8Array(size);
  const label = new Uint8Array(size);
  const decision = new Uint8Array(size);
  const score = new Float64Array(size);
  const logit = new Float64Array(size);
  for (let i = 0; i < size; i++) {
    group[i] = i % 2;
    label[i] = i % 3 === 0 ? 0 : 1;
    const rate = group[i] === 0 ? rateA : rateB;
    decision[i] = random() < rate ? 1 : 0;
    score[i] = Math.min(1, Math.max(0, rate + 0.2 * (random() - 0.5)));
    logit[i] = Math.log(score[i] / (1 - score[i]));
  }
  return { size, group, label, decision, score, logit, id: null, source: `synthetic:${seed}` };
}

const settings = { tolerance: 0.05, scoreTolerance: 0.05, logitTolerance: 0.2, budget: 4000, alpha: 0.05, beta: 0.2 };

function decisions(pool: AuditPool, access: 'decision' | 'score' | 'logit', tolerance: number, replicates = 50) {
  const prepared = prepareAudit(pool, 'sp', access);
  const tally = { reject: 0, accept: 0, inconclusive: 0 };
  for (let r = 0; r < replicates; r++) {
    const result = runSequentialAudit(
      prepared,
      { ...settings, tolerance, scoreTolerance: tolerance, logitTolerance: tolerance },
      createRandom(deriveSeed(7, access, r)),
    );
    tally[result.decision]++;
  }
  return tally;
}

describe('runSequentialAudit(prepared, settings, random)', () => {
  it('rejects a pool far outside the null (gap 0.3 vs tolerance 0.05) under every access regime', () => {
    const pool = syntheticPool(20_000, 0.3, 0.6);
    expect(decisions(pool, 'decision', 0.05).reject).toBe(50);
    expect(decisions(pool, 'score', 0.05).reject).toBe(50);
    expect(decisions(pool, 'logit', 0.2).reject).toBe(50);
  });

  it('accepts a pool far inside the null (gap 0 vs tolerance 0.2) in at least 90% of replicates', () => {
    // The thresholds are operational, not exact (paper A section 3.5): with a handful of
    // observations per group the GLR can cross the upper one by chance. Over 2000
    // replicates of this pool 3% did, all but 9 within 20 queries (measured while
    // developing); 50 replicates must still accept at least 45 times.
    const pool = syntheticPool(20_000, 0.4, 0.4);
    expect(decisions(pool, 'decision', 0.2).accept).toBeGreaterThanOrEqual(45);
    expect(decisions(pool, 'score', 0.2).accept).toBeGreaterThanOrEqual(45);
  });

  it('is reproducible from the seed and leaves the prepared scratch as it found it', () => {
    const prepared = prepareAudit(syntheticPool(5000, 0.3, 0.36), 'sp', 'decision');
    const first = runSequentialAudit(prepared, settings, createRandom('s'), { trajectory: true });
    runSequentialAudit(prepared, settings, createRandom('other'));
    const again = runSequentialAudit(prepared, settings, createRandom('s'), { trajectory: true });
    expect(again).toEqual(first);
    expect([...prepared.order]).toEqual(Array.from({ length: prepared.size }, (_, i) => i));
  });

  it("restores paper A's packed codes and the order, by copy after many steps and by swaps after few", () => {
    const prepared = prepareAudit(syntheticPool(5000, 0.3, 0.36, 'restore'), 'sp', 'decision');
    const rows = Array.from({ length: prepared.size }, (_, i) => i);
    const codes = [...(prepared.codes as Uint8Array)];
    expect(codes).toEqual(rows.map((row) => 2 * prepared.group[row] + prepared.value[row]));
    const steps = new Set<string>();
    for (let r = 0; r < 40; r++) {
      // Budget 4000 of 5000 rows: the baseline reads 4000 (a copy); without it an early stop reads few (swaps).
      const fixedSample = r % 2 === 0;
      const result = runSequentialAudit(prepared, settings, createRandom(`restore-${r}`), { fixedSample });
      steps.add(16 * (fixedSample ? 4000 : result.queries) >= prepared.size ? 'copy' : 'swaps');
      expect([...(prepared.codes as Uint8Array)]).toEqual(codes);
      expect([...prepared.order]).toEqual(rows);
    }
    expect([...steps].sort()).toEqual(['copy', 'swaps']);
    const scored = prepareAudit(syntheticPool(5000, 0.3, 0.36, 'restore'), 'sp', 'score');
    expect(scored.codes).toBeNull();
    runSequentialAudit(scored, settings, createRandom('restore-score'));
    expect([...scored.order]).toEqual(rows);
  });

  it('returns a trajectory equal to the exact statistic of the running counts, and stops at the first crossing', () => {
    const pool = syntheticPool(3000, 0.3, 0.4, 'trajectory');
    const prepared = prepareAudit(pool, 'sp', 'decision');
    const result = runSequentialAudit(prepared, settings, null, { trajectory: true });
    const counts = [0, 0];
    const positives = [0, 0];
    for (let t = 0; t < result.queries; t++) {
      counts[pool.group[t]]++;
      positives[pool.group[t]] += pool.decision[t];
      const expected =
        counts[0] > 0 && counts[1] > 0 ? bernoulliGlrKernel(counts[0], positives[0], counts[1], positives[1], 0.05) : 0;
      expect(Object.is(result.trajectory![t], expected), `query ${t}`).toBe(true);
      if (t < result.queries - 1) expect(expected > -1.5581 && expected < 2.7726).toBe(true);
    }
    expect(result.statistic).toBe(result.trajectory![result.queries - 1]);
    expect(result.decision).not.toBe('inconclusive');
  });

  it('stops where the exact statistic of every query would, with its value to the bit, without a trajectory', () => {
    // Recorded: every query's statistic computed (add). Not recorded: the fused loop, which evaluates only where a
    // bound cannot rule a crossing out. The statistic is a function of the counts, so both must agree exactly.
    const cases = [
      [0.38, 'lazy-accept', 'decision'],
      [0.47, 'lazy-reject', 'decision'],
      [0.43, 'lazy-near', 'decision'],
      [0.38, 'lazy-accept-score', 'score'],
      [0.47, 'lazy-reject-score', 'score'],
      [0.45, 'lazy-near-logit', 'logit'],
    ] as const;
    const decided = new Set<string>();
    for (const [rateB, name, access] of cases) {
      const prepared = prepareAudit(syntheticPool(20_000, 0.4, rateB, name), 'sp', access);
      for (let r = 0; r < 6; r++) {
        const eager = runSequentialAudit(prepared, settings, createRandom(deriveSeed(name, r)), { trajectory: true });
        const lazy = runSequentialAudit(prepared, settings, createRandom(deriveSeed(name, r)));
        expect([lazy.decision, lazy.queries, lazy.fixedGap]).toEqual([eager.decision, eager.queries, eager.fixedGap]);
        expect(Object.is(lazy.statistic, eager.statistic), `${name} ${r}`).toBe(true);
        expect(Object.is(lazy.fixedGap, eager.fixedGap), `${name} ${r} fixed gap`).toBe(true);
        decided.add(`${access} ${lazy.decision}`);
      }
    }
    // Both families reach both decisions here, so the comparison covers each loop's stops.
    for (const key of ['decision accept', 'decision reject', 'score accept', 'score reject'])
      expect(decided).toContain(key);
  });

  it('is inconclusive at min(B, pool size) and computes the fixed-sample decision on those rows', () => {
    const pool = syntheticPool(400, 0.3, 0.35, 'small');
    const prepared = prepareAudit(pool, 'sp', 'decision');
    const result = runSequentialAudit(prepared, { ...settings, budget: 20 }, null);
    expect(result.fixedSamples).toBe(20);
    expect(result.queries).toBeLessThanOrEqual(20);
    const positives = [0, 0];
    for (let i = 0; i < 20; i++) positives[pool.group[i]] += pool.decision[i];
    const [a, b] = positives;
    expect(result.fixedGap).toBeCloseTo(b / 10 - a / 10, 12);
    expect(result.fixedDecision).toBe(Math.abs(b / 10 - a / 10) > 0.05 ? 'reject' : 'accept');
    const whole = runSequentialAudit(prepared, { ...settings, budget: 10_000, tolerance: 0.9 }, createRandom(1));
    expect(whole.fixedSamples).toBe(400);
    expect(whole.fixedGap).toBeCloseTo(prepared.oracleSignedGap, 12);
  });

  it("takes a createRandom generator's steps inline: the same audits, the generator left as calls leave it", () => {
    // A wrapper hides the generator's state, so that audit calls it once per position instead.
    const called = (random: () => number) => () => random();
    const cases: Array<
      [AuditPool, 'decision' | 'score' | 'logit', Partial<typeof settings> & { minimumPerGroup?: number }]
    > = [
      [syntheticPool(20_000, 0.4, 0.38, 'inline-accept'), 'decision', {}],
      [syntheticPool(20_000, 0.3, 0.45, 'inline-reject'), 'decision', {}],
      [syntheticPool(20_000, 0.4, 0.43, 'inline-inconclusive'), 'decision', { budget: 600 }],
      [syntheticPool(3000, 0.4, 0.38, 'inline-small'), 'decision', { budget: 4000, minimumPerGroup: 25 }],
      [syntheticPool(20_000, 0.4, 0.38, 'inline-score'), 'score', {}],
      [syntheticPool(20_000, 0.3, 0.45, 'inline-score-reject'), 'score', {}],
      [syntheticPool(20_000, 0.4, 0.44, 'inline-score-inconclusive'), 'score', { budget: 300 }],
      [syntheticPool(3000, 0.4, 0.38, 'inline-score-small'), 'score', { budget: 4000, minimumPerGroup: 25 }],
      [syntheticPool(20_000, 0.4, 0.5, 'inline-logit'), 'logit', {}],
    ];
    const decided = new Set<string>();
    for (const [pool, access, overrides] of cases) {
      const prepared = prepareAudit(pool, 'sp', access);
      const identity = Int32Array.from(prepared.order);
      for (let r = 0; r < 8; r++) {
        const inline = createRandom(deriveSeed('inline', pool.source, r));
        const calls = createRandom(deriveSeed('inline', pool.source, r));
        const fast = runSequentialAudit(prepared, { ...settings, ...overrides }, inline);
        const slow = runSequentialAudit(prepared, { ...settings, ...overrides }, called(calls));
        expect(fast).toEqual(slow);
        expect(Object.is(fast.statistic, slow.statistic)).toBe(true);
        expect(Object.is(fast.fixedGap, slow.fixedGap)).toBe(true);
        expect(inline()).toBe(calls());
        expect(prepared.order).toEqual(identity);
        decided.add(fast.decision);
      }
    }
    expect([...decided].sort()).toEqual(['accept', 'inconclusive', 'reject']);
  });

  it('skips the fixed-sample decision with fixedSample: false and draws the same order', () => {
    const prepared = prepareAudit(syntheticPool(5000, 0.3, 0.5, 'nofixed'), 'sp', 'decision');
    const withFixed = runSequentialAudit(prepared, settings, createRandom('f'));
    const without = runSequentialAudit(prepared, settings, createRandom('f'), { fixedSample: false });
    expect(without.fixedDecision).toBeNull();
    expect(without.fixedGap).toBeNaN();
    expect(without.queries).toBe(withFixed.queries);
    expect(without.statistic).toBe(withFixed.statistic);
  });

  it('starts the test only once each group has minimumPerGroup observations', () => {
    const pool = syntheticPool(3000, 0.1, 0.9, 'burn-in');
    const prepared = prepareAudit(pool, 'sp', 'decision');
    const early = runSequentialAudit(prepared, settings, null);
    const late = runSequentialAudit(prepared, { ...settings, minimumPerGroup: 25 }, null);
    expect(early.decision).toBe('reject');
    expect(early.queries).toBeLessThan(50);
    // Rows alternate between the groups, so 25 per group means at least 50 queries.
    expect(late.decision).toBe('reject');
    expect(late.queries).toBeGreaterThanOrEqual(50);
  });

  it('audits the label = 1 rows under eo', () => {
    const pool = syntheticPool(3000, 0.3, 0.6);
    const prepared = prepareAudit(pool, 'eo', 'decision');
    expect(prepared.size).toBe(2000);
    expect(oracleDecision(prepared, 0.05)).toBe('reject');
  });
});

describe('auditPool(pool, settings, name)', () => {
  const pool = syntheticPool(2000, 0.3, 0.6, 'audit-pool');

  it('runs one seeded audit and reports it with the settings as applied and the oracle', async () => {
    const summary = await auditPool(pool, { seed: '7', test: 'wald-glr' });
    const prepared = prepareAudit(pool, 'sp', 'decision');
    const direct = runSequentialAudit(prepared, settings, createRandom(deriveSeed('7', 0)));
    expect(summary).toMatchObject({
      replicates: 1,
      decision: direct.decision,
      queries: direct.queries,
      statistic: direct.statistic,
      metric: 'sp',
      access: 'decision',
      tolerance: 0.05,
      oracleDecision: 'reject',
      upperThreshold: 2.772589,
      lowerThreshold: -1.558145,
      order: 'random',
      seed: '7',
    });
    expect(summary).not.toHaveProperty('scoreTolerance');
  });

  it('defaults to the betting test, with its evidence and the verdict in words (gaps b − a)', async () => {
    const summary = await auditPool(pool, { seed: '7' });
    expect(summary).toMatchObject({ test: 'betting', hypothesis: 'H0 |SP gap| ≤ 0.05' });
    expect(summary.guarantee).toBe(
      'betting: P(false violation) ≤ 0.05 and P(false compliance) ≤ 0.2 at any stopping time',
    );
    if (!('verdict' in summary)) throw new Error('one replicate gives the single-audit summary');
    expect(summary).not.toHaveProperty('statistic');
    expect(typeof summary.logEValue).toBe('number');
    // The pool's decision rates are 0.3 (a) and 0.6 (b): the gap b − a is positive on every line.
    expect(summary.oracleGap).toBeGreaterThan(0.2);
    expect(summary.fixedGap).toBeGreaterThan(0.2);
    expect(summary.verdict).toBe('violation');
    expect(summary.logEValue as number).toBeGreaterThanOrEqual(Math.log(1 / 0.05));
    expect(summary.verdictText).toBe(
      `VIOLATION: H0 |SP gap| ≤ 0.05 rejected after ${summary.queries} queries (${summary.guarantee})`,
    );
  });

  it('reports the proxy tolerance of score access, and summarises replicates', async () => {
    const summary = await auditPool(pool, { access: 'score', scoreTolerance: 0.1, seed: 's', replicates: 5 });
    expect(summary).toMatchObject({ replicates: 5, tolerance: 0.05, scoreTolerance: 0.1 });
    expect(
      'decisions' in summary && summary.decisions.reject + summary.decisions.accept + summary.decisions.inconclusive,
    ).toBe(5);
  });

  it('throws InputError naming the setting (through name) for every bad setting', async () => {
    const flag = (key: string) => `--${key}`;
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ seed: '1', tolerance: 1.2 }, /--tolerance: expected a number in \(0, 1\), found 1\.2/],
      [{ seed: '1', tolerance: 0 }, /--tolerance/],
      [{ seed: '1', logitTolerance: -1 }, /--logitTolerance/],
      [{ seed: '1', budget: 0 }, /--budget/],
      [{ seed: '1', alpha: Number.NaN }, /--alpha/],
      [{ seed: '1', beta: 0.99 }, /--beta: expected alpha \+ beta < 1/],
      [{ seed: '1', minimumPerGroup: 0 }, /--minimumPerGroup/],
      [{ seed: '1', access: 'probability' }, /--access/],
      [{}, /--seed: expected a seed for the random query order/],
      [{ order: 'given', replicates: 3, test: 'wald-glr' }, /--replicates: expected 1 with order given/],
      [{ order: 'given' }, /--order: expected "random" or "balanced" with test betting/],
    ];
    for (const [bad, message] of cases) {
      await expect(auditPool(pool, bad, flag)).rejects.toThrow(InputError);
      await expect(auditPool(pool, bad, flag)).rejects.toThrow(message);
    }
  });
});

describe('prepareAudit(pool, metric, access)', () => {
  it('throws InputError naming the pool when a column is missing or a group has no row', () => {
    const pool = syntheticPool(100, 0.3, 0.3);
    expect(() => prepareAudit({ ...pool, score: null }, 'sp', 'score')).toThrow(/synthetic:pool: column "score"/);
    const onlyA = { ...pool, group: new Uint8Array(100) };
    expect(() => prepareAudit(onlyA, 'sp', 'decision')).toThrow(/no row of group b/);
    const noPositives = { ...pool, label: new Uint8Array(100) };
    expect(() => prepareAudit(noPositives, 'eo', 'decision')).toThrow(/metric eo/);
  });

  it('computes the oracle gap and the proxy gap of the metric pool', () => {
    const pool = syntheticPool(1000, 0.2, 0.5);
    const prepared = prepareAudit(pool, 'sp', 'score');
    let da = 0;
    let db = 0;
    let sa = 0;
    let sb = 0;
    for (let i = 0; i < 1000; i++) {
      if (pool.group[i] === 0) {
        da += pool.decision[i];
        sa += pool.score![i];
      } else {
        db += pool.decision[i];
        sb += pool.score![i];
      }
    }
    expect(prepared.oracleGap).toBeCloseTo(Math.abs(db / 500 - da / 500), 12);
    expect(prepared.proxyGap).toBeCloseTo(Math.abs(sb / 500 - sa / 500), 12);
    expect(prepareAudit(pool, 'sp', 'decision').proxyGap).toBeNaN();
  });
});

/** A pool of countA rows of group a (positivesA deciding 1) and countB of group b, alternating groups while both last.
 * */
function countPool(countA: number, positivesA: number, countB: number, positivesB: number): AuditPool {
  const size = countA + countB;
  const group = new Uint8Array(size);
  const decision = new Uint8Array(size);
  const seen = [0, 0];
  for (let i = 0; i < size; i++) {
    const g = (i % 2 === 1 && seen[1] < countB) || seen[0] >= countA ? 1 : 0;
    group[i] = g;
    decision[i] = seen[g] < (g === 0 ? positivesA : positivesB) ? 1 : 0;
    seen[g]++;
  }
  return {
    size,
    group,
    label: new Uint8Array(size).fill(1),
    decision,
    score: null,
    logit: null,
    id: null,
    source: 'synthetic:counts',
  };
}

describe('oracleDecision(prepared, tolerance) and the fixed-sample decision at a gap of exactly the tolerance', () => {
  // Gaps exactly 0.05, 0.1, 0.25 by counts whose double differences lie above the
  // tolerance (0.05000000000000004, 0.10000000000000003, 0.25000000000000006; found with
  // Python's fractions.Fraction).
  const cases: Array<[number, number, number, number, number]> = [
    [20, 7, 20, 8, 0.05],
    [3, 1, 30, 13, 0.1],
    [3, 1, 12, 7, 0.25],
  ];

  it('accepts (H0 is |gap| <= tolerance), and rejects one positive more', () => {
    for (const [na, sa, nb, sb, tolerance] of cases) {
      const prepared = prepareAudit(countPool(na, sa, nb, sb), 'sp', 'decision');
      expect(prepared.oracleSignedGap).toBeGreaterThan(tolerance);
      expect(oracleDecision(prepared, tolerance)).toBe('accept');
      const whole = runSequentialAudit(prepared, { ...settings, tolerance, budget: na + nb }, null);
      expect(whole.fixedDecision).toBe('accept');
      const shuffled = runSequentialAudit(prepared, { ...settings, tolerance, budget: 10_000 }, createRandom(3));
      expect(shuffled.fixedDecision).toBe('accept');
      const above = prepareAudit(countPool(na, sa, nb, sb + 1), 'sp', 'decision');
      expect(oracleDecision(above, tolerance)).toBe('reject');
    }
  });

  it('compares the first min(B, pool) rows exactly when the budget is below the pool', () => {
    // The first 40 rows alternate: 20 of a (7 positives first) and 20 of b (8 positives first).
    const prepared = prepareAudit(countPool(30, 7, 30, 8), 'sp', 'decision');
    const result = runSequentialAudit(prepared, { ...settings, budget: 40 }, null);
    expect(result.fixedGap).toBeGreaterThan(0.05);
    expect(result.fixedDecision).toBe('accept');
  });
});
