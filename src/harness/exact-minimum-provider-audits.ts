import type { AuditDesign } from '../audit/audit-design.js';
import type { AuditPool } from '../audit/pool.js';
import { drawAuditPlan } from '../pir/audit-plan.js';
import { candidateListDigest } from '../pir/candidate-digest.js';
import { runObliviousAudit } from '../pir/oblivious-audit.js';
import { startPoolProvider } from '../pir/provider-from-pool.js';
import { VoprfConnection } from '../pir/voprf-connection.js';
import { candidatePopulationFromColumns } from '../respir/candidate-population.js';
import { detectionProbability } from '../respir/detection-probability.js';
import { type ExactMinimalFlips, exactMinimalFlips } from '../respir/exact-minimal-flips.js';
import { clopperPearsonLower, clopperPearsonUpper } from '../stats/clopper-pearson.js';
import { countGapDecision } from '../stats/count-gap-comparison.js';
import { createCryptoRandom } from '../util/crypto-random.js';
import { inputError } from '../util/errors.js';
import { createRandom, type Random } from '../util/random.js';

/** The audit the exact-minimum provider prepares for, and how many audits measure it. */
export interface ExactMinimumAuditSetting {
  /** The honest candidate set: its `decision` column is the model's labels, which the auditor's canaries know. */
  readonly pool: AuditPool;
  /** n = |S|. */
  readonly auditSetSize: number;
  /** k, canaries of the detection series. */
  readonly canaryCount: number;
  readonly design: AuditDesign;
  /** Demographic-parity tolerance ε. */
  readonly tolerance: number;
  /** 1 − δ: the pass probability the provider buys with its flips. */
  readonly passProbability: number;
  /** Audits in each series (pass series without canaries, detection series with k). */
  readonly audits: number;
  /** Audits of the detection series when it differs from `audits` (a longer pass series alone). */
  readonly detectionAudits?: number;
  readonly batchSize: number;
  /**
   * Where S and the canaries are drawn from: node:crypto (createCryptoRandom) unless given; a seeded generator
   * replays the draws (tests only: a provider that knows the seed knows S).
   */
  readonly random?: Random;
}

/** The provider's manipulation: the exact minimum, and the decisions it serves. */
export interface ExactMinimumManipulation {
  readonly minimum: ExactMinimalFlips;
  /** The pool's decisions with `minimum.changes` applied (rows flipped in index order within each group). */
  readonly decisions: Uint8Array;
  /** Rows whose decision differs from the honest one. */
  readonly flippedRows: number;
}

/** A rate observed over audits, with its two-sided Clopper-Pearson interval and the rate predicted. */
export interface ObservedRate {
  readonly successes: number;
  readonly trials: number;
  readonly rate: number;
  /** Two-sided interval at `confidence` (each side (1 + confidence)/2, clopper-pearson.ts). */
  readonly interval: [number, number];
  readonly confidence: number;
  readonly predicted: number;
  /** predicted lies in the interval. */
  readonly predictedInInterval: boolean;
}

/** What measureExactMinimumProvider returns. */
export interface ExactMinimumProviderMeasurement {
  readonly flips: number;
  readonly changes: [number, number];
  readonly exact: boolean;
  /** The respir check (both groups in S, |d_S| ≤ ε) over audits without canaries, against the exact pass
   * probability. */
  readonly pass: ObservedRate;
  /** Audits with k canaries ended provider-rejected by a wrong canary, against Eq. 3 (q = 1, n = N). */
  readonly detection: ObservedRate;
  /** Audits of the pass series that ended provider-rejected (expected 0: the table is honestly committed). */
  readonly passSeriesRejected: number;
  /** Audits of the detection series rejected for another reason than a wrong canary (expected 0). */
  readonly detectionSeriesOtherRejections: number;
}

