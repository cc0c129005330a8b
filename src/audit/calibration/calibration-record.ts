import { createHash } from 'node:crypto';
import { canonicalJson } from '../../util/canonical-json.js';
import { inputError } from '../../util/errors.js';
import type { CalibrationResult } from './calibrate-glr-thresholds.js';
import type { CalibrationPlan, CalibrationSetting } from './calibration-plan.js';
import type { CellError } from './choose-thresholds.js';

/**
 * The version of the calibration's definition inside a fingerprint: bump it when the
 * procedure changes what it computes, so cached calibrations of an older procedure are
 * not reused.
 */
export const CALIBRATION_FORMAT = 'fairaudit-calibration/2';

/** An error rate with its binomial Monte Carlo standard error. */
export interface RateWithError {
  readonly rate: number;
  readonly standardError: number;
}

/** The calibrated test's outcomes on one price pool (gap 0, or a clear violation at 2 tolerance). */
export interface PricePoint {
  readonly pool: string;
  readonly gap: number;
  readonly audits: number;
  readonly reject: RateWithError;
  readonly accept: RateWithError;
  readonly inconclusive: RateWithError;
  readonly meanQueries: number;
}

/**
 * A calibration as saved and printed: what was calibrated (the setting without its values,
 * which the fingerprint covers by their digest), how (the resolved options), the thresholds
 * with their Monte Carlo uncertainty, the certificate and the price. Only deterministic
 * content (no times), so equal calibrations are equal files.
 */
export interface CalibrationRecord {
  readonly format: typeof CALIBRATION_FORMAT;
  readonly fingerprint: string;
  readonly setting: Omit<CalibrationSetting, 'group' | 'value'> & { readonly values: string | null };
  readonly options: {
    readonly seed: string;
    readonly paths: number;
    readonly certificationPaths: number;
    readonly confidence: number;
    readonly rounds: number;
    readonly chunkPaths: number;
    readonly grid: CalibrationPlan['grid'];
    readonly baseRates: readonly number[] | null;
  };
  readonly pools: number;
  readonly upper: number;
  readonly lower: number;
  /** True when fresh simulations certified both error bounds at the chosen thresholds. */
  readonly certified: boolean;
  /**
   * Monte Carlo uncertainty of the thresholds on the tuning simulations: upper thresholds
   * below upperInterval[0] give a worst-pool rejection rate significantly above alpha, from
   * upperInterval[1] on one significantly below it (two-sided 95% Clopper-Pearson);
   * lowerInterval likewise for beta. null where the grid ends first.
   */
  readonly upperInterval: readonly [number | null, number | null];
  readonly lowerInterval: readonly [number | null, number | null];
  /** Per-bound confidence (simultaneous over pools and rounds at options.confidence). */
  readonly testConfidence: number;
  readonly certificationRounds: number;
  /** The worst compliant pool (largest rejection bound) and worst violating pool of the last certification. */
  readonly worstReject: CellError | null;
  readonly worstAccept: CellError | null;
  readonly meanQueries: number;
  /** P(reject), P(accept), P(inconclusive) of the calibrated test at gap 0 and at gap 2 tolerance. */
  readonly price: readonly PricePoint[];
}

/** sha256 of the group and value bytes of a score / logit setting (null for decision access). */
function valuesDigest(setting: CalibrationSetting): string | null {
  if (setting.group === undefined || setting.value === undefined) return null;
  const hash = createHash('sha256');
  hash.update(setting.group);
  hash.update(new Uint8Array(setting.value.buffer, setting.value.byteOffset, setting.value.byteLength));
  return hash.digest('hex');
}

function describedSetting(setting: CalibrationSetting): CalibrationRecord['setting'] {
  const { group: _group, value: _value, ...rest } = setting;
  return { ...rest, values: valuesDigest(setting) };
}

