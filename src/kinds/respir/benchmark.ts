import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configFromObject } from '../../harness/config.js';
import { runExperiment } from '../../harness/run-experiment.js';
import type { AuditSampler } from '../../respir/audit-set-drawer.js';
import { syntheticCandidatePopulation } from '../../respir/candidate-population.js';
import { drawObliviousAudit, prepareObliviousAudit } from '../../respir/oblivious-audit-simulation.js';
import { planRespirManipulation } from '../../respir/respir-manipulation-plan.js';
import { createRandom } from '../../util/random.js';

/** The figures of `fairaudit bench respir`. */
export interface RespirBenchmark {
  workload: string;
  /** The whole harness run: worker start-up, draws, checkpoints and results.arrow. */
  harness: { draws: number; threads: number; seconds: number; cpuSeconds: number; drawsPerSecond: number };
  /** Draws per second of the bare kernel on the main thread, per sampler (respir + vanilla on the same S). */
  kernel: Record<AuditSampler, { draws: number; seconds: number; drawsPerSecond: number }>;
}

/** The CCD-gender-sized cell the bar speaks of: N = 13,500, N_min = 5,350 (39.6%), n = 6,750. */
const workloadSettings = {
  candidates: {
    name: 'ccd-gender-sized',
    synthetic: { size: 13_500, minorityShare: 0.396, positiveRates: [0.2, 0.228] },
  },
  auditSetSize: 6750,
  hideFraction: 0.5,
  passProbability: 0.8,
  canaries: 5,
  canaryEffectiveness: 0.8,
  manipulation: 'theorem-1',
};

function timeKernel(sampler: AuditSampler, draws: number) {
  const spec = workloadSettings.candidates.synthetic;
  const population = syntheticCandidatePopulation(
    {
      size: spec.size,
      minorityShare: spec.minorityShare,
      positiveRates: [spec.positiveRates[0], spec.positiveRates[1]],
    },
    'sp',
    'bench',
  );
  const gap =
    population.eligiblePositives[1] / population.eligibleSizes[1] -
    population.eligiblePositives[0] / population.eligibleSizes[0];
  const tolerance = gap / 2;
  const planned = planRespirManipulation(population, 'theorem-1', tolerance, 0.8, 6750, 'uniform');
  const simulation = prepareObliviousAudit({
    population,
    auditSetSize: 6750,
    design: 'uniform',
    sampler,
    tolerance,
    canaries: 5,
    canaryEffectiveness: 0.8,
    manipulation: planned.manipulation,
  });
  const random = createRandom('bench-respir-kernel');
  const started = process.hrtime.bigint();
  for (let i = 0; i < draws; i++) drawObliviousAudit(simulation, random);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { draws, seconds, drawsPerSecond: draws / seconds };
}

/**
 * benchmarkRespir(draws, threads) times `draws` audit-set draws (one `respir`
 * replicate each) over a 13,500-row candidate set through the harness on `threads`
 * worker threads (the bar: 100,000 in under 10 s), then the bare kernel on the main
 * thread with each sampler. Wall-clock figures: provisional on a shared machine.
 */
export async function benchmarkRespir(draws = 100_000, threads = 2): Promise<RespirBenchmark> {
  const folder = mkdtempSync(join(tmpdir(), 'fairaudit-bench-respir-'));
  try {
    const config = configFromObject(
      {
        experiment: 'bench-respir',
        kind: 'respir',
        seed: 1,
        replicates: draws,
        chunkSize: 5000,
        settings: workloadSettings,
      },
      'bench-respir',
    );
    const started = process.hrtime.bigint();
    const cpuBefore = process.cpuUsage();
    await runExperiment(config, { threads, outDirectory: folder });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const cpu = process.cpuUsage(cpuBefore);
    return {
      workload:
        `${draws} respir replicates (one audit-set draw S ⊂ C each, with 5 canaries and the vanilla ` +
        `adversary on the same S): N = 13,500, N_min = 5,346, n = 6,750, ε = |d_C|/2, 1 − δ = 0.8`,
      harness: { draws, threads, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, drawsPerSecond: draws / seconds },
      kernel: {
        counts: timeKernel('counts', Math.min(draws, 100_000)),
        indices: timeKernel('indices', Math.min(draws, 5_000)),
      },
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
