/**
 * The orders in which an audit queries the pool: 'random' (a uniform permutation, paper A),
 * 'balanced' (groups alternate, each in uniform random order: BalancedOrder) or 'given' (the
 * pool's own order; not valid for the calibrated, betting and confidence-sequence tests,
 * whose guarantees need rows drawn at random).
 */
export const QUERY_ORDERS = ['random', 'balanced', 'given'] as const;
export type QueryOrder = (typeof QUERY_ORDERS)[number];

/** The query orders that draw rows at random: the ones a replicated audit, a calibration and the anytime-valid tests
 * take. */
export const SHUFFLED_QUERY_ORDERS = ['random', 'balanced'] as const;
export type ShuffledQueryOrder = (typeof SHUFFLED_QUERY_ORDERS)[number];

/** isShuffledOrder(order) says whether an order draws rows at random ('random' or 'balanced'). O(1). */
export function isShuffledOrder(order: unknown): order is ShuffledQueryOrder {
  return order === 'random' || order === 'balanced';
}
