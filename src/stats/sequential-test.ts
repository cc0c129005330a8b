/**
 * A sequential test of the tolerance null H0: |gap| <= tolerance, fed one observation at a
 * time: `verdict` says after each add() whether to stop. The GLR with thresholds
 * (glr-threshold-test.ts), the two-sample betting test (two-sample-betting-test.ts) and
 * the confidence-sequence test (gap-confidence-sequence-test.ts) implement it, so one
 * audit loop (src/audit/run-test-audit.ts) runs any of them.
 */
export interface SequentialTest {
  /** Forgets every observation (the settings fixed at construction stay). */
  reset(): void;
  /** Folds in one observation of group 0 (a) or 1 (b); O(1) amortised, no allocation. */
  add(group: number, value: number): void;
  /** CONTINUE (0), REJECT (1: violation) or ACCEPT (-1: compliance) after the last add(). */
  readonly verdict: number;
  /**
   * The confidence interval for the gap (mean of b minus mean of a) the test keeps, if it
   * keeps one (the confidence-sequence test: valid at every time, at level 1 - alpha).
   */
  gapInterval?(): readonly [number, number];
}

/** No decision yet. */
export const CONTINUE = 0;
/** Reject H0: a violation of the tolerance. */
export const REJECT = 1;
/** Accept H0: compliance with the tolerance. */
export const ACCEPT = -1;
