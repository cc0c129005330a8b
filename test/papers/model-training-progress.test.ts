import { describe, expect, it } from 'vitest';
import { MODEL_STEP_SECONDS, modelTrainingProgress } from '../../papers/model-training-progress.js';

describe('modelTrainingProgress(progress, now)', () => {
  it(
    'writes a start line, a step line per model at most every MODEL_STEP_SECONDS with an estimate, and an end ' +
      'line',
    () => {
      const lines: string[] = [];
      let clock = 0;
      const callbacks = modelTrainingProgress(
        (line) => lines.push(line),
        () => clock,
      );
      callbacks.onModelStart?.('adult/sex/robust-dp');
      callbacks.onModelStart?.('adult/sex/robust-base');
      clock = 1000;
      callbacks.onModelProgress?.('adult/sex/robust-dp', { done: 10, total: 300, unit: 'epochs' });
      clock = MODEL_STEP_SECONDS * 1000;
      callbacks.onModelProgress?.('adult/sex/robust-dp', { done: 100, total: 300, unit: 'epochs' });
      callbacks.onModelProgress?.('adult/sex/robust-dp', { done: 101, total: 300, unit: 'epochs' });
      callbacks.onModelProgress?.('adult/sex/robust-base', { done: 15, total: 30, unit: 'epochs' });
      callbacks.onModelTrained?.('adult/sex/robust-base', 6.04);
      expect(lines).toEqual([
        'model adult/sex/robust-dp: training (not in the model cache)',
        'model adult/sex/robust-base: training (not in the model cache)',
        // 200 epochs left at 100 epochs per 5 s: at most 10 s (the reduction may stop early).
        'model adult/sex/robust-dp: 100/300 epochs, 5 s, at most 10 s left',
        'model adult/sex/robust-base: 15/30 epochs, 5 s, at most 5 s left',
        'model adult/sex/robust-base: trained in 6.0 s',
      ]);
    },
  );

  it('says "about" for search fits and gives no estimate before the first step is done', () => {
    const lines: string[] = [];
    let clock = 0;
    const callbacks = modelTrainingProgress(
      (line) => lines.push(line),
      () => clock,
    );
    callbacks.onModelStart?.('ccd/age/boosted-trees');
    clock = 6000;
    callbacks.onModelProgress?.('ccd/age/boosted-trees', { done: 0, total: 51, unit: 'fits' });
    clock = 12000;
    callbacks.onModelProgress?.('ccd/age/boosted-trees', { done: 17, total: 51, unit: 'fits' });
    expect(lines.slice(1)).toEqual([
      'model ccd/age/boosted-trees: 0/51 fits, 6 s',
      'model ccd/age/boosted-trees: 17/51 fits, 12 s, about 24 s left',
    ]);
  });
});
