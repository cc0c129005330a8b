import type { LabelTransportName } from './provider-service.js';

/** Bytes and time spent talking to the provider, before the labels (offline) and for them. */
export interface TrafficCounters {
  offlineBytesReceived: number;
  offlineBytesSent: number;
  bytesSent: number;
  bytesReceived: number;
  offlineMs: number;
}

/**
 * What the auditor's online phase (runObliviousAudit) talks through, whatever the
 * transport: labels retrieved in batches, verified or refused with PirVerificationError,
 * and an honest count of the labels the auditor could read from what it received.
 */
export interface LabelTransport {
  readonly transport: LabelTransportName;
  readonly url: string;
  /** N, the candidates the provider labels. */
  readonly entryCount: number;
  /** The largest batch the provider answers in one request. */
  readonly maxBatch: number;
  readonly traffic: TrafficCounters;
  /**
   * retrieve(indices) returns the labels of the candidates in order, every one verified
   * against this audit's commitment; throws PirVerificationError otherwise.
   */
  retrieve(indices: readonly number[]): Promise<number[]>;
  /** labelsRevealed() counts the distinct labels the auditor could read from every message so far. */
  labelsRevealed(): number;
  /** close() ends this audit on the provider (it may forget the audit's state). */
  close(): Promise<void>;
}
