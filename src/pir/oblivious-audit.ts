import { createHash } from 'node:crypto';
import { BernoulliGlrStream } from '../stats/bernoulli-glr-stream.js';
import { countGapDecision } from '../stats/count-gap-comparison.js';
import { sequentialThresholds } from '../stats/thresholds.js';
import { inputError } from '../util/errors.js';
import { type AuditDesign, groupAuditSizes } from '../audit/audit-design.js';
import { partialShuffle, type Random, shuffleInPlace } from '../util/random.js';
import { entryLocation } from './packing.js';
import { PirVerificationError } from './pir-verification-error.js';
import type { ProviderConnection } from './provider-connection.js';

/** Paper B's fixed-size demographic-parity audit, or paper A's sequential GLR audit. */
export type ObliviousTest = 'fixed' | 'sequential';

export interface ObliviousAuditOptions {
  /** The protected attribute of every candidate (0 = group a, 1 = group b), known to the auditor. */
  readonly groups: Uint8Array;
  /** |S| without the canaries. */
  readonly sampleSize: number;
  /** How S is drawn from C (the designs of the respir simulation, src/audit/audit-design.ts). */
  readonly design: AuditDesign;
  /** Candidates whose label the auditor already knows (canaries), planted in S. */
  readonly canaries: ReadonlyArray<{ index: number; label: number }>;
  readonly batchSize: number;
  readonly test: ObliviousTest;
  /** Demographic-parity tolerance ε (δ of paper A). */
  readonly tolerance: number;
  readonly alpha: number;
  readonly beta: number;
}