/**
 * exactMinimumManipulation(setting) is the cheapest cheat against the oblivious audit:
 * the exact minimum of flips (exactMinimalFlips, strongest adversary, demographic parity)
 * that pass with probability ≥ 1 − δ, applied to the pool's decisions. Which rows of a
 * group are flipped does not change the law of S or of the canaries (both drawn
 * uniformly by the auditor, unseen by the provider), so they are the first eligible rows.
 * O(N) plus the search. Throws InputError when the minimum is not certified or unreachable.
 * @param setting the pool, |S|, the design, ε and 1 − δ
 * @returns the minimum and the manipulated decisions
 * @example
 * const { decisions, minimum } = exactMinimumManipulation({
 *   pool, auditSetSize: 500, canaryCount: 10, design: 'uniform',
 *   tolerance: 0.05, passProbability: 0.8, audits: 200, batchSize: 64,
 * });
 */
export function exactMinimumManipulation(setting: ExactMinimumAuditSetting): ExactMinimumManipulation {
  const { pool } = setting;
  const population = candidatePopulationFromColumns(pool.group, pool.label, pool.decision, 'sp', pool.source);
  const minimum = exactMinimalFlips({
    population,
    auditSetSize: setting.auditSetSize,
    design: setting.design,
    tolerance: setting.tolerance,
    passProbability: setting.passProbability,
  });
  if (minimum.flips === null) {
    throw inputError({
      where: `exact-minimum provider (${pool.source})`,
      expected: 'a setting whose exact minimum of flips is certified and reachable',
      found: minimum.reachable ? `the bracket [${minimum.lowerBound}, ${minimum.upperBound}]` : 'unreachable',
    });
  }
  const decisions = pool.decision.slice();
  const left = [...minimum.changes];
  for (let i = 0; i < pool.size; i++) {
    const group = pool.group[i];
    if (left[group] > 0 && decisions[i] === 0) {
      decisions[i] = 1;
      left[group]--;
    } else if (left[group] < 0 && decisions[i] === 1) {
      decisions[i] = 0;
      left[group]++;
    }
  }
  let flippedRows = 0;
  for (let i = 0; i < pool.size; i++) flippedRows += decisions[i] === pool.decision[i] ? 0 : 1;
  return { minimum, decisions, flippedRows };
}

/**
 * observedRate(successes, trials, predicted, confidence) is the rate with its two-sided
 * Clopper-Pearson interval (each side at (1 + confidence)/2) and whether `predicted`
 * lies in it. O(1) incomplete-beta bisections.
 * @param successes audits with the event
 * @param trials audits
 * @param predicted the computed probability of the event
 * @param confidence the two-sided confidence, e.g. 0.99
 * @returns the observed rate, its interval and the comparison
 * @example observedRate(164, 200, 0.808, 0.99)
 */
export function observedRate(successes: number, trials: number, predicted: number, confidence: number): ObservedRate {
  const side = (1 + confidence) / 2;
  const interval: [number, number] = [
    clopperPearsonLower(successes, trials, side),
    clopperPearsonUpper(successes, trials, side),
  ];
  return {
    successes,
    trials,
    rate: successes / trials,
    interval,
    confidence,
    predicted,
    predictedInInterval: predicted >= interval[0] && predicted <= interval[1],
  };
}

/**
 * measureExactMinimumProvider(setting, onAudit) serves the exact-minimum provider's
 * decisions through the default transport (startPoolProvider: the VOPRF label table,
 * committed per audit) and audits it as `pir audit` does: per audit a fresh plan (S and the
 * canaries from node:crypto), VoprfConnection.connect, runObliviousAudit. Two series of
 * `audits` audits: without canaries (the respir check passes iff the fixed test accepts),
 * and with k canaries (detected iff provider-rejected by a wrong canary). Each rate is compared with its
 * prediction (the exact pass probability; Eq. 3 with q = 1 over N) by a 99% interval.
 * O(audits · (|S| + k)) VOPRF evaluations.
 * @param setting the pool, the audit and the number of audits
 * @param onAudit progress: audits done of audits + detection audits
 * @returns the flips, both rates with their intervals and predictions
 * @example
 * const measurement = await measureExactMinimumProvider(setting, (done, total) => {});
 */
