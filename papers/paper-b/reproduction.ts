import { countStatuses, countsSentence } from '../../src/report/reproduction-status.js';
import type { Reproduction } from '../reproduction.js';
import { runPaperB } from './reproduce.js';
import { paperBModelSettings } from './table-2.js';

/**
 * unavailableLines(unavailable) says once per reason which Table 2 settings could not
 * be reproduced: the attributes of one dataset share its loader's message, which is
 * long (where it looked, each accepted form, the two ways to provide the files).
 */
function unavailableLines(unavailable: readonly { setting: string; reason: string }[]): string[] {
  const settingsByReason = new Map<string, string[]>();
  for (const missing of unavailable) {
    const settings = settingsByReason.get(missing.reason) ?? [];
    settings.push(missing.setting);
    settingsByReason.set(missing.reason, settings);
  }
  return [...settingsByReason].map(([reason, settings]) => `  unavailable: ${settings.join(', ')}: ${reason}`);
}

/** `fairaudit reproduce paper-b`: its entry in the composition root (src/cli/registry.ts lists it). */
export const paperBReproduction: Reproduction = {
  name: 'paper-b',
  title: 'Paper B (respir oblivious audits): Tables 2-3, Figures 1-2 and Monte Carlo checks of the bounds',
  datasets: [...new Set(paperBModelSettings.map((setting) => setting.dataset))],
  async run(options) {
    const result = await runPaperB({
      outDirectory: options.outDirectory,
      overrides: options.overrides,
      threads: options.threads,
      dataDirectory: options.dataDirectory,
      analyticOnly: options.calibrated === true,
      png: options.png,
      refreshModels: options.refreshModels,
      ...(options.seeds === undefined ? {} : { seeds: options.seeds }),
      onProgress: options.onProgress,
    });
    const c = result.comparison;
    const lines = [
      `paper-b: analytic Table 3 and Figures 1-2 from the published Table 2; Table 2 ` +
        `from ${result.reproducedRows} of our models`,
      ...unavailableLines(result.unavailable),
      c.total === 0
        ? `  Table 2 comparison: none compared (no model of ours): ${countsSentence(countStatuses(result.cells))}`
        : `  Table 2 comparison: ${countsSentence(countStatuses(result.cells))}`,
      ...result.variability.map((line) => `  ${line}`),
      ...result.runs.map(
        (run) => `  ${run.experiment}: ${run.rows} replicates in ${run.seconds.toFixed(1)} s -> ${run.reportPath}`,
      ),
      `  report: ${result.reportPath} (total ${result.seconds.toFixed(1)} s)`,
    ];
    const reports = [
      { title: 'Paper B: Tables 2-3, Figures 1-2', path: result.reportPath },
      ...result.runs.map((run) => ({ title: `Paper B: ${run.experiment}`, path: run.reportPath })),
    ];
    const uncompared = [
      {
        table: 'Table 3',
        why:
          "Table 3 is an image in the paper's text: ours is computed from Table 2 with Proposition 1 and " +
          'Theorem 1, so there is no printed cell to compare with.',
      },
    ];
    return { name: 'paper-b', outDirectory: result.outDirectory, lines, cells: result.cells, reports, uncompared };
  },
};
