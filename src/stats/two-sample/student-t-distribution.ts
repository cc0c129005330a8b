import { regularizedIncompleteBeta } from '../regularized-incomplete-beta.js';
import { normalQuantile, normalUpperTail } from './normal-distribution.js';

/**
 * studentTUpperTail(t, degreesOfFreedom) is P(T > t) for Student's t with that many
 * degrees of freedom (scipy.stats.t.sf): ½·I_{ν/(ν+t²)}(ν/2, ½) for t >= 0. Infinite
 * degrees of freedom give the normal tail. O(one incomplete beta).
 *
 * @param t - the statistic
 * @param degreesOfFreedom - ν > 0 (may be fractional, as Welch's are)
 * @returns the upper-tail probability
 * @example studentTUpperTail(2.0, 10) // 0.03669401738537...
 */
export function studentTUpperTail(t: number, degreesOfFreedom: number): number {
  if (Number.isNaN(t)) return Number.NaN;
  if (!Number.isFinite(degreesOfFreedom)) return normalUpperTail(t);
  const half =
    0.5 * regularizedIncompleteBeta(degreesOfFreedom / (degreesOfFreedom + t * t), degreesOfFreedom / 2, 0.5);
  return t >= 0 ? half : 1 - half;
}

/**
 * studentTQuantile(p, degreesOfFreedom) is the t with P(T <= t) = p (scipy.stats.t.ppf),
 * by bisection to 1e-12. Kernel: p in (0, 1), ν > 0. O(100 incomplete betas).
 *
 * @param p - a probability in (0, 1)
 * @param degreesOfFreedom - ν > 0
 * @returns the quantile
 * @example studentTQuantile(0.975, 10) // 2.2281388519649385
 */
export function studentTQuantile(p: number, degreesOfFreedom: number): number {
  if (!Number.isFinite(degreesOfFreedom)) return normalQuantile(p);
  let low = -1e6;
  let high = 1e6;
  for (let i = 0; i < 300 && high - low > 1e-12 * Math.max(1, Math.abs(low)); i++) {
    const middle = 0.5 * (low + high);
    if (1 - studentTUpperTail(middle, degreesOfFreedom) < p) low = middle;
    else high = middle;
  }
  return 0.5 * (low + high);
}
