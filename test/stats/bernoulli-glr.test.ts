import { describe, expect, it } from 'vitest';
import { bernoulliGlr, bernoulliGlrKernel } from '../../src/stats/bernoulli-glr.js';
import { InputError } from '../../src/util/errors.js';
import { createRandom } from '../../src/util/random.js';
import { bernoulliGlrReference } from './bernoulli-glr-reference.js';

/** Bernoulli log-likelihood of both groups at (thetaA, thetaB), 0 log 0 = 0. */
function logLikelihood(na: number, sa: number, nb: number, sb: number, thetaA: number, thetaB: number): number {
  const term = (count: number, p: number) => (count > 0 ? count * Math.log(p) : 0);
  return term(sa, thetaA) + term(na - sa, 1 - thetaA) + term(sb, thetaB) + term(nb - sb, 1 - thetaB);
}

/**
 * The signed GLR by brute force: sup over Theta_1 minus sup over Theta_0 on a grid of the
 * unit square (eq. 22-23 read literally, no boundary argument), plus a fine grid along
 * the lines |thetaA - thetaB| = tolerance so that the supremum over the closure is seen.
 */
function bruteForceGlr(na: number, sa: number, nb: number, sb: number, tolerance: number, steps: number): number {
  let compliant = Number.NEGATIVE_INFINITY;
  let violating = Number.NEGATIVE_INFINITY;
  const visit = (a: number, b: number, onBoundary = false) => {
    if (a < 0 || a > 1 || b < 0 || b > 1) return;
    const value = logLikelihood(na, sa, nb, sb, a, b);
    const gap = Math.abs(a - b);
    if (onBoundary || gap <= tolerance) compliant = Math.max(compliant, value);
    if (onBoundary || gap >= tolerance) violating = Math.max(violating, value);
  };
  for (let i = 0; i <= steps; i++) for (let j = 0; j <= steps; j++) visit(i / steps, j / steps);
  const fine = 20 * steps;
  for (let i = 0; i <= fine; i++) {
    // Points of the lines themselves belong to both closures (whatever the rounding of a - b).
    visit(i / fine, i / fine + tolerance, true);
    visit(i / fine + tolerance, i / fine, true);
  }
  visit(sa / na, sb / nb);
  return violating - compliant;
}

