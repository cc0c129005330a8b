import { BernoulliGlrStream } from '../stats/bernoulli-glr-stream.js';
import { countGapDecision, countGapExceedsTolerance } from '../stats/count-gap-comparison.js';
import { sequentialThresholds } from '../stats/thresholds.js';
import { inputError } from '../util/errors.js';
import { type AuditPlan, auditSetDigest } from './audit-plan.js';
import type { LabelTransport } from './label-transport.js';
import { PirVerificationError } from './pir-verification-error.js';

/** Paper B's fixed-size demographic-parity audit, or paper A's sequential GLR audit. */
export type ObliviousProcedure = 'fixed' | 'sequential';

/** What runObliviousAudit needs beyond the connection: the groups, |S| and its design, the canaries, the batch size,
 * the test, the tolerance. */
export interface ObliviousAuditOptions {
  /** The protected attribute of every candidate (0 = group a, 1 = group b), known to the auditor. */
  readonly groups: Uint8Array;
  /** S, the canaries and their retrieval order (drawAuditPlan). */
  readonly plan: AuditPlan;
  readonly batchSize: number;
  /** The procedures run on the one stream of labels of S, in order. */
  readonly procedures: readonly ObliviousProcedure[];
  /** Demographic-parity tolerance ε (δ of paper A). */
  readonly tolerance: number;
  readonly alpha: number;
  readonly beta: number;
  /**
   * K, the number of group codes (groupCountOf(pool)); 2 when absent. With K > 2 the fixed
   * audit judges the max-gap max_g p_g − min_g p_g of S and the sequential one is refused.
   */
  readonly groupCount?: number;
}

/** One procedure's verdict. */
export interface ObliviousAuditResult {
  readonly procedure: ObliviousProcedure;
  /**
   * reject (violation), accept, inconclusive (no verdict: a group has no label in S, or
   * the sequential statistic stayed between its thresholds), or provider-rejected.
   */
  readonly decision: 'reject' | 'accept' | 'inconclusive' | 'provider-rejected';
  /** Why the provider was rejected (verification failure or a wrong canary), or why the audit is inconclusive. */
  readonly reason?: string;
  /** Labels of S the procedure consumed before deciding. */
  readonly labelsUsed: number;
  /** The signed GLR (sequential) or the gap d_S = p_b - p_a (fixed; with K > 2 groups the max-gap of S) at the
   * decision. */
  readonly statistic: number;
  readonly gap: number;
}

/** One audit: the procedures' verdicts on one S, and what it cost and revealed. */
export interface ObliviousAuditRun {
  readonly results: ObliviousAuditResult[];
  /** Labels retrieved (of S and canaries, whole batches). */
  readonly labelsRetrieved: number;
  readonly canariesChecked: number;
  /**
   * SHA-256 (hex) of S as drawn (canaries not added), its candidate indices sorted
   * ascending as u32 little-endian: two audits drew the same S iff their digests agree
   * (up to collisions). It names S without listing it (auditSetDigest).
   */
  readonly auditSetDigest: string;
  /** Distinct labels the auditor could read from all it received (the transport's honest count). */
  readonly labelsRevealed: number;
  readonly bytesSent: number;
  readonly bytesReceived: number;
  readonly onlineMs: number;
}

const groupNames = ['a (group = 0)', 'b (group = 1)'] as const;

/**
 * checkBothGroups(groups, where) throws InputError naming `where` unless the candidate
 * set holds rows of both groups: with one group the demographic-parity gap is undefined
 * and no audit can measure it (`fairaudit audit` refuses such a pool the same way). O(N).
 */
export function checkBothGroups(groups: Uint8Array, where: string): void {
  let inB = 0;
  for (let i = 0; i < groups.length; i++) inB += groups[i] === 1 ? 1 : 0;
  if (inB === 0 || inB === groups.length) {
    throw inputError({
      where,
      expected: 'candidates of both groups (group = 0 and group = 1)',
      found: `no row of group ${groupNames[inB === 0 ? 1 : 0]} among ${groups.length} candidates`,
    });
  }
}

/**
 * checkEveryGroup(groups, groupCount, where) throws InputError naming `where` unless the
 * candidate set holds rows of every group code 0..K−1 (and no other code): the max-gap
 * needs every group's rate. O(N).
 * @param groups each candidate's group code
 * @param groupCount K
 * @param where names the candidate set in the message
 * @returns nothing; throws on a group without candidates or a code ≥ K
 * @example
 * checkEveryGroup(pool.group, groupCountOf(pool), 'outputs.arrow: column group');
 */
