import type { ShuffledQueryOrder } from '../query-order.js';

/** Decisions of a batch of simulated audits, and their query counts. Adds up across chunks. */
export interface OutcomeCounts {
  paths: number;
  reject: number;
  accept: number;
  inconclusive: number;
  /** Sum of the queries of all paths. */
  queries: number;
}

/** How the certification audits run: the GLR test's settings. */
export interface CertificationSettings {
  readonly tolerance: number;
  readonly budget: number;
  readonly minimumPerGroup: number;
  readonly order: ShuffledQueryOrder;
  readonly upper: number;
  readonly lower: number;
}
