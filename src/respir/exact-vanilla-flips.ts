import { decimalFraction } from '../stats/count-gap-comparison.js';
import { inputError } from '../util/errors.js';
import { fewestFlipsToGapKernel, type Manipulation } from './adversary.js';
import { type GroupCounts, validateGroupCounts } from './group-counts.js';

/**
 * exactVanillaFlips(auditCounts, tolerance) is the exact counterpart of paper B's
 * Proposition 1 (Eq. 2): the fewest output flips on the audit set S — which the vanilla
 * provider sees — after which |d_S| ≤ ε, compared exactly on counts as the audit does
 * (ε taken as the decimal it prints as: |x₁n₀ − x₀n₁| ≤ ⌊p·n₀n₁/q⌋ for ε = p/q). It is
 * the adversary's optimum over net flips per group (fewestFlipsToGapKernel) at that
 * integer bound. It equals ⌈(|d_S| − ε)·n_min⌉ whenever the smaller group has that many
 * outputs to flip the useful way and its step 1/n_min is at most 2ε (each such flip moves
 * d_S by exactly 1/n_min, the most any flip can, and the last one cannot jump over
 * [−ε, ε]; test/respir/exact-vanilla-flips.test.ts checks it). It exceeds it when that
 * group runs out, or when 1/n_min > 2ε and flips of the larger group (1/n_max each) must
 * finish the job (e.g. n = (127, 13), positives (55, 10), ε = 0.02: 6, not 5). Returns
 * null when no flips reach the tolerance. O(min(n₀, n₁)). Throws InputError on bad
 * counts or a negative tolerance.
 * @param auditCounts the audit set's group sizes and positives
 * @param tolerance ε
 * @returns the fewest flips that bring |d_S| within ε, or null when no flips can
 * @example
 * exactVanillaFlips({ sizes: [200, 100], positives: [60, 50] }, 0.05);
 */
export function exactVanillaFlips(auditCounts: GroupCounts, tolerance: number): Manipulation | null {
  validateGroupCounts(auditCounts, 'exactVanillaFlips: auditCounts');
  if (!(Number.isFinite(tolerance) && tolerance >= 0)) {
    throw inputError({ where: 'exactVanillaFlips: tolerance', expected: 'a finite tolerance ≥ 0', found: tolerance });
  }
  const [n0, n1] = auditCounts.sizes;
  const product = n0 * n1;
  const fraction = decimalFraction(tolerance);
  const scaled = (fraction.numerator * BigInt(product)) / fraction.denominator;
  const limit = scaled > BigInt(product) ? product : Number(scaled);
  // The kernel accepts |D − x·n₀ − y·n₁| ≤ target·n₀n₁·(1 + 1e-12) + 1e-9 on integers:
  // with target = limit/(n₀n₁) that is exactly ≤ limit while limit·1e-12 < 1.
  return fewestFlipsToGapKernel(auditCounts, limit / product);
}
