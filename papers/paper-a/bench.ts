import { cpuUsage } from 'node:process';
import { prepareAudit } from '../../src/audit/prepare-audit.js';
import {
  type SequentialAuditCellSettings,
  type SequentialAuditContext,
  sequentialAuditCellSettings,
  sequentialAuditRunner,
} from '../../src/kinds/sequential-audit/run.js';
import { createRandom, deriveSeed } from '../../src/util/random.js';
import { validate } from '../../src/util/schema.js';
import { calibratedPool } from './calibrated-pools.js';
import { PAPER_A_POOLS } from './pools.js';

/** What `fairaudit bench paper-a` measures. */
export interface PaperABenchFigures {
  workload: string;
  poolSeconds: number;
  prepareSeconds: number;
  auditSeconds: number;
  auditCpuSeconds: number;
  audits: number;
  queries: number;
  queriesPerSecond: number;
}

/**
 * benchmarkPaperA(replicates) times paper A's audits on one thread, in process, through
 * the runner's sequential-audit kind (prepare once per cell, then runReplicate per
 * replicate with a seeded Random): the 48 cells of papers/paper-a/configs/paper-a.yaml on
 * the calibrated pools, `replicates` per cell. Pool generation, preparation and the
 * audits are timed apart. Running time: about replicates × 48 audits of ≤ 4000 queries.
 */
export function benchmarkPaperA(replicates: number): PaperABenchFigures {
  let started = performance.now();
  const pools = PAPER_A_POOLS.map((pool) => ({ pool, auditPool: calibratedPool(pool.dataset, pool.model) }));
  const poolSeconds = (performance.now() - started) / 1000;
  const cells: Array<{ context: SequentialAuditContext; settings: SequentialAuditCellSettings; key: string }> = [];
  started = performance.now();
  for (const { pool, auditPool } of pools) {
    for (const metric of ['sp', 'eo'] as const) {
      for (const access of ['decision', 'score', 'logit'] as const) {
        const settings = validate(
          { pool: { name: pool.name, file: 'unused' }, metric, access },
          sequentialAuditCellSettings,
        );
        // Paper A's test in random order runs its own loop: the context needs no built test.
        const context: SequentialAuditContext = { prepared: prepareAudit(auditPool, metric, access), auditTest: null };
        cells.push({ context, settings, key: `${pool.name}/${metric}/${access}` });
      }
    }
  }
  const prepareSeconds = (performance.now() - started) / 1000;
  let queries = 0;
  const cpuBefore = cpuUsage();
  started = performance.now();
  for (const cell of cells) {
    for (let replicate = 0; replicate < replicates; replicate++) {
      const row = sequentialAuditRunner.runReplicate(
        cell.context,
        cell.settings,
        createRandom(deriveSeed('bench paper-a', cell.key, replicate)),
      );
      queries += Number(row.queries);
    }
  }
  const auditSeconds = (performance.now() - started) / 1000;
  const cpu = cpuUsage(cpuBefore);
  return {
    workload:
      `paper A grid: 8 calibrated pools x {sp, eo} x {decision, score, logit} = ${cells.length} cells ` +
      `x ${replicates} replicates, B = 4000, one thread`,
    poolSeconds,
    prepareSeconds,
    auditSeconds,
    auditCpuSeconds: (cpu.user + cpu.system) / 1e6,
    audits: cells.length * replicates,
    queries,
    queriesPerSecond: queries / auditSeconds,
  };
}
