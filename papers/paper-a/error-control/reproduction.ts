import type { Reproduction } from '../../reproduction.js';
import { reproduceErrorControl } from './reproduce.js';

/**
 * `fairaudit reproduce error-control`: its entry in the composition root (src/cli/registry.ts
 * lists it). It lives in papers/paper-a/ because it audits paper A's pools (papers are peers).
 */
export const errorControlReproduction: Reproduction = {
  name: 'error-control',
  // The real Adult pools join the study when the data is there (the calibrated ones always do).
  datasets: ['adult'],
  title:
    "Error control beyond paper A: false violations, false compliance and queries of paper A's GLR, the " +
    'calibrated GLR and the betting test',
  async run(options) {
    const result = await reproduceErrorControl(options);
    return {
      name: 'error-control',
      outDirectory: result.outDirectory,
      lines: [
        `error-control: ${result.pools.length} pools${
          result.realAdult === null
            ? ' (with the real Adult ' + 'pools)'
            : ` (real Adult pools not included: ${result.realAdult})`
        }`,
        `  error-control: ${result.cells} cells, ${result.rows} audits in ${result.auditSeconds.toFixed(2)} s ` +
          `(${result.threads} threads, calibrations included) -> ${result.reportPath}`,
        `  total ${result.totalSeconds.toFixed(1)} s`,
      ],
      // Beyond the paper: no published cell, so it adds a report to the index and no table.
      cells: [],
      reports: [{ title: 'Error control beyond paper A', path: result.reportPath }],
    };
  },
};
