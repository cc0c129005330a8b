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