export function checkEveryGroup(groups: Uint8Array, groupCount: number, where: string): void {
  const rows = new Array<number>(groupCount).fill(0);
  for (let i = 0; i < groups.length; i++) {
    if (groups[i] >= groupCount) {
      throw inputError({
        where: `${where}, row ${i}`,
        expected: `a group code 0..${groupCount - 1}`,
        found: groups[i],
      });
    }
    rows[groups[i]]++;
  }
  const missing = rows.indexOf(0);
  if (missing >= 0) {
    throw inputError({
      where,
      expected: `candidates of every one of the ${groupCount} groups`,
      found: `no row of group ${missing} among ${groups.length} candidates`,
    });
  }
}

/**
 * missingGroupReason(counts) names a group with no label in S, or returns undefined
 * when every group has labels. O(K).
 */
function missingGroupReason(labelCounts: readonly number[]): string | undefined {
  const missing = labelCounts.indexOf(0);
  if (missing < 0) return undefined;
  const name = labelCounts.length === 2 ? groupNames[missing] : String(missing);
  return `no label of group ${name} in S: the gap d_S is undefined, and no verdict is given without evidence`;
}

/** exceedsMaxGap(counts, tolerance): some pair of groups' rates differs by more than ε, compared exactly. O(K²). */
function exceedsMaxGap(counts: readonly number[][], tolerance: number): boolean {
  for (let i = 0; i < counts.length; i++) {
    for (let j = i + 1; j < counts.length; j++) {
      if (countGapExceedsTolerance(counts[i][0], counts[i][1], counts[j][0], counts[j][1], tolerance)) return true;
    }
  }
  return false;
}

/** One procedure's running state over the stream of labels. */
class ProcedureState {
  readonly glr = new BernoulliGlrStream();
  readonly counts: number[][];
  labelsUsed = 0;
  statistic = 0;
  decision: ObliviousAuditResult['decision'] | undefined;
  reason: string | undefined;

  constructor(
    readonly procedure: ObliviousProcedure,
    readonly tolerance: number,
    private readonly thresholds: { upper: number; lower: number },
    groupCount: number,
  ) {
    this.counts = Array.from({ length: groupCount }, () => [0, 0]);
    this.glr.reset(tolerance);
  }

  /** p_b − p_a with two groups; the max-gap max_g p_g − min_g p_g with more. */
  gap(): number {
    const { counts } = this;
    if (counts.length === 2) return counts[1][1] / counts[1][0] - counts[0][1] / counts[0][0];
    const rates = counts.map(([rows, ones]) => ones / rows);
    return Math.max(...rates) - Math.min(...rates);
  }

  /** add(group, label) consumes one label of S unless decided. */
  add(group: number, label: number): void {
    if (this.decision !== undefined) return;
    this.counts[group][0]++;
    this.counts[group][1] += label;
    this.labelsUsed++;
    if (this.procedure !== 'sequential') return;
    this.glr.add(group, label);
    this.statistic = this.glr.statistic;
    if (this.glr.ready && this.statistic >= this.thresholds.upper) this.decision = 'reject';
    else if (this.glr.ready && this.statistic <= this.thresholds.lower) this.decision = 'accept';
  }

  /** finish() decides at the end of S: the fixed test on all of it, or the sequential one inconclusive. */
  finish(): ObliviousAuditResult {
    if (this.decision === undefined) {
      const { counts } = this;
      this.reason = missingGroupReason(counts.map(([rows]) => rows));
      if (this.procedure === 'fixed' && counts.length > 2) {
        this.statistic = this.gap();
        // Every pair exactly, as two groups are compared: a max-gap of exactly ε passes.
        if (this.reason !== undefined) this.decision = 'inconclusive';
        else this.decision = exceedsMaxGap(counts, this.tolerance) ? 'reject' : 'accept';
      } else if (this.procedure === 'fixed') {
        this.statistic = this.gap();
        // Exact on counts: a gap of exactly the tolerance passes (H0 is |gap| <= tolerance);
        // an empty group is inconclusive (countGapDecision), with the reason above.
        this.decision = countGapDecision(counts[0][0], counts[0][1], counts[1][0], counts[1][1], this.tolerance);
      } else {
        this.decision = 'inconclusive';
        this.reason ??=
          `the statistic stayed between log(β/(1-α)) and log((1-β)/α) after ` + `all ${this.labelsUsed} labels of S`;
      }
    }
    return {
      procedure: this.procedure,
      decision: this.decision,
      ...(this.reason === undefined ? {} : { reason: this.reason }),
      labelsUsed: this.labelsUsed,
      statistic: this.statistic,
      gap: this.gap(),
    };
  }
}

