import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFromObject } from '../../src/harness/config.js';
import { buildPlan } from '../../src/harness/plan.js';
import { openResults } from '../../src/harness/results-reader.js';
import { runExperiment } from '../../src/harness/run-experiment.js';
import { operatingCharacteristicRowProblem } from '../../src/kinds/operating-characteristic/row-problem.js';
import { operatingCharacteristicRunner } from '../../src/kinds/operating-characteristic/run.js';
import { respirMinimalFlipsRowProblem, respirRowProblem } from '../../src/kinds/respir/row-problem.js';
import { respirMinimalFlipsRunner, respirRunner } from '../../src/kinds/respir/run.js';
import { createRandom } from '../../src/util/random.js';
import { forgeResults, temporaryFolder } from '../harness/helpers.js';
import { spawnCli } from '../helpers/cli.js';

const origin = { configFile: 'row-problems (built in the test)', baseDirectory: temporaryFolder() };

type Row = Record<string, number | string>;

/** A row as columns of length one, with `edit` applied. */
function columnsOf(row: Row, edit: Row = {}) {
  return Object.fromEntries(Object.entries({ ...row, ...edit }).map(([key, value]) => [key, [value]]));
}

/** The first cell's settings of a config, and one replicate's genuine row. */
async function genuineRow(runner: never, config: Record<string, unknown>) {
  const plan = buildPlan(configFromObject(config, 'row-problems'), runner);
  const settings = plan.cells[0].settings as never;
  const typed = runner as typeof respirRunner;
  const context = await typed.prepare(settings, origin);
  return {
    settings: settings as Record<string, unknown>,
    row: typed.runReplicate(context, settings, createRandom('r')) as Row,
  };
}

const candidates = { synthetic: { size: 2000, minorityShare: 0.1, positiveRates: [0.2, 0.75] } };
const respirConfig = {
  experiment: 'r',
  kind: 'respir',
  seed: 1,
  replicates: 6,
  settings: { candidates, auditSetSize: 400, passProbability: 0.95, tolerance: 0.5, canaries: 20 },
};
const pool = {
  name: 'p',
  synthetic: { size: 2000, groupShare: 0.4, labelRate: [0.5, 0.5], decisionRate: [0.4, 0.4], seed: 'oc' },
};
const ocConfig = {
  experiment: 'oc',
  kind: 'operating-characteristic',
  seed: 3,
  replicates: 6,
  settings: { pool, budget: 600, tolerance: 0.05, gap: 0.15, test: 'betting' },
};

