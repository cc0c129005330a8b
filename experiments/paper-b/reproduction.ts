import type { Reproduction } from '../registry.js';
import { runPaperB } from './reproduce.js';

/** `fairaudit reproduce paper-b`: the registry entry (experiments/registry.ts lists it). */
export const paperBReproduction: Reproduction = {
  name: 'paper-b',
  title: 'Paper B (respir oblivious audits): Tables 2-3, Figures 1-2 and Monte Carlo checks of the bounds',
  async run(options) {
    const result = await runPaperB({
      outDirectory: options.outDirectory,
      overrides: options.overrides,
      threads: options.threads,
      dataDirectory: options.dataDirectory,
      analyticOnly: options.calibrated === true,
      png: options.png,
      onProgress: options.onProgress,
    });
    const c = result.comparison;
    const lines = [
      `paper-b: analytic Table 3 and Figures 1-2 from the published Table 2; Table 2 from ${result.reproducedRows} of our models`,
      ...result.unavailable.map((missing) => `  unavailable: ${missing.setting}: ${missing.reason}`),
      `  Table 2 comparison: ${c.total} published cells: ${c.within} within rounding, ${c.outside} differ, ${c.missing} missing`,
      ...result.runs.map((run) => `  ${run.experiment}: ${run.rows} replicates in ${run.seconds.toFixed(1)} s -> ${run.reportPath}`),
      `  report: ${result.reportPath} (total ${result.seconds.toFixed(1)} s)`,
    ];
    return { name: 'paper-b', outDirectory: result.outDirectory, lines };
  },
};
