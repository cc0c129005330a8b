import { InputError } from '../../util/errors.js';
import { CANNOT_DECIDE } from '../audit-test.js';
import type { CalibrationRecord } from './calibration-record.js';

/**
 * vacuousCalibration(record) is the refusal of a vacuous certificate, or null: thresholds
 * certified although, at the price's clear violation (gap 2 tolerance, every price pool
 * but gap 0), more than 1 - beta of the calibrated audits end inconclusive, so the error
 * levels hold because the test hardly decides (scores constant within groups certified
 * 0.05 / -0.05 with every audit open). The error says "this test cannot decide on this
 * pool" and names betting. A user's audit and `fairaudit calibrate` refuse such a record
 * (auditPool, calibrateForAuditPool); a harness sweep keeps it, since its tables report
 * P(inconclusive) themselves. At gap 0 a small budget may leave most audits open and still
 * reject violations: not refused. O(price pools).
 * @param record a calibration record
 * @returns the InputError, or null
 * @example vacuousCalibration(found.record) // null for a test that decides
 */
export function vacuousCalibration(record: CalibrationRecord): InputError | null {
  const { beta, access } = record.setting;
  for (const point of record.price) {
    if (point.gap === 0) continue;
    const inconclusive = point.inconclusive.rate;
    if (inconclusive > 1 - beta) {
      const betting = `test betting can (--test betting${access === 'logit' ? ' with --logit-bounds' : ''})`;
      return new InputError(
        `calibrated-glr thresholds ${record.upper}, ${record.lower}: ${CANNOT_DECIDE}: ` +
          `P(inconclusive) ${inconclusive.toFixed(3)} at gap ${point.gap.toPrecision(3)} (the price) ` +
          `exceeds 1 - beta = ${(1 - beta).toFixed(3)}; ${betting}`,
      );
    }
  }
  return null;
}
