import { join } from 'node:path';
import { packageRoot } from '../../src/util/paths.js';
import type { Reproduction } from '../reproduction.js';
import type { ModelSource } from './intersection-pools.js';
import { runMultiGroup } from './reproduce.js';

/**
 * multiGroupReproduction(sources) is `fairaudit reproduce multi-group`: audits of the
 * papers' own models over more than two groups (Adult race × sex, COMPAS race). The
 * composition root (src/cli/registry.ts) passes each dataset's model config and presets.
 * @param sources the datasets' training configs, presets and group attributes
 * @returns the reproduction
 * @example reproductions.get('multi-group').run({ threads: 2 })
 */
export function multiGroupReproduction(sources: readonly ModelSource[]): Reproduction {
  return {
    name: 'multi-group',
    title:
      'Beyond two groups: Adult race × sex and COMPAS race with the papers’ models (oracle, impact ratios, ' +
      'K-group tests, flip counts)',
    datasets: [...new Set(sources.map((source) => source.dataset))],
    async run(options) {
      const outDirectory = options.outDirectory ?? join(packageRoot(), 'results', 'multi-group');
      const started = performance.now();
      const result = await runMultiGroup(sources, {
        outDirectory,
        dataDirectory: options.dataDirectory,
        threads: options.threads,
        refreshModels: options.refreshModels,
        png: options.png,
        onProgress: options.onProgress,
      });
      const seconds = (performance.now() - started) / 1000;
      const violations = result.sequential.filter((row) => row.reject > 0).length;
      return {
        name: 'multi-group',
        outDirectory,
        lines: [
          `multi-group: ${result.pools.length} models regrouped ` +
            `(${result.pools.map((entry) => `${entry.label}: ${entry.pool.groupNames?.length} groups`).join('; ')})`,
          `  K-group betting audits: ${violations} of ${result.sequential.length} model × rate settings found a ` +
            `violation in some replicate`,
          `  report: ${result.reportPath} (total ${seconds.toFixed(1)} s)`,
        ],
        cells: [],
        reports: [{ title: 'Multi-group audits', path: result.reportPath }],
        uncompared: [
          {
            table: 'multi-group',
            why:
              'Neither paper publishes multi-group numbers; the oracle values are checked against Fairlearn ' +
              'instead (scripts/peers/fairlearn_parity.py).',
          },
        ],
      };
    },
  };
}
