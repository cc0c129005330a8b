import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Checkpoints } from '../../src/harness/checkpoints.js';
import { decodeChunkPayload, encodeChunkPayload } from '../../src/harness/chunk-payload.js';
import { parseConfig } from '../../src/harness/config.js';
import { buildPlan } from '../../src/harness/plan.js';
import { openResults } from '../../src/harness/results-reader.js';
import { runExperiment } from '../../src/harness/run-experiment.js';
import { sequentialAuditRowProblem } from '../../src/kinds/sequential-audit/row-problem.js';
import { sequentialAuditRunner } from '../../src/kinds/sequential-audit/run.js';
import { waldThresholds } from '../../src/stats/thresholds.js';
import { spawnCli } from '../helpers/cli.js';
import { forgeResults, longExperimentYaml, temporaryFolder, workerPayload, writeText } from './helpers.js';

// 2 cells × 60 replicates in chunks of 10 on a 20,000-row pool whose gap (0.03) is below δ = 0.05.
const YAML = longExperimentYaml('forged')
  .replace('replicates: 1500', 'replicates: 60')
  .replace('chunkSize: 25', 'chunkSize: 10');

async function readAll(folder: string) {
  const results = await openResults(folder);
  for await (const _batch of results.batches());
}

describe('readers re-derive what can be re-derived: forged results, chunks and shards are refused', () => {
  it(
    'sequentialAuditRowProblem(settings, columns, row): a reject below the upper threshold, an accept above the ' +
      'lower, queries past the budget',
    () => {
      const settings = { alpha: 0.05, beta: 0.2, budget: 4000, tolerance: 0.05 };
      const { upper, lower } = waldThresholds(0.05, 0.2); // 2.7726, -1.5581 (paper A, section 3.5)
      const row = (decision: string, statistic: number, queries = 100) => ({
        decision: [decision],
        statistic: Float64Array.of(statistic),
        queries: Int32Array.of(queries),
        pool_size: Int32Array.of(20000),
        fixed_samples: Int32Array.of(4000),
        oracle_gap: Float64Array.of(0.03),
        oracle_decision: ['accept'],
      });
      expect(sequentialAuditRowProblem(settings, row('reject', upper), 0)).toBeNull();
      expect(sequentialAuditRowProblem(settings, row('accept', lower), 0)).toBeNull();
      expect(sequentialAuditRowProblem(settings, row('inconclusive', 0, 4000), 0)).toBeNull();
      expect(sequentialAuditRowProblem(settings, row('accept', 1000), 0)).toMatch(
        /^decision accept with statistic 1000: expected a statistic at or below the lower threshold -1\.558/,
      );
      expect(sequentialAuditRowProblem(settings, row('reject', 3.12 - 3), 0)).toMatch(/decision reject with statistic/);
      expect(sequentialAuditRowProblem(settings, row('accept', lower, 4001), 0)).toMatch(
        /^queries 4001: expected 0 to/,
      );
      expect(
        sequentialAuditRowProblem({ ...settings, thresholds: { upper: 9, lower: -9 } }, row('reject', 5), 0),
      ).toMatch(/upper threshold 9$/);
      const oracle = { ...row('accept', lower), oracle_gap: Float64Array.of(0.2) };
      expect(sequentialAuditRowProblem(settings, oracle, 0)).toMatch(/^oracle_decision accept: expected/);
      // Calibrated thresholds are not in the settings: only the domains are checked.
      expect(sequentialAuditRowProblem({ ...settings, thresholds: 'calibrated' }, row('accept', 1000), 0)).toBeNull();
    },
  );

  it(
    'a results.arrow with every reject and accept swapped and its SHA-256 and size written into run.json: ' +
      'report exits 2 naming the row',
    async () => {
      const folder = temporaryFolder();
      const file = writeText(folder, 'forged.yaml', YAML);
      const out = join(folder, 'out');
      await runExperiment(parseConfig(YAML, file), { threads: 1, outDirectory: out });
      const swap: Record<string, string> = { reject: 'accept', accept: 'reject' };
      forgeResults(out, (columns) => {
        columns.decision = columns.decision.map((decision) => swap[decision as string] ?? decision);
      });
      await expect(readAll(out)).rejects.toThrow(
        new RegExp(
          String.raw`results\.arrow: row \d+ \(cell .*, replicate \d+\): decision (reject|accept) with ` +
            'statistic .*: expected a statistic at or (above the upper|below the lower) threshold',
        ),
      );
      const report = await spawnCli(['report', out, '--no-png']).done;
      expect(report.code).toBe(2);
      expect(report.stderr).toMatch(/do not re-derive: edited, not damaged, since the checksum holds/);
    },
  );

  it(
    'a checkpoint chunk with a statistic of +1000 and "accept" (its checksum recomputed): --resume exits 2 ' +
      'naming the chunk and what does not re-derive',
    async () => {
      const folder = temporaryFolder();
      const file = writeText(folder, 'forged.yaml', YAML);
      const config = parseConfig(YAML, file);
      const plan = buildPlan(config, sequentialAuditRunner as never);
      const out = join(folder, 'out');
      const columns = sequentialAuditRunner.outcomeColumns;
      const checkpoints = new Checkpoints(out, plan, null, columns);
      checkpoints.start();
      const payload = decodeChunkPayload(
        await workerPayload(plan, sequentialAuditRunner as never, 0),
        columns,
        'chunk 0',
      );
      (payload.outcomes.statistic as number[])[3] = 1000;
      (payload.outcomes.decision as string[])[3] = 'accept';
      // save() computes the checksum over the forged bytes, as a forger who read the code would.
      checkpoints.save([{ chunk: plan.chunkAt(0), payload: encodeChunkPayload(columns, payload) }]);
      const resumed = await spawnCli(['run', file, '--out', out, '--resume', '--quiet']).done;
      expect(resumed.code).toBe(2);
      expect(resumed.stderr).toMatch(
        new RegExp(
          String.raw`chunk 0: .*replicate 3 with values that do not re-derive \(decision accept with ` +
            'statistic 1000: expected a statistic at or below the lower threshold',
        ),
      );
    },
  );

  it(
    'a shard run under another seed, its run.json and schema metadata edited to the plan of the others: merge ' +
      'exits 2 naming the seed that does not re-derive',
    async () => {
      const folder = temporaryFolder();
      const file = writeText(folder, 'forged.yaml', YAML);
      const other = writeText(folder, 'other.yaml', YAML.replace('seed: forged-test', 'seed: another-seed'));
      const first = await runExperiment(parseConfig(YAML, file), {
        threads: 1,
        outDirectory: join(folder, 's1'),
        shard: { index: 1, count: 2 },
      });
      await runExperiment(parseConfig(readFileSync(other, 'utf8'), other), {
        threads: 1,
        outDirectory: join(folder, 's2'),
        shard: { index: 2, count: 2 },
      });
      const genuine = JSON.parse(readFileSync(first.runFile, 'utf8'));
      const forgedRecord = forgeResults(
        join(folder, 's2'),
        () => undefined,
        new Map([
          ['fairaudit.experiment', 'forged'],
          ['fairaudit.kind', 'sequential-audit'],
          ['fairaudit.fingerprint', genuine.plan.fingerprint],
        ]),
      );
      forgedRecord.config = genuine.config;
      forgedRecord.plan = genuine.plan;
      writeFileSync(join(folder, 's2', 'run.json'), JSON.stringify(forgedRecord, null, 2));
      const merged = await spawnCli(['merge', join(folder, 's1'), join(folder, 's2'), '--out', join(folder, 'merged')])
        .done;
      expect(merged.code).toBe(2);
      expect(merged.stderr).toMatch(
        /s2\/results\.arrow: row 0, column seed: expected [0-9a-f]{32}, the seed of \(master seed, cell, replicate\)/,
      );
    },
  );
});