export async function measureExactMinimumProvider(
  setting: ExactMinimumAuditSetting,
  onAudit: (done: number, total: number) => void = () => {},
): Promise<ExactMinimumProviderMeasurement> {
  const { pool } = setting;
  const manipulation = exactMinimumManipulation(setting);
  const served: AuditPool = { ...pool, decision: manipulation.decisions, source: `${pool.source} (exact minimum)` };
  const provider = await startPoolProvider(served, { idleTimeoutMs: 600_000 });
  const candidates = { entryCount: pool.size, entryBits: 1, digest: candidateListDigest(pool.id, pool.group) };
  const draws = setting.random ?? createCryptoRandom();
  const auditOnce = async (canaryCount: number) => {
    const plan = drawAuditPlan(
      {
        groups: pool.group,
        knownLabels: pool.decision,
        auditSetSize: setting.auditSetSize,
        canaryCount,
        design: setting.design,
      },
      draws,
    );
    const connection = await VoprfConnection.connect(provider.service, candidates, plan.order.length);
    const run = await runObliviousAudit(connection, {
      groups: pool.group,
      plan,
      batchSize: setting.batchSize,
      procedures: ['fixed'],
      tolerance: setting.tolerance,
      alpha: 0.05,
      beta: 0.2,
    });
    await connection.close();
    return run.results[0];
  };
  const detectionAudits = setting.detectionAudits ?? setting.audits;
  const total = setting.audits + detectionAudits;
  let passes = 0;
  let passSeriesRejected = 0;
  let detections = 0;
  let otherRejections = 0;
  try {
    for (let audit = 0; audit < setting.audits; audit++) {
      const { decision } = await auditOnce(0);
      passes += decision === 'accept' ? 1 : 0;
      passSeriesRejected += decision === 'provider-rejected' ? 1 : 0;
      onAudit(audit + 1, total);
    }
    for (let audit = 0; audit < detectionAudits; audit++) {
      const { decision, reason } = await auditOnce(setting.canaryCount);
      const rejected = decision === 'provider-rejected';
      detections += rejected && reason?.startsWith('canary ') ? 1 : 0;
      otherRejections += rejected && !reason?.startsWith('canary ') ? 1 : 0;
      onAudit(setting.audits + audit + 1, total);
    }
  } finally {
    await provider.service.close();
  }
  const { minimum } = manipulation;
  const flips = minimum.flips ?? manipulation.flippedRows;
  const eq3 = detectionProbability(manipulation.flippedRows, pool.size, 1, setting.canaryCount);
  return {
    flips,
    changes: minimum.changes,
    exact: minimum.exact,
    pass: observedRate(passes, setting.audits, minimum.passProbability.value, 0.99),
    detection: observedRate(detections, detectionAudits, eq3, 0.99),
    passSeriesRejected,
    detectionSeriesOtherRejections: otherRejections,
  };
}

/**
 * exactMinimumDrawRate(setting, draws) checks the computed pass probability without the transport: per draw, S
 * by drawAuditPlan (as each audit draws it, from node:crypto unless setting.random is given) and the fixed test
 * (countGapDecision) on the exact-minimum provider's decisions of S, which is what an audit decides when every
 * label it reads is the served one. The rate of passes over `draws`, against the exact pass probability (99%
 * interval). O(draws · N).
 * @param setting the pool, the audit (its canaries are not drawn) and the generator
 * @param draws audit sets drawn
 * @returns the observed pass rate with its interval and the prediction
 * @example exactMinimumDrawRate(setting, 200_000).predictedInInterval
 */
