import { describe, expect, it } from 'vitest';
import { empiricalBernsteinPenalty } from '../../src/stats/empirical-bernstein-penalty.js';

describe('empiricalBernsteinPenalty(bet, range)', () => {
  it('empiricalBernsteinPenalty(0.5, 1) is -log(1/2) - 1/2 and (0.3, 0.4) is (-log(0.88) - 0.12)/0.16', () => {
    // python3 -c "import math; print(-math.log(0.5)-0.5, (-math.log1p(-0.12)-0.12)/0.16)"
    expect(empiricalBernsteinPenalty(0.5, 1)).toBeCloseTo(0.1931471805599453, 15);
    expect(empiricalBernsteinPenalty(0.3, 0.4)).toBeCloseTo(0.04895857193678056, 15);
  });

  it('empiricalBernsteinPenalty(bet, 0) is bet^2 / 2 (the limit as the range goes to 0)', () => {
    expect(empiricalBernsteinPenalty(0.3, 0)).toBe(0.045);
    expect(empiricalBernsteinPenalty(2, 1e-9)).toBeCloseTo(2, 6);
  });

  it('empiricalBernsteinPenalty(bet, range) is continuous where the series takes over (bet range = 1e-3)', () => {
    const below = empiricalBernsteinPenalty(0.001 - 1e-12, 1);
    const above = empiricalBernsteinPenalty(0.001 + 1e-12, 1);
    expect(Math.abs(below - above) / above).toBeLessThan(1e-8);
  });

  it(
    'log(1 + bet z) >= bet z - penalty z^2 for every z >= -range and bet < 1/range, with equality at z = ' + '-range',
    () => {
      let worst = Number.POSITIVE_INFINITY;
      for (const range of [0, 0.05, 0.4, 1]) {
        const maxBet = range === 0 ? 5 : 0.99 / range;
        for (let i = 0; i <= 40; i++) {
          const bet = (maxBet * i) / 40;
          const penalty = empiricalBernsteinPenalty(bet, range);
          for (let s = 0; s <= 200; s++) {
            const z = -range + (s / 200) * (1 + range);
            const slack = Math.log1p(bet * z) - (bet * z - penalty * z * z);
            worst = Math.min(worst, slack);
          }
          if (range > 0) {
            const atEdge = Math.log1p(-bet * range) - (-bet * range - penalty * range * range);
            expect(Math.abs(atEdge)).toBeLessThan(1e-12);
          }
        }
      }
      expect(worst).toBeGreaterThan(-1e-12);
    },
  );
});
