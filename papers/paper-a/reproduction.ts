import { countsSentence } from '../../src/report/reproduction-status.js';
import type { Reproduction } from '../reproduction.js';
import { reproducePaperA } from './reproduce.js';

/** `fairaudit reproduce paper-a`: its entry in the composition root (src/cli/registry.ts lists it). */
export const paperAReproduction: Reproduction = {
  name: 'paper-a',
  title: 'Paper A (sequential GLR fairness audits): Tables 1-5 and Figure 1',
  datasets: ['adult', 'acs-income'],
  async run(options) {
    const result = await reproducePaperA(options);
    const c = result.comparison;
    const lines = [
      `paper-a: ${result.mode}`,
      ...result.runs.map(
        (run) =>
          `  ${run.experiment}: ${run.cells} cells, ${run.rows} audits in ${run.auditSeconds.toFixed(2)} s ` +
          `(${run.threads} threads) -> ${run.reportPath}`,
      ),
      result.seeds === null
        ? `  comparison: ${countsSentence(result.counts)}`
        : `  comparison over ${result.seeds.pairs} seed pairs (${result.seeds.modelSeeds} model ` +
          `seeds, ${result.seeds.splitSeeds} split seeds): ${countsSentence(result.counts)} ` +
          `(${c.outsideVariability} of the differing cells outside training variability)`,
      `  summary: ${result.summaryPath} (total ${result.seconds.total.toFixed(1)} s, ` +
        `pools ${result.seconds.pools.toFixed(1)} s)`,
    ];
    const reports = result.runs.map((run) => ({ title: `Paper A: ${run.experiment}`, path: run.reportPath }));
    return { name: 'paper-a', outDirectory: result.outDirectory, lines, cells: result.cells, reports };
  },
};
