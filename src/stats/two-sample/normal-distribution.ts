/**
 * The complementary error function erfc(x) for x >= 0: the power series of erf below
 * 2.5, Lentz's continued fraction of erfc above (Abramowitz & Stegun 7.1.5, 7.1.14),
 * relative error below 1e-13.
 */
function erfcNonNegative(x: number): number {
  if (x < 2.5) {
    let term = x;
    let sum = x;
    for (let n = 1; n < 200; n++) {
      term *= (-x * x) / n;
      const next = term / (2 * n + 1);
      sum += next;
      if (Math.abs(next) < 1e-17 * Math.abs(sum)) break;
    }
    return 1 - (2 / Math.sqrt(Math.PI)) * sum;
  }
  // erfc(x) = exp(-x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))), modified Lentz.
  const tiny = 1e-300;
  let f = x;
  let c = x;
  let d = 0;
  for (let k = 1; k < 500; k++) {
    const a = k / 2;
    d = x + a * d;
    d = Math.abs(d) < tiny ? tiny : d;
    c = x + a / c;
    c = Math.abs(c) < tiny ? tiny : c;
    d = 1 / d;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(-x * x) / Math.sqrt(Math.PI) / f;
}

/**
 * normalUpperTail(z) is P(Z > z) for a standard normal Z (scipy.stats.norm.sf), accurate
 * far into both tails. O(1).
 *
 * @param z - any number (NaN gives NaN)
 * @returns the upper-tail probability
 * @example normalUpperTail(1.959963984540054) // 0.025
 */
export function normalUpperTail(z: number): number {
  if (Number.isNaN(z)) return Number.NaN;
  return z >= 0 ? 0.5 * erfcNonNegative(z / Math.SQRT2) : 1 - 0.5 * erfcNonNegative(-z / Math.SQRT2);
}

/**
 * normalQuantile(p) is the z with P(Z <= z) = p (scipy.stats.norm.ppf), by bisection on
 * normalUpperTail to 1e-14. Kernel: p in (0, 1). O(100 tail evaluations).
 *
 * @param p - a probability in (0, 1)
 * @returns the standard normal quantile
 * @example normalQuantile(0.975) // 1.959963984540054
 */
export function normalQuantile(p: number): number {
  let low = -40;
  let high = 40;
  for (let i = 0; i < 200 && high - low > 1e-14; i++) {
    const middle = 0.5 * (low + high);
    if (1 - normalUpperTail(middle) < p) low = middle;
    else high = middle;
  }
  return 0.5 * (low + high);
}
