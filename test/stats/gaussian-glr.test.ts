import { describe, expect, it } from 'vitest';
import { gaussianGlr } from '../../src/stats/gaussian-glr.js';
import { GaussianGlrStream } from '../../src/stats/gaussian-glr-stream.js';
import { InputError } from '../../src/util/errors.js';
import { createRandom, standardNormal } from '../../src/util/random.js';

function sums(a: number[], b: number[]) {
  const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
  const squares = (xs: number[]) => xs.reduce((s, x) => s + x * x, 0);
  return {
    countA: a.length,
    sumA: sum(a),
    sumOfSquaresA: squares(a),
    countB: b.length,
    sumB: sum(b),
    sumOfSquaresB: squares(b),
  };
}

/** Golden-section maximisation of a unimodal function on [low, high]. */
function goldenMax(f: (x: number) => number, low: number, high: number, iterations = 90): number {
  const ratio = (Math.sqrt(5) - 1) / 2;
  let a = low;
  let b = high;
  let c = b - ratio * (b - a);
  let d = a + ratio * (b - a);
  let fc = f(c);
  let fd = f(d);
  for (let i = 0; i < iterations; i++) {
    if (fc > fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - ratio * (b - a);
      fc = f(c);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + ratio * (b - a);
      fd = f(d);
    }
  }
  return Math.max(fc, fd, f(low), f(high));
}

/**
 * The Gaussian log-likelihood with a common variance maximised numerically: over the
 * variance (log scale), the mean of group a and the difference d = mu_b - mu_a in
 * [dLow, dHigh], each by golden section (the profile is unimodal in each), evaluated
 * from the data themselves rather than from the closed form.
 */
function numericalProfile(a: number[], b: number[], dLow: number, dHigh: number): number {
  const n = a.length + b.length;
  const logLikelihood = (muA: number, muB: number, logVariance: number) => {
    const variance = Math.exp(logVariance);
    let squares = 0;
    for (const x of a) squares += (x - muA) ** 2;
    for (const x of b) squares += (x - muB) ** 2;
    return -0.5 * n * Math.log(2 * Math.PI * variance) - squares / (2 * variance);
  };
  const spread = 10;
  return goldenMax(
    (d) =>
      goldenMax(
        (muA) => goldenMax((logVariance) => logLikelihood(muA, muA + d, logVariance), -30, 5, 70),
        -spread,
        spread,
        70,
      ),
    dLow,
    dHigh,
    70,
  );
}

describe('gaussianGlr(sums, tolerance)', () => {
  const a = [0.31, 0.42, 0.38, 0.29, 0.5, 0.44, 0.36];
  const b = [0.55, 0.61, 0.47, 0.58, 0.66, 0.52];

  it('matches SciPy SLSQP maximisation of the Gaussian likelihood on both sides', () => {
    // python3 gaussian_glr_scipy.py (quoted in docs/core.md): SLSQP over (mu_a, mu_b, log variance)
    // on Theta_1 and Theta_0, statistic = sup Theta_1 - sup Theta_0.
    expect(gaussianGlr(sums(a, b), 0.05)).toBeCloseTo(4.42745664450559, 7);
    expect(gaussianGlr(sums(a, b), 0.3)).toBeCloseTo(-4.002221477317182, 7);
  });

  it('matches a numerical profile of the likelihood over means and variance', () => {
    const random = createRandom('gaussian-profile');
    for (let trial = 0; trial < 6; trial++) {
      const groupA = Array.from({ length: 5 + trial }, () => 0.4 + 0.5 * standardNormal(random));
      const groupB = Array.from({ length: 8 - trial }, () => 1.0 + 0.5 * standardNormal(random));
      const tolerance = [0.2, 0.6, 1.0][trial % 3];
      const compliant = numericalProfile(groupA, groupB, -tolerance, tolerance);
      const violating = Math.max(
        numericalProfile(groupA, groupB, tolerance, tolerance + 20),
        numericalProfile(groupA, groupB, -tolerance - 20, -tolerance),
      );
      expect(gaussianGlr(sums(groupA, groupB), tolerance)).toBeCloseTo(violating - compliant, 6);
    }
  }, 60_000);

  it('is unchanged when the groups swap', () => {
    expect(gaussianGlr(sums(b, a), 0.05)).toBeCloseTo(gaussianGlr(sums(a, b), 0.05), 12);
  });

  it('is continuous through 0 as the tolerance crosses the empirical gap', () => {
    const gap = b.reduce((s, x) => s + x, 0) / b.length - a.reduce((s, x) => s + x, 0) / a.length;
    expect(gaussianGlr(sums(a, b), gap)).toBe(0);
    expect(gaussianGlr(sums(a, b), gap - 1e-6)).toBeGreaterThan(0);
    expect(gaussianGlr(sums(a, b), gap - 1e-6)).toBeLessThan(1e-9);
    expect(gaussianGlr(sums(a, b), gap + 1e-6)).toBeLessThan(0);
  });

  it('gives +-Infinity or 0, never NaN, when every value within each group is equal', () => {
    expect(gaussianGlr(sums([0.3, 0.3], [0.6, 0.6, 0.6]), 0.1)).toBe(Number.POSITIVE_INFINITY);
    expect(gaussianGlr(sums([0.3, 0.3], [0.35, 0.35]), 0.1)).toBe(Number.NEGATIVE_INFINITY);
    expect(gaussianGlr(sums([0.5], [0.75]), 0.25)).toBe(0);
    // One group constant, the other not: finite.
    expect(Number.isFinite(gaussianGlr(sums([0.3, 0.3, 0.3], [0.5, 0.7]), 0.1))).toBe(true);
  });

  it('throws InputError for a count below 1, a sum of squares below sum^2/count, a tolerance <= 0', () => {
    const good = sums(a, b);
    expect(() => gaussianGlr({ ...good, countA: 0 }, 0.1)).toThrow(/countA/);
    expect(() => gaussianGlr({ ...good, sumOfSquaresB: 0 }, 0.1)).toThrow(/sumOfSquaresB/);
    expect(() => gaussianGlr({ ...good, sumA: Number.NaN }, 0.1)).toThrow(InputError);
    expect(() => gaussianGlr(good, 0)).toThrow(/tolerance/);
  });
});

describe('GaussianGlrStream.add(group, value)', () => {
  it('equals gaussianGlr of the running sums after every observation once ready', () => {
    const random = createRandom('gaussian-stream');
    const stream = new GaussianGlrStream();
    stream.reset(0.1);
    const groups: [number[], number[]] = [[], []];
    for (let t = 0; t < 500; t++) {
      const group = random() < 0.5 ? 0 : 1;
      const value = 2 + (group === 1 ? 0.15 : 0) + 0.3 * standardNormal(random);
      groups[group].push(value);
      stream.add(group, value);
      if (!stream.ready) {
        expect(stream.statistic).toBe(0);
        continue;
      }
      const expected = gaussianGlr(sums(groups[0], groups[1]), 0.1);
      expect(Math.abs(stream.statistic - expected)).toBeLessThan(1e-9 * (1 + Math.abs(expected)));
    }
  });

  it('is not ready while the pooled variance is 0 (one value per group, or constant groups)', () => {
    const stream = new GaussianGlrStream();
    stream.reset(0.1);
    stream.add(0, 0.3);
    stream.add(1, 0.9);
    expect(stream.ready).toBe(false);
    expect(stream.statistic).toBe(0);
    stream.add(0, 0.3);
    expect(stream.ready).toBe(false);
    stream.add(0, 0.4);
    expect(stream.ready).toBe(true);
    expect(Number.isFinite(stream.statistic)).toBe(true);
  });
});