/** Checks the transport's size and the batch size against the provider's setup (InputError). */
function checkAuditOptions(transport: LabelTransport, options: ObliviousAuditOptions): void {
  if (options.groups.length !== transport.entryCount) {
    throw inputError({
      where: 'candidate set',
      expected: `${transport.entryCount} candidates (the provider's database)`,
      found: options.groups.length,
    });
  }
  if (!Number.isInteger(options.batchSize) || options.batchSize < 1 || options.batchSize > transport.maxBatch) {
    throw inputError({
      where: '--batch-size',
      expected: `an integer in [1, ${transport.maxBatch}]`,
      found: options.batchSize,
    });
  }
  const groupCount = options.groupCount ?? 2;
  if (groupCount === 2) {
    checkBothGroups(options.groups, 'candidate set');
    return;
  }
  checkEveryGroup(options.groups, groupCount, 'candidate set');
  if (options.procedures.includes('sequential')) {
    throw inputError({
      where: '--procedure',
      expected: `fixed for a candidate set of ${groupCount} groups (the sequential GLR audit compares two groups)`,
      found: options.procedures.join(', '),
    });
  }
}

/**
 * runObliviousAudit(transport, options) is the auditor's online phase of respir (paper B
 * Algorithm 2) through a verified label transport: it retrieves the labels of the plan
 * (S and the canaries in their secret order) in batches, checks every canary against its
 * known label, and feeds the labels of S to each procedure: (a) paper B's fixed-size
 * demographic-parity test on all of S (reject when |d_S| > ε), (b) paper A's sequential
 * Bernoulli GLR, one label at a time, stopping at the first label where the statistic
 * crosses log((1-β)/α) or log(β/(1-α)). Retrieval stops once every procedure has decided.
 * At the first failed verification or wrong canary every procedure is `provider-rejected`
 * and nothing more is asked. When S holds no label of one group, both end `inconclusive`
 * with that reason. With K > 2 groups (options.groupCount) the fixed test rejects when the
 * max-gap of S exceeds ε (every pair compared exactly), and the sequential one is refused.
 * Throws InputError when the candidate set lacks a group or does not match the provider's.
 * O(|S|) retrievals.
 * @param transport the auditor's label transport (a VoprfConnection, or the SimplePIR connection)
 * @param options the candidates' groups, the plan of S and the canaries, tolerance, batch size and procedure
 * @returns each procedure's verdict, the labels retrieved and what the provider saw
 * @example
 * const audit = await runObliviousAudit(connection, { groups, plan, batchSize: 64, procedures: ['fixed'], tolerance:
 * 0.05, alpha: 0.05, beta: 0.2 });
 */
export async function runObliviousAudit(
  transport: LabelTransport,
  options: ObliviousAuditOptions,
): Promise<ObliviousAuditRun> {
  checkAuditOptions(transport, options);
  const { groups, plan, batchSize } = options;
  const thresholds = sequentialThresholds(options.alpha, options.beta);
  const groupCount = options.groupCount ?? 2;
  const states = options.procedures.map(
    (procedure) => new ProcedureState(procedure, options.tolerance, thresholds, groupCount),
  );
  const canaryLabel = new Map(plan.canaries.map((canary) => [canary.index, canary.label]));
  const sentBefore = transport.traffic.bytesSent;
  const receivedBefore = transport.traffic.bytesReceived;
  const started = performance.now();
  let labelsRetrieved = 0;
  let canariesChecked = 0;
  let rejection: string | undefined;
  const undecided = () => states.some((state) => state.decision === undefined || state.procedure === 'fixed');
  for (let start = 0; start < plan.order.length && rejection === undefined && undecided(); start += batchSize) {
    const batch = plan.order.slice(start, start + batchSize);
    let labels: number[];
    labelsRetrieved += batch.length;
    try {
      labels = await transport.retrieve(batch.map((item) => item.index));
    } catch (error) {
      if (!(error instanceof PirVerificationError)) throw error;
      rejection = error.message;
      break;
    }
    for (let k = 0; k < batch.length && rejection === undefined; k++) {
      const { index, canary } = batch[k];
      if (!canary) {
        const group = groupCount === 2 ? (groups[index] === 1 ? 1 : 0) : groups[index];
        for (const state of states) state.add(group, labels[k]);
        continue;
      }
      canariesChecked++;
      if (labels[k] !== canaryLabel.get(index)) {
        rejection =
          `canary ${index}: the provider's label ${labels[k]} differs from the known ` +
          `label ${canaryLabel.get(index)}`;
      }
    }
  }
  const results = states.map((state) => {
    const result = state.finish();
    return rejection === undefined ? result : { ...result, decision: 'provider-rejected' as const, reason: rejection };
  });
  return {
    results,
    labelsRetrieved,
    canariesChecked,
    auditSetDigest: auditSetDigest(plan.auditSet),
    labelsRevealed: transport.labelsRevealed(),
    bytesSent: transport.traffic.bytesSent - sentBefore,
    bytesReceived: transport.traffic.bytesReceived - receivedBefore,
    onlineMs: performance.now() - started,
  };
}
