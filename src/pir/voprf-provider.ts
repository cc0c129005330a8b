import { randomInt } from 'node:crypto';
import { voprfCommitment } from './voprf-commitment.js';
import type { VoprfLabelTable } from './voprf-label-table.js';
import { ELEMENT_BYTES, readEntry, VOPRF } from './voprf-suite.js';

/** How a cheating label-transfer provider departs from its commitment (`pir serve --tamper`). */
export type VoprfTamperMode = 'flip-label' | 'swap-rows' | 'second-database' | 'replay';

/** A request the provider refuses, with the HTTP status the service answers it with. */
export class ProviderRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ProviderRefusal';
  }
}

/** One audit's state on the provider, keyed by the auditor's nonce. */
interface AuditState {
  readonly commitment: string;
  readonly evaluationBudget: number;
  evaluationsUsed: number;
}

/** What the provider counts across audits. */
export interface VoprfProviderCounters {
  audits: number;
  evaluations: number;
  /** Evaluations refused: beyond an audit's budget, for an unknown audit, or of points off the group. */
  evaluationsRefused: number;
}

/** The most audits a provider keeps open at once (each a few dozen bytes); more is a 503. */
export const MAX_OPEN_AUDITS = 100_000;

/**
 * The provider's side of the OPRF label transfer: it serves T, opens one audit per nonce
 * (a commitment and an evaluation budget of at most maxEvaluationsPerAudit), and
 * evaluates blinded elements with one batched DLEQ proof per batch, refusing and counting
 * every evaluation beyond the audit's budget and every element that is not a ristretto255
 * point other than the identity. A second audit never touches the first one's state.
 */
export class VoprfLabelProvider {
  readonly counters: VoprfProviderCounters = { audits: 0, evaluations: 0, evaluationsRefused: 0 };
  private readonly audits = new Map<string, AuditState>();
  private readonly servedTable: Uint8Array;
  private readonly evaluationKey: { secretKey: Uint8Array; publicKey: Uint8Array };
  private firstCommitment?: string;

  /**
   * @param labels the table with its keys
   * @param maxEvaluationsPerAudit the provider's policy: the most labels one audit may learn
   * @param tamper cheat (tests and `pir serve --tamper`): see VoprfTamperMode
   */
  constructor(
    readonly labels: VoprfLabelTable,
    readonly maxEvaluationsPerAudit: number,
    readonly tamper?: VoprfTamperMode,
  ) {
    this.servedTable = tamper === 'flip-label' || tamper === 'swap-rows' ? tamperedTable(labels, tamper) : labels.table;
    this.evaluationKey = tamper === 'second-database' ? VOPRF.generateKeyPair() : labels;
  }

  /** table() is T as this provider serves it (the committed one unless it cheats). */
  table(): Uint8Array {
    return this.servedTable;
  }

  /**
   * open(nonce, evaluationBudget) opens the audit of `nonce` (32 bytes) with its budget
   * and returns its commitment (voprfCommitment over the committed T). Refuses (409) a
   * nonce already opened, (403) a budget above maxEvaluationsPerAudit, (503) when
   * MAX_OPEN_AUDITS are open. A replaying provider returns its first commitment. O(|T|).
   */
  open(nonce: Uint8Array, evaluationBudget: number): string {
    const key = Buffer.from(nonce).toString('hex');
    if (this.audits.has(key)) throw new ProviderRefusal(409, `audit ${key.slice(0, 16)}… is already open`);
    if (evaluationBudget > this.maxEvaluationsPerAudit) {
      throw new ProviderRefusal(
        403,
        `an audit may learn at most ${this.maxEvaluationsPerAudit} labels (the provider's policy), ` +
          `asked ${evaluationBudget}`,
      );
    }
    if (this.audits.size >= MAX_OPEN_AUDITS) throw new ProviderRefusal(503, `${MAX_OPEN_AUDITS} audits are open`);
    const { labels } = this;
    const honest = voprfCommitment({ ...labels, auditorNonce: nonce, evaluationBudget });
    this.firstCommitment ??= honest;
    const commitment = this.tamper === 'replay' ? this.firstCommitment : honest;
    this.audits.set(key, { commitment, evaluationBudget, evaluationsUsed: 0 });
    this.counters.audits++;
    return commitment;
  }

  /**
   * evaluate(nonce, body) evaluates the blinded elements of one batch (32 bytes each, end
   * to end) for the audit of `nonce`: the evaluated elements end to end, then one DLEQ proof
   * (64 bytes). Refuses (404) an unknown audit, (400) a body that is not whole elements or
   * holds a point off the group or the identity, (429) a batch beyond the audit's budget:
   * a refused batch is charged to the budget and counted, so probing gains nothing. O(batch).
   */
  evaluate(nonce: string, body: Uint8Array): Uint8Array {
    const audit = this.audits.get(nonce);
    const count = Math.floor(body.length / ELEMENT_BYTES);
    if (!audit) {
      this.counters.evaluationsRefused += count;
      throw new ProviderRefusal(404, 'no open audit for this nonce: POST /voprf/commit first');
    }
    if (body.length === 0 || body.length % ELEMENT_BYTES !== 0) {
      this.counters.evaluationsRefused += count;
      throw new ProviderRefusal(400, `expected whole 32-byte elements, found ${body.length} bytes`);
    }
    const remaining = audit.evaluationBudget - audit.evaluationsUsed;
    audit.evaluationsUsed = Math.min(audit.evaluationBudget, audit.evaluationsUsed + count);
    if (count > remaining) {
      this.counters.evaluationsRefused += count;
      throw new ProviderRefusal(
        429,
        `this audit's budget is ${audit.evaluationBudget} evaluations; ${remaining} remained, ${count} asked`,
      );
    }
    const blinded = Array.from({ length: count }, (_, k) => body.subarray(k * ELEMENT_BYTES, (k + 1) * ELEMENT_BYTES));
    let result: { evaluated: Uint8Array[]; proof: Uint8Array };
    try {
      result = VOPRF.blindEvaluateBatch(this.evaluationKey.secretKey, this.evaluationKey.publicKey, blinded);
    } catch (error) {
      this.counters.evaluationsRefused += count;
      throw new ProviderRefusal(400, `blinded elements: ${(error as Error).message}`);
    }
    this.counters.evaluations += count;
    const out = new Uint8Array(body.length + result.proof.length);
    for (const [k, element] of result.evaluated.entries()) out.set(element, k * ELEMENT_BYTES);
    out.set(result.proof, body.length);
    return out;
  }

  /** The commitment the audit of `nonce` (hex) was opened with, or undefined. */
  commitment(nonce: string): string | undefined {
    return this.audits.get(nonce)?.commitment;
  }
}

/** T with one entry flipped (flip-label) or two differing entries exchanged (swap-rows). */
function tamperedTable(labels: VoprfLabelTable, mode: 'flip-label' | 'swap-rows'): Uint8Array {
  const out = labels.table.slice();
  const { entryCount, entryBits } = labels;
  const flip = (index: number, mask: number) => {
    const bit = index * entryBits;
    out[bit >>> 3] ^= mask << (bit & 7);
  };
  const first = randomInt(entryCount);
  if (mode === 'flip-label') {
    flip(first, 1);
    return out;
  }
  for (let second = 0; second < entryCount; second++) {
    const difference = readEntry(labels.table, first, entryBits) ^ readEntry(labels.table, second, entryBits);
    if (difference !== 0) {
      flip(first, difference);
      flip(second, difference);
      return out;
    }
  }
  flip(first, 1);
  return out;
}
