/**
 * empiricalBernsteinPenalty(bet, range) is psi_b(lambda) = (-log(1 - b lambda) - b lambda) / b^2
 * with b = range, the coefficient of the squared deviation in the empirical-Bernstein
 * lower bound of a bet's log-wealth:
 *
 *   log(1 + lambda z) >= lambda z - psi_b(lambda) z^2   for z >= -b and 0 <= lambda < 1/b.
 *
 * For b = 1 this is the inequality log(1 + lambda z) >= lambda z + (log(1 - lambda) + lambda) z^2 of Fan,
 * Grama & Liu (2015, Stochastic Processes and their Applications 125, the lemma behind
 * their Bernstein-type martingale bounds), which Howard et al. (2021) and Waudby-Smith &
 * Ramdas (2024, JRSS-B, "predictable plug-in empirical Bernstein") use with
 * psi_E(lambda) = psi_1(lambda) / 4 and v = 4 z^2. The range-b form follows by applying it
 * to z / b with bet b lambda. A smaller b (a value that can fall at most b below the
 * centre) gives a smaller penalty: psi_b(lambda) decreases to lambda^2 / 2 as b -> 0, which
 * is also the value used at b = 0 (then z >= 0 and log(1 + y) >= y - y^2 / 2).
 *
 * Kernel: no validation (bet >= 0, 0 <= range, bet * range < 1). O(1), one log1p.
 */
export function empiricalBernsteinPenalty(bet: number, range: number): number {
  const y = bet * range;
  if (y < 1e-3) {
    // psi(y) / b^2 = lambda^2 (1/2 + y/3 + y^2/4 + y^3/5 + ...); the cut at y^3 leaves a
    // relative error below y^4 / 6 < 2e-13 here, where the closed form would cancel.
    return bet * bet * (0.5 + y * (1 / 3 + y * (0.25 + y * 0.2)));
  }
  return (-Math.log1p(-y) - y) / (range * range);
}
