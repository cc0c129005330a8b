import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { configFromObject } from '../../../src/harness/config.js';
import { runExperiment } from '../../../src/harness/run-experiment.js';
import { InputError } from '../../../src/util/errors.js';
import { temporaryFolder } from '../../harness/helpers.js';

/** A small sequential-audit experiment with the three sequential tests on one pool. */
function config(extra: Record<string, unknown> = {}) {
  return configFromObject(
    {
      experiment: 'tests',
      kind: 'sequential-audit',
      seed: 5,
      replicates: 24,
      chunkSize: 5,
      settings: {
        pool: {
          name: 'p',
          synthetic: {
            size: 1500,
            groupShare: 0.4,
            labelRate: [0.5, 0.5],
            decisionRate: [0.45, 0.15],
            logitScale: 1,
            seed: 'tests',
          },
        },
        budget: 400,
        tolerance: 0.1,
        alpha: 0.1,
        calibration: { paths: 600, baseRates: [0, 0.5, 1] },
        ...extra,
      },
      grid: { test: ['wald-glr', 'calibrated-glr', 'betting'], order: ['random', 'balanced'] },
    },
    'tests (built in the test)',
  );
}

describe('runExperiment(config) of sequential-audit cells with test wald-glr, calibrated-glr, betting', () => {
  it(
    'calibrates before the workers start, records the test, and writes the same bytes with 1 and 2 ' + 'threads',
    async () => {
      const cacheDirectory = process.env.FAIRAUDIT_CALIBRATION_CACHE as string;
      const before = existsSync(cacheDirectory) ? readdirSync(cacheDirectory).length : 0;
      const one = temporaryFolder();
      const two = temporaryFolder();
      await runExperiment(config(), { outDirectory: one, threads: 1 });
      await runExperiment(config(), { outDirectory: two, threads: 2 });
      expect(readFileSync(join(one, 'results.arrow'))).toEqual(readFileSync(join(two, 'results.arrow')));
      // One calibration: the two orders are two settings, each calibrated once, whatever the thread count.
      expect(readdirSync(cacheDirectory).filter((name) => name.endsWith('.json')).length - before).toBe(2);
      const table = tableFromIPC(readFileSync(join(one, 'results.arrow')));
      const tests = table.getChild('test')!.toArray() as string[];
      expect(new Set(tests)).toEqual(new Set(['wald-glr', 'calibrated-glr', 'betting']));
      const statistic = table.getChild('statistic')!.toArray() as Float64Array;
      for (const [row, test] of tests.entries()) expect(Number.isNaN(statistic[row])).toBe(test === 'betting');
      // The pool's gap is 0.3 against δ = 0.1: every test rejects it within the budget most of the time.
      const decisions = table.getChild('decision')!.toArray() as string[];
      for (const test of ['wald-glr', 'calibrated-glr', 'betting']) {
        const rows = decisions.filter((_, row) => tests[row] === test);
        expect(rows.filter((decision) => decision === 'reject').length / rows.length, test).toBeGreaterThan(0.8);
      }
    },
  );

  it('stops with InputError before anything is written when alpha cannot be met by the budget', async () => {
    const out = temporaryFolder();
    await expect(
      runExperiment(config({ alpha: 0.002, calibration: { paths: 300, baseRates: [0, 0.5, 1] } }), {
        outDirectory: out,
        threads: 2,
      }),
    ).rejects.toThrow(InputError);
    await expect(
      runExperiment(config({ alpha: 0.002, calibration: { paths: 300, baseRates: [0, 0.5, 1] } }), {
        outDirectory: out,
        threads: 2,
      }),
    ).rejects.toThrow(
      new RegExp(
        String.raw`alpha: expected a level this setting can meet \(budget 400, groups of 900 and 600, 300 ` +
          'simulated audits per pool.*the smallest alpha it can meet is .* and the smallest beta',
      ),
    );
    expect(readdirSync(out)).toEqual([]);
  });
});