describe('bernoulliGlr(counts, tolerance)', () => {
  it('matches a brute-force grid maximisation of eq. 22 on random counts', () => {
    const random = createRandom('grid');
    for (let trial = 0; trial < 40; trial++) {
      const na = 1 + Math.floor(random() * 40);
      const nb = 1 + Math.floor(random() * 40);
      const sa = Math.floor(random() * (na + 1));
      const sb = Math.floor(random() * (nb + 1));
      const tolerance = [0.05, 0.1, 0.3, 0.7][trial % 4];
      const exact = bernoulliGlr({ countA: na, positivesA: sa, countB: nb, positivesB: sb }, tolerance);
      const grid = bruteForceGlr(na, sa, nb, sb, tolerance, 200);
      // The grid can only under-estimate each supremum, by at most about
      // (n / (2 theta (1 - theta))) (grid step)^2; 2e-3 covers these counts.
      expect(Math.abs(exact - grid)).toBeLessThan(2e-3);
    }
  });

  it('agrees with a bisection reference on 3000 random counts to 1e-13 relative', () => {
    const random = createRandom('reference');
    for (let trial = 0; trial < 3000; trial++) {
      const na = 1 + Math.floor(random() * (trial % 2 === 0 ? 50 : 5000));
      const nb = 1 + Math.floor(random() * (trial % 3 === 0 ? 50 : 5000));
      const extreme = trial % 5 === 0;
      const sa = extreme ? [0, na][trial % 2] : Math.floor(random() * (na + 1));
      const sb = Math.floor(random() * (nb + 1));
      const tolerance = [0.05, 0.2, 0.5, 0.99, 1e-6, 0.999999][trial % 6];
      const fast = bernoulliGlrKernel(na, sa, nb, sb, tolerance);
      const slow = bernoulliGlrReference(na, sa, nb, sb, tolerance);
      expect(Math.abs(fast - slow)).toBeLessThanOrEqual(1e-13 * (na + nb) + 1e-14);
    }
  });

  it('matches 50-digit values (mpmath) including zero counts, full counts and tolerance near 1', () => {
    // python3 /tmp/xcheck/bernoulli_glr_mp.py: bisection on eq. 30 in mpmath with mp.dps = 50
    // rounded to the nearest double (the script is quoted in docs/core.md); each case (nA, sA, nB, sB, tolerance,
    // statistic).
    const cases: Array<[number, number, number, number, number, number]> = [
      [120, 30, 130, 52, 0.05, 1.440012947946327],
      [4000, 1200, 2600, 800, 0.05, -6.590445656767717],
      [10, 0, 12, 0, 0.1, -1.0536051565782631],
      [7, 7, 9, 9, 0.2, -1.5620048591994684],
      [1, 1, 1, 0, 0.05, 1.2887140327810267],
      [1, 0, 1, 0, 0.5, Math.log(0.5)], // mpmath: -0.6931471805599453
      [50, 0, 40, 40, 0.999999, 4.0000020001163564e-5],
      [3000, 1500, 3000, 1650, 0.05, -2.322729581170536e-32],
      [25, 5, 30, 6, 1e-9, -4.261363635395145e-17],
      [2000, 3, 1800, 90, 0.03, 7.98749819741254],
    ];
    for (const [na, sa, nb, sb, tolerance, expected] of cases) {
      const value = bernoulliGlr({ countA: na, positivesA: sa, countB: nb, positivesB: sb }, tolerance);
      expect(Math.abs(value - expected)).toBeLessThanOrEqual(4e-16 * (na + nb) + 1e-15 * Math.abs(expected));
    }
  });

  it('is unchanged when the groups swap', () => {
    const random = createRandom('swap');
    for (let trial = 0; trial < 500; trial++) {
      const na = 1 + Math.floor(random() * 300);
      const nb = 1 + Math.floor(random() * 300);
      const sa = Math.floor(random() * (na + 1));
      const sb = Math.floor(random() * (nb + 1));
      const tolerance = 0.01 + 0.5 * random();
      const forward = bernoulliGlrKernel(na, sa, nb, sb, tolerance);
      const swapped = bernoulliGlrKernel(nb, sb, na, sa, tolerance);
      expect(Math.abs(forward - swapped)).toBeLessThanOrEqual(1e-13 * (na + nb));
    }
  });

  it('is continuous through 0 as the tolerance crosses the empirical gap', () => {
    // Empirical gap 0.3 - 0.2 = 0.1; the statistic must shrink to 0 from both sides.
    const at = (tolerance: number) => bernoulliGlrKernel(500, 100, 400, 120, tolerance);
    for (const epsilon of [1e-2, 1e-4, 1e-6]) {
      const below = at(0.1 - epsilon);
      const above = at(0.1 + epsilon);
      expect(below).toBeGreaterThan(0);
      expect(above).toBeLessThan(0);
      // A quadratic approach: the statistic is O(n epsilon^2).
      expect(below).toBeLessThan(2000 * epsilon * epsilon);
      expect(-above).toBeLessThan(2000 * epsilon * epsilon);
    }
    expect(Math.abs(at(0.1))).toBeLessThan(1e-12);
  });

  it('handles all-zero, all-one and single-observation counts without NaN', () => {
    // All zero: the best compliant... violating point puts theta = tolerance on the smaller group:
    // sup = min(nA, nB) log(1 - tolerance), so the statistic is 10 log 0.9 for (10, 0, 12, 0).
    expect(bernoulliGlr({ countA: 10, positivesA: 0, countB: 12, positivesB: 0 }, 0.1)).toBeCloseTo(
      10 * Math.log(0.9),
      14,
    );
    expect(bernoulliGlr({ countA: 10, positivesA: 10, countB: 12, positivesB: 12 }, 0.1)).toBeCloseTo(
      10 * Math.log(0.9),
      14,
    );
    // One observation each, opposite outcomes, tolerance t: sup over Theta_0 is at
    // theta_a = (1 + t)/2, theta_b = (1 - t)/2: statistic = -2 log((1 + t)/2).
    expect(bernoulliGlr({ countA: 1, positivesA: 1, countB: 1, positivesB: 0 }, 0.3)).toBeCloseTo(
      -2 * Math.log(0.65),
      14,
    );
    expect(bernoulliGlr({ countA: 1, positivesA: 0, countB: 1, positivesB: 0 }, 0.3)).toBeCloseTo(Math.log(0.7), 14);
    // Gap 1 with tolerance near 1: the face is almost the corner, statistic small and positive.
    const corner = bernoulliGlr({ countA: 5, positivesA: 0, countB: 5, positivesB: 5 }, 1 - 1e-12);
    expect(corner).toBeGreaterThan(0);
    expect(corner).toBeLessThan(1e-9);
  });

  it(
    'throws InputError for counts below 1, positives outside [0, count], non-integers, tolerance outside (0, ' + '1)',
    () => {
      const good = { countA: 10, positivesA: 3, countB: 10, positivesB: 4 };
      expect(() => bernoulliGlr({ ...good, countA: 0 }, 0.05)).toThrow(/countA/);
      expect(() => bernoulliGlr({ ...good, positivesB: 11 }, 0.05)).toThrow(/positivesB/);
      expect(() => bernoulliGlr({ ...good, positivesA: 1.5 }, 0.05)).toThrow(InputError);
      expect(() => bernoulliGlr(good, 0)).toThrow(/tolerance/);
      expect(() => bernoulliGlr(good, 1)).toThrow(/tolerance/);
      expect(() => bernoulliGlr(good, Number.NaN)).toThrow(/tolerance/);
    },
  );
});
