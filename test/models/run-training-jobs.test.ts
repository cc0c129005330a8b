import { describe, expect, it } from 'vitest';
import { paperAModelPreset } from '../../papers/paper-a/models.js';
import { runTrainingJobs } from '../../src/models/run-training-jobs.js';
import { syntheticTabularData } from '../../src/models/synthetic-tabular.js';
import type { TrainingJob } from '../../src/models/training-job.js';
import { InputError } from '../../src/util/errors.js';
import { createRandom } from '../../src/util/random.js';

// Worker threads run the compiled dist/: skip when it is absent.
describe('runTrainingJobs(jobs, 2) with a job that has bad settings', () => {
  it('rejects with an InputError (exit 2), not an internal error, as on one thread', async () => {
    // An Error loses its class across threads: the thread pool's failure codec keeps this one an InputError.
    const shape = { numericColumns: 2, categoricalLevels: [3], groupEffect: 1, rows: 60 };
    const data = syntheticTabularData(shape, createRandom('worker-failure'));
    const preset = paperAModelPreset('unstable-dp');
    if (preset.type !== 'mlp' || preset.spec.reduction === null)
      throw new Error('unstable-dp is an MLP in the DP reduction');
    const spec = { ...preset.spec, reduction: { ...preset.spec.reduction, differenceBound: 2 } };
    const job: TrainingJob = { kind: 'mlp', spec, dataset: 'synthetic', train: data, heldOut: data, seed: 'bad' };
    const single = runTrainingJobs([job], 1);
    await expect(single).rejects.toBeInstanceOf(InputError);
    const parallel = runTrainingJobs([job, job], 2);
    await expect(parallel).rejects.toBeInstanceOf(InputError);
    await expect(runTrainingJobs([job, job], 2)).rejects.toThrow(
      /differenceBound: expected a number in \(0, 1\), found 2/,
    );
  });
});

describe('runTrainingJobs(jobs, 2, onDone, {onProgress})', () => {
  it("reports each worker job's MLP epochs as TrainingSteps, and the results equal one thread's", async () => {
    const shape = { numericColumns: 3, categoricalLevels: [3], groupEffect: 1, rows: 200 };
    const data = syntheticTabularData(shape, createRandom('worker-progress'));
    const preset = paperAModelPreset('unstable-base');
    if (preset.type !== 'mlp') throw new Error('unstable-base is an MLP');
    const spec = { ...preset.spec, mlp: { ...preset.spec.mlp, epochs: 3 } };
    const jobs: TrainingJob[] = ['p', 'q'].map((seed) => ({
      kind: 'mlp',
      spec,
      dataset: 'synthetic',
      train: data,
      heldOut: data,
      seed,
    }));
    const steps: Array<{ index: number; unit: string; done: number; total: number }> = [];
    const parallel = await runTrainingJobs(jobs, 2, undefined, {
      onProgress: (index, step) => steps.push({ index, ...step }),
    });
    const serial = await runTrainingJobs(jobs, 1);
    expect(parallel.map((model) => Array.from(model.pool.score ?? []))).toEqual(
      serial.map((model) => Array.from(model.pool.score ?? [])),
    );
    for (const index of [0, 1]) {
      const mine = steps.filter((step) => step.index === index);
      // The worker sends the first epoch, then at most one each 250 ms, and always the last.
      expect(mine[0]).toEqual({ index, unit: 'epochs', done: 1, total: 3 });
      expect(mine[mine.length - 1]).toEqual({ index, unit: 'epochs', done: 3, total: 3 });
    }
  });
});
