import { type CalibrationCandidate, prepareAuditCalibrations } from '../audit/calibration/prepare-calibrations.js';
import { loadPoolSource, type PoolOrigin, type PoolSource } from './pool-source.js';

/** A cell of a kind that audits a pool source: its pool and an audit's settings. */
export type PoolSourceAuditCell = CalibrationCandidate['settings'] & { readonly pool: PoolSource };

/**
 * calibratePoolSourceCells(cells, origin, options) is the beforeRun of the kinds that
 * audit a pool source (sequential-audit, operating-characteristic): every cell's
 * calibration that its settings call for is put in the cache before the workers start
 * (prepareAuditCalibrations, on `options.threads` threads), its pool loaded only then,
 * a failure named as the config's settings.thresholds. Throws what
 * prepareAuditCalibrations throws.
 */
export function calibratePoolSourceCells(
  cells: readonly PoolSourceAuditCell[],
  origin: PoolOrigin,
  options: { readonly threads?: number },
): Promise<void> {
  return prepareAuditCalibrations(
    cells.map((settings) => ({
      settings,
      pool: () => loadPoolSource(settings.pool, settings.access, origin),
      where: `${origin.configFile}: settings.thresholds`,
    })),
    options,
  );
}