function resolvedOptions(plan: CalibrationPlan): CalibrationRecord['options'] {
  return {
    seed: plan.seed,
    paths: plan.paths,
    certificationPaths: plan.certificationPaths,
    confidence: plan.confidence,
    rounds: plan.rounds,
    chunkPaths: plan.chunkPaths,
    grid: plan.grid,
    baseRates: plan.setting.access === 'decision' ? plan.baseRates : null,
  };
}

/**
 * calibrationFingerprint(plan) is the sha256 of everything that determines a
 * calibration's result: CALIBRATION_FORMAT, the setting (access, group sizes, tolerance,
 * budget, start rule, order, alpha, beta, and for score / logit access the digest of the
 * pool's groups and values) and the resolved options (seed, paths, confidence, rounds,
 * chunk size, threshold grid, the base rates the decision cells sit at). Not the thread
 * count, which changes nothing. Decision access depends on a pool only through its group
 * sizes, so pools of equal sizes share a fingerprint. O(pool size) for the digest.
 */
export function calibrationFingerprint(plan: CalibrationPlan): string {
  return createHash('sha256')
    .update(
      canonicalJson({
        format: CALIBRATION_FORMAT,
        setting: describedSetting(plan.setting),
        options: resolvedOptions(plan),
      }),
    )
    .digest('hex');
}

function rateWithError(count: number, total: number): RateWithError {
  const rate = count / total;
  return { rate, standardError: Math.sqrt((rate * (1 - rate)) / total) };
}

function finiteOrNull(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}

/** calibrationRecord(result) is the record to save and print for a calibration. O(pools). */
export function calibrationRecord(result: CalibrationResult): CalibrationRecord {
  const { plan, choice } = result;
  return {
    format: CALIBRATION_FORMAT,
    fingerprint: calibrationFingerprint(plan),
    setting: describedSetting(plan.setting),
    options: resolvedOptions(plan),
    pools: plan.cells.length,
    upper: result.upper,
    lower: result.lower,
    certified: result.certified,
    upperInterval: [finiteOrNull(choice.upperInterval[0]), finiteOrNull(choice.upperInterval[1])],
    lowerInterval: [finiteOrNull(choice.lowerInterval[0]), finiteOrNull(choice.lowerInterval[1])],
    testConfidence: choice.testConfidence,
    certificationRounds: result.certifications.length,
    worstReject: result.worstReject,
    worstAccept: result.worstAccept,
    meanQueries: result.meanQueries,
    price: result.price.map(({ cell, gap, outcome }) => ({
      pool: cell,
      gap,
      audits: outcome.paths,
      reject: rateWithError(outcome.reject, outcome.paths),
      accept: rateWithError(outcome.accept, outcome.paths),
      inconclusive: rateWithError(outcome.inconclusive, outcome.paths),
      meanQueries: outcome.queries / outcome.paths,
    })),
  };
}

/**
 * checkCertified(record, where) throws InputError naming `where` (a setting or flag)
 * when fresh simulations did not certify the record's thresholds within its rounds: it
 * names the smallest alpha and beta those simulations did certify (the worst upper
 * bounds) and how to get more resolution (more paths). O(1).
 */
export function checkCertified(record: CalibrationRecord, where: string): void {
  if (record.certified) return;
  const alpha = record.worstReject?.upperBound ?? Number.NaN;
  const beta = record.worstAccept?.upperBound ?? Number.NaN;
  throw inputError({
    where,
    expected:
      `alpha ${record.setting.alpha} and beta ${record.setting.beta} certified on fresh simulations ` +
      `within ${record.certificationRounds} rounds ` +
      `(budget ${record.setting.budget}, groups ` +
      `of ${record.setting.countA} and ${record.setting.countB}, ${record.options.paths} simulated audits per pool); ` +
      `the smallest alpha and beta certified are ${alpha.toPrecision(3)} and ${beta.toPrecision(3)} (more paths ` +
      `give more resolution)`,
    found: { upper: record.upper, lower: record.lower },
  });
}