describe('respirRowProblem(settings, columns, row): what a respir row determines re-derives', () => {
  it('passes a genuine row, and names each edit that no draw could give', async () => {
    const { settings, row } = await genuineRow(respirRunner as never, respirConfig);
    expect(respirRowProblem(settings, columnsOf(row), 0)).toBeNull();
    const gap = row.audit_gap as number;
    // tolerance 0.5: a gap of 0.7 fails, so a passed row with it cannot be a draw's.
    expect(respirRowProblem(settings, columnsOf(row, { audit_gap: 0.7, passed: 1 }), 0)).toMatch(
      /^passed 1 with audit_gap 0\.7: expected 0 against tolerance 0\.5$/,
    );
    expect(respirRowProblem(settings, columnsOf(row, { passed: Math.abs(gap) <= 0.5 ? 0 : 1 }), 0)).toMatch(/^passed/);
    expect(respirRowProblem(settings, columnsOf(row, { flipped_in_audit: 0, detected: 1 }), 0)).toMatch(
      /^detected 1 with flipped_in_audit 0/,
    );
    expect(respirRowProblem(settings, columnsOf(row, { flipped_in_audit: 401 }), 0)).toMatch(/^flipped_in_audit 401/);
    expect(respirRowProblem(settings, columnsOf(row, { pass_target: 0.5 }), 0)).toMatch(/passProbability 0\.95$/);
    expect(respirRowProblem(settings, columnsOf(row, { tolerance: 0.4 }), 0)).toMatch(/cell's tolerance 0\.5$/);
    expect(respirRowProblem(settings, columnsOf(row, { eq3_respir: 1.5 }), 0)).toMatch(/^eq3_respir 1\.5/);
    expect(respirRowProblem(settings, columnsOf(row, { audit_minority: 201 }), 0)).toMatch(/^audit_minority 201/);
    expect(respirRowProblem(settings, columnsOf(row, { vanilla_flips: 0, vanilla_detected: 1 }), 0)).toMatch(
      /^vanilla_detected 1/,
    );
  });
  it('respirMinimalFlipsRowProblem: a minimal count whose pass rate misses 1 − δ is refused', async () => {
    const config = { ...respirConfig, kind: 'respir-minimal-flips', replicates: 1 };
    config.settings = { ...respirConfig.settings, drawsPerStep: 200 } as never;
    const { settings, row } = await genuineRow(respirMinimalFlipsRunner as never, config);
    expect(respirMinimalFlipsRowProblem(settings, columnsOf(row), 0)).toBeNull();
    expect(respirMinimalFlipsRowProblem(settings, columnsOf(row, { minimal_flips_pass_rate: 0.5 }), 0)).toMatch(
      /^minimal_flips_pass_rate 0\.5 at minimal_flips \d+: expected at least pass_target 0\.95$/,
    );
    expect(respirMinimalFlipsRowProblem(settings, columnsOf(row, { exact_minimal_flips: -2 }), 0)).toMatch(
      /^exact_minimal_flips -2/,
    );
  });
});

describe('operatingCharacteristicRowProblem(settings, columns, row): truth and gaps re-derive', () => {
  it(
    'passes a genuine row, and names a truth its gap does not give, a gap that is not the access regime’s, ' +
      'queries past the budget',
    async () => {
      const { settings, row } = await genuineRow(operatingCharacteristicRunner as never, ocConfig);
      expect(row.truth).toBe('violating');
      expect(operatingCharacteristicRowProblem(settings, columnsOf(row), 0)).toBeNull();
      expect(operatingCharacteristicRowProblem(settings, columnsOf(row, { truth: 'compliant' }), 0)).toMatch(
        /^truth compliant with true_gap 0\.15\d*: expected violating against tolerance 0\.05$/,
      );
      expect(operatingCharacteristicRowProblem(settings, columnsOf(row, { true_gap: 0.01 }), 0)).toMatch(
        /^true_gap 0\.01: expected the decision gap/,
      );
      expect(operatingCharacteristicRowProblem(settings, columnsOf(row, { queries: 601 }), 0)).toMatch(
        /^queries 601: expected 0 to the budget 600$/,
      );
      expect(operatingCharacteristicRowProblem(settings, columnsOf(row, { decision: 'maybe' }), 0)).toMatch(
        /^decision maybe/,
      );
      expect(operatingCharacteristicRowProblem(settings, columnsOf(row, { proxy_gap: 0.2 }), 0)).toMatch(
        /^proxy_gap 0\.2: expected NaN under decision access$/,
      );
    },
  );
});

describe('readers refuse forged respir and operating-characteristic results whose checksum was recomputed', () => {
  it.each([
    [
      'respir',
      respirConfig,
      (columns: Record<string, unknown[]>) => {
        columns.passed = columns.passed.map((passed) => 1 - (passed as number));
      },
      /passed [01] with audit_gap/,
    ],
    [
      'operating-characteristic',
      ocConfig,
      (columns: Record<string, unknown[]>) => {
        columns.truth = columns.truth.map(() => 'compliant');
      },
      /truth compliant with true_gap/,
    ],
  ] as const)('%s: report exits 2 naming the row', async (_kind, config, edit, message) => {
    const out = join(temporaryFolder(), 'out');
    await runExperiment(configFromObject(config, 'row-problems'), { threads: 1, outDirectory: out });
    const results = await openResults(out);
    for await (const _batch of results.batches());
    forgeResults(out, edit as never);
    const forged = await openResults(out);
    await expect(
      (async () => {
        for await (const _batch of forged.batches());
      })(),
    ).rejects.toThrow(message);
    const report = await spawnCli(['report', out, '--no-png']).done;
    expect(report.code).toBe(2);
    expect(report.stderr).toMatch(message);
  });
});
