/**
 * What the auditor observes of each queried row (paper A section 3.4): the hard
 * decision (Bernoulli GLR on the decision gap, tolerance delta), the score or the logit
 * (Gaussian proxy GLR on the mean gap, each with its own operational tolerance).
 */
export type AccessRegime = 'decision' | 'score' | 'logit';
export const ACCESS_REGIMES: readonly AccessRegime[] = ['decision', 'score', 'logit'];

/** The likelihood family of an access regime. */
export function accessFamily(access: AccessRegime): 'bernoulli' | 'gaussian' {
  return access === 'decision' ? 'bernoulli' : 'gaussian';
}
