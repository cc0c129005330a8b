/**
 * A sequential GLR statistic kept up to date one observation at a time from running
 * sufficient statistics, so a sequential audit of T queries costs O(T).
 */
export interface GlrStream {
  /** Forgets every observation and sets the tolerance of H0: |gap| <= tolerance. */
  reset(tolerance: number): void;
  /**
   * Folds in one observation of group 0 (a) or 1 (b) and brings `statistic` up to date.
   * O(1), no allocation (it returns nothing, so no number is boxed per call).
   */
  add(group: number, value: number): void;
  /** The signed statistic after the last add(); 0 while it is not defined (see `ready`). Read-only for callers. */
  statistic: number;
  /** True once the statistic is defined (both groups observed, and for the Gaussian a positive pooled variance). */
  readonly ready: boolean;
}

/** A stream's queryShuffled() `crossing` when it stopped at a NaN statistic (the caller throws). */
export const QUERY_NAN = 2;