export function exactMinimumDrawRate(setting: ExactMinimumAuditSetting, draws: number): ObservedRate {
  const { pool } = setting;
  const { minimum, decisions } = exactMinimumManipulation(setting);
  const random = setting.random ?? createCryptoRandom();
  let passes = 0;
  for (let draw = 0; draw < draws; draw++) {
    const plan = drawAuditPlan(
      {
        groups: pool.group,
        knownLabels: pool.decision,
        auditSetSize: setting.auditSetSize,
        canaryCount: 0,
        design: setting.design,
      },
      random,
    );
    const counts = [
      [0, 0],
      [0, 0],
    ];
    for (const { index } of plan.order) {
      counts[pool.group[index]][0]++;
      counts[pool.group[index]][1] += decisions[index];
    }
    const decision = countGapDecision(counts[0][0], counts[0][1], counts[1][0], counts[1][1], setting.tolerance);
    passes += decision === 'accept' ? 1 : 0;
  }
  return observedRate(passes, draws, minimum.passProbability.value, 0.99);
}

/** The measured exact-minimum workload: 2,000 candidates in groups of 1,200 and 800 with 420 and 400 positives. */
export const EXACT_MINIMUM_WORKLOAD = Object.freeze({
  groupSizes: [1200, 800] as const,
  positives: [420, 400] as const,
  auditSetSize: 500,
  design: 'uniform' as const,
  tolerance: 0.05,
  passProbability: 0.8,
  batchSize: 64,
});

/**
 * exactMinimumWorkloadRecord() is the measured workload as a measurement record states it: the candidates, group
 * sizes, positives, |S|, design, tolerance and pass probability. O(1).
 * @returns the record's description of EXACT_MINIMUM_WORKLOAD
 * @example exactMinimumWorkloadRecord().candidates // 2000
 */
export function exactMinimumWorkloadRecord() {
  const { groupSizes, positives, auditSetSize, design, tolerance, passProbability } = EXACT_MINIMUM_WORKLOAD;
  return {
    candidates: groupSizes[0] + groupSizes[1],
    groupSizes: [...groupSizes],
    positives: [...positives],
    auditSetSize,
    design,
    tolerance,
    passProbability,
  };
}

/**
 * exactMinimumWorkloadSetting(audits, canaryCount, detectionAudits) is the measured workload
 * (EXACT_MINIMUM_WORKLOAD on its counted pool) as an ExactMinimumAuditSetting, for the scripts
 * that audit it and that draw its audit sets. O(N).
 * @param audits audits per series
 * @param canaryCount k
 * @param detectionAudits audits of the detection series, when not `audits`
 * @returns the setting
 * @example exactMinimumWorkloadSetting(300, 10).auditSetSize // 500
 */
export function exactMinimumWorkloadSetting(
  audits: number,
  canaryCount: number,
  detectionAudits?: number,
): ExactMinimumAuditSetting {
  const { groupSizes, positives, ...rest } = EXACT_MINIMUM_WORKLOAD;
  return {
    pool: countedPool([...groupSizes], [...positives], 'exact-minimum-provider'),
    ...rest,
    canaryCount,
    audits,
    ...(detectionAudits === undefined ? {} : { detectionAudits }),
  };
}

/**
 * countedPool(groupSizes, positives, seed) is a candidate set with exactly these group
 * sizes and decision-1 counts, rows in a seeded random order, ids 0..N-1 (labels equal
 * decisions). O(N).
 * @param groupSizes N₀ and N₁
 * @param positives decision-1 rows per group
 * @param seed the order's seed
 * @returns the pool
 * @example countedPool([1200, 800], [420, 400], 'exact-minimum')
 */
export function countedPool(
  groupSizes: readonly [number, number],
  positives: readonly [number, number],
  seed: string,
): AuditPool {
  const size = groupSizes[0] + groupSizes[1];
  const rows: Array<[number, number]> = [];
  for (const group of [0, 1]) {
    for (let i = 0; i < groupSizes[group]; i++) rows.push([group, i < positives[group] ? 1 : 0]);
  }
  const random = createRandom(seed);
  for (let i = size - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [rows[i], rows[j]] = [rows[j], rows[i]];
  }
  const group = Uint8Array.from(rows, (row) => row[0]);
  const decision = Uint8Array.from(rows, (row) => row[1]);
  const id = Int32Array.from({ length: size }, (_, i) => i);
  return { size, group, label: decision.slice(), decision, score: null, logit: null, id, source: seed };
}
