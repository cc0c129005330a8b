import type { ModelTrainingOptions } from '../src/models/train-models.js';
import type { TrainingStep } from '../src/models/training-job.js';

/** Seconds between two step lines of one training model. */
export const MODEL_STEP_SECONDS = 5;

/** The training callbacks modelTrainingProgress fills in. */
export type ModelTrainingCallbacks = Pick<ModelTrainingOptions, 'onModelStart' | 'onModelProgress' | 'onModelTrained'>;

/**
 * modelTrainingProgress(progress, now) turns the model-training callbacks into stage lines
 * for a reproduction's progress: one when a model starts ("model adult/sex/robust-dp:
 * training (not in the model cache)"), one per model at most every MODEL_STEP_SECONDS with
 * its steps and an estimate ("model …: 120/300 epochs, 14 s, at most 21 s left"; the
 * reduction may stop before its last epoch), and one when it is trained, with its seconds.
 * Models training side by side each get their lines. `now` (milliseconds) is injected so
 * tests need no clock.
 */
export function modelTrainingProgress(
  progress: (stage: string) => void,
  now: () => number = Date.now,
): ModelTrainingCallbacks {
  const started = new Map<string, number>();
  const lastLine = new Map<string, number>();
  return {
    onModelStart: (model) => {
      started.set(model, now());
      lastLine.set(model, now());
      progress(`model ${model}: training (not in the model cache)`);
    },
    onModelProgress: (model, step) => {
      const time = now();
      if (time - (lastLine.get(model) ?? 0) < MODEL_STEP_SECONDS * 1000) return;
      lastLine.set(model, time);
      progress(`model ${model}: ${stepText(step, (time - (started.get(model) ?? time)) / 1000)}`);
    },
    onModelTrained: (model, seconds) => {
      started.delete(model);
      lastLine.delete(model);
      progress(`model ${model}: trained in ${seconds.toFixed(1)} s`);
    },
  };
}

/** "120/300 epochs, 14 s, at most 21 s left" (MLP epochs are an upper bound) or "31/51 fits, 40 s, about 26 s left". */
function stepText(step: TrainingStep, seconds: number): string {
  const left = step.done > 0 ? ((step.total - step.done) * seconds) / step.done : Number.NaN;
  const estimate = Number.isFinite(left)
    ? `, ${step.unit === 'epochs' ? 'at most' : 'about'} ${left.toFixed(0)} s left`
    : '';
  return `${step.done}/${step.total} ${step.unit}, ${seconds.toFixed(0)} s${estimate}`;
}