export interface ObliviousAuditResult {
  readonly test: ObliviousTest;
  /**
   * reject (violation), accept, inconclusive (no verdict: a group has no label in S, or
   * the sequential statistic stayed between its thresholds), or provider-rejected.
   */
  readonly decision: 'reject' | 'accept' | 'inconclusive' | 'provider-rejected';
  /** Why the provider was rejected (verification failure or a wrong canary), or why the audit is inconclusive. */
  readonly reason?: string;
  /** Labels of S the test consumed before deciding. */
  readonly labelsUsed: number;
  /** PIR queries sent (labels of S and canaries, whole batches). */
  readonly pirQueries: number;
  readonly canariesChecked: number;
  /**
   * SHA-256 (hex) of S as drawn (canaries not added), its candidate indices sorted
   * ascending as u32 little-endian: two audits drew the same S iff their digests agree
   * (up to collisions). It names S without listing it (auditSetDigest).
   */
  readonly auditSetDigest: string;
  /**
   * Distinct candidate labels the auditor could decrypt from this test's answers: every
   * entry of every column of D answered (SimplePIR decrypts the whole column), about
   * |S|·ℓ·k for |S| queries on distinct columns, not |S|.
   */
  readonly labelsRevealed: number;
  /** The signed GLR (sequential) or the gap d_S = p_b - p_a (fixed) at the decision. */
  readonly statistic: number;
  readonly gap: number;
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
 * missingGroupReason(counts) names a group with no label in S, or returns undefined
 * when both groups have labels. O(1).
 */
function missingGroupReason(labelCounts: readonly number[]): string | undefined {
  const missing = labelCounts.indexOf(0);
  if (missing < 0) return undefined;
  return `no label of group ${groupNames[missing]} in S: the gap d_S is undefined, and no verdict is given without evidence`;
}

/**
 * auditSetDigest(sample) is the SHA-256 (hex) of the candidate indices of S sorted
 * ascending, each a u32 little-endian: the same for the same set whatever its order. O(n log n).
 */
export function auditSetDigest(sample: readonly number[]): string {
  const sorted = Uint32Array.from(sample).sort();
  return createHash('sha256')
    .update(new Uint8Array(sorted.buffer, sorted.byteOffset, sorted.byteLength))
    .digest('hex');
}

/**
 * drawAuditSet(groups, size, design, random) draws S ⊂ C without replacement:
 * uniformly (paper B §4.1), or stratified by group with the per-group sizes of
 * groupAuditSizes (proportional or balanced, rounded as the respir simulation rounds
 * them), each group's rows by a partial Fisher-Yates shuffle, then S in random order.
 * O(N). Throws InputError unless 2 ≤ size ≤ N.
 */
export function drawAuditSet(groups: Uint8Array, size: number, design: AuditDesign, random: Random): number[] {
  const total = groups.length;
  if (!Number.isInteger(size) || size < 2 || size > total) {
    throw inputError({ where: '--sample-size', expected: `an integer in [2, ${total}]`, found: size });
  }
  if (design === 'uniform') {
    const order = Int32Array.from({ length: total }, (_, i) => i);
    return Array.from(partialShuffle(order, size, random));
  }
  const byGroup: number[][] = [[], []];
  groups.forEach((group, index) => {
    byGroup[group === 1 ? 1 : 0].push(index);
  });
  const counts = groupAuditSizes(design, [byGroup[0].length, byGroup[1].length], size) as [number, number];
  const chosen: number[] = [];
  for (const group of [0, 1]) chosen.push(...partialShuffle(Int32Array.from(byGroup[group]), counts[group], random));
  return shuffleInPlace(random, chosen);
}

/**
 * runObliviousAudit(connection, options, random) is the auditor's online phase of
 * respir (paper B Algorithm 2) through verified PIR: it draws S, plants the
 * canaries at random positions, retrieves labels in batches of PIR queries, checks
 * every answer against the commitment and every canary against its known label, and
 * runs either (a) paper B's fixed-size demographic-parity test on all of S (reject
 * when |d_S| > ε) or (b) paper A's sequential Bernoulli GLR, one label per query,
 * stopping at the first batch where the statistic crosses log((1-β)/α) or
 * log(β/(1-α)). A provider whose answers fail verification or a canary is reported
 * as `provider-rejected`. When S holds no label of one group, both tests end
 * `inconclusive` with that reason (never `accept`: nothing was measured). Throws
 * InputError when the candidate set lacks a group (checkBothGroups).
 * O(|S|·(mn + ℓn)) on the auditor.
 */
export async function runObliviousAudit(
  connection: ProviderConnection,
  options: ObliviousAuditOptions,
  random: Random,
): Promise<ObliviousAuditResult> {
  const { groups, tolerance, batchSize, test } = options;
  if (groups.length !== connection.parameters.entryCount) {
    throw inputError({
      where: 'candidate set',
      expected: `${connection.parameters.entryCount} candidates (the provider's database)`,
      found: groups.length,
    });
  }
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > connection.setup.maxBatch) {
    throw inputError({
      where: '--batch-size',
      expected: `an integer in [1, ${connection.setup.maxBatch}]`,
      found: batchSize,
    });
  }
  checkBothGroups(groups, 'candidate set');
  const thresholds = sequentialThresholds(options.alpha, options.beta);
  const sample = drawAuditSet(groups, options.sampleSize, options.design, random);
  const canaryLabel = new Map(options.canaries.map((canary) => [canary.index, canary.label]));
  const plan: Array<{ index: number; canary: boolean }> = sample
    .filter((index) => !canaryLabel.has(index))
    .map((index) => ({ index, canary: false }));
  for (const canary of options.canaries) {
    plan.splice(Math.floor(random() * (plan.length + 1)), 0, { index: canary.index, canary: true });
  }
  const glr = new BernoulliGlrStream();
  glr.reset(tolerance);
  const counts = [
    [0, 0],
    [0, 0],
  ];
  const sentBefore = connection.traffic.bytesSent;
  const receivedBefore = connection.traffic.bytesReceived;
  const started = performance.now();
  const answeredColumns = new Set<number>();
  let labelsUsed = 0;
  let pirQueries = 0;
  let canariesChecked = 0;
  let statistic = 0;
  let decision: ObliviousAuditResult['decision'] | undefined;
  let reason: string | undefined;
  const gap = () => counts[1][1] / counts[1][0] - counts[0][1] / counts[0][0];
  for (let start = 0; start < plan.length && decision === undefined; start += batchSize) {
    const batch = plan.slice(start, start + batchSize);
    let labels: number[];
    pirQueries += batch.length;
    try {
      labels = await connection.retrieve(batch.map((item) => item.index));
      for (const item of batch) answeredColumns.add(entryLocation(item.index, connection.parameters).column);
    } catch (error) {
      if (!(error instanceof PirVerificationError)) throw error;
      decision = 'provider-rejected';
      reason = error.message;
      break;
    }
    for (let k = 0; k < batch.length && decision === undefined; k++) {
      const { index, canary } = batch[k];
      if (canary) {
        canariesChecked++;
        if (labels[k] !== canaryLabel.get(index)) {
          decision = 'provider-rejected';
          reason = `canary ${index}: the provider's label ${labels[k]} differs from the known label ${canaryLabel.get(index)}`;
        }
        continue;
      }
      const group = groups[index] === 1 ? 1 : 0;
      counts[group][0]++;
      counts[group][1] += labels[k];
      labelsUsed++;
      if (test === 'sequential') {
        glr.add(group, labels[k]);
        statistic = glr.statistic;
        if (glr.ready && statistic >= thresholds.upper) decision = 'reject';
        else if (glr.ready && statistic <= thresholds.lower) decision = 'accept';
      }
    }
  }
  if (decision === undefined) {
    reason = missingGroupReason([counts[0][0], counts[1][0]]);
    if (test === 'fixed') {
      statistic = gap();
      // Exact on counts: a gap of exactly the tolerance passes (H0 is |gap| <= tolerance);
      // an empty group is inconclusive (countGapDecision), with the reason above.
      decision = countGapDecision(counts[0][0], counts[0][1], counts[1][0], counts[1][1], tolerance);
    } else {
      decision = 'inconclusive';
      reason ??= `the statistic stayed between log(β/(1-α)) and log((1-β)/α) after all ${labelsUsed} labels of S`;
    }
  }
  return {
    test,
    decision,
    ...(reason === undefined ? {} : { reason }),
    labelsUsed,
    pirQueries,
    canariesChecked,
    auditSetDigest: auditSetDigest(sample),
    labelsRevealed: connection.labelsRevealed(answeredColumns),
    statistic,
    gap: gap(),
    bytesSent: connection.traffic.bytesSent - sentBefore,
    bytesReceived: connection.traffic.bytesReceived - receivedBefore,
    onlineMs: performance.now() - started,
  };
}
