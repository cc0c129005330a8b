import { describe, expect, it } from 'vitest';
import { categoricalColumn, numericColumn } from '../../src/data/dataset-table.js';
import { applyPreprocessor, fitPreprocessor } from '../../src/data/preprocessor.js';

describe('fitPreprocessor(columns, trainingRows) and applyPreprocessor(...)', () => {
  const columns = [
    numericColumn('age', [20, 30, 40, 1000]),
    categoricalColumn('colour', ['red', 'blue', 'red', 'green']),
  ];
  const label = Uint8Array.from([0, 1, 0, 1]);
  const group = Uint8Array.from([1, 0, 0, 1]);
  const rowIndex = Int32Array.from([10, 11, 12, 13]);
  const training = Int32Array.from([0, 1, 2]);

  it('fitPreprocessor uses the training rows only: mean 30, population sd sqrt(200/3)', () => {
    const preprocessor = fitPreprocessor(columns, training);
    const age = preprocessor.encodings[0];
    expect(age.kind === 'numeric' && age.mean).toBe(30);
    expect(age.kind === 'numeric' && age.scale).toBeCloseTo(Math.sqrt(200 / 3), 12);
    expect(preprocessor.featureNames).toEqual(['age', 'colour=blue', 'colour=red']); // green unseen in training
  });

  it('applyPreprocessor one-hot encodes and encodes an unseen level as all zeros', () => {
    const preprocessor = fitPreprocessor(columns, training);
    const data = applyPreprocessor(preprocessor, columns, Int32Array.from([3, 1]), label, group, rowIndex);
    expect(data.rows).toBe(2);
    expect(data.columns).toBe(3);
    const sd = Math.sqrt(200 / 3);
    expect(Array.from(data.features)).toEqual([(1000 - 30) / sd, 0, 0, 0, 1, 0]);
    expect(Array.from(data.label)).toEqual([1, 1]);
    expect(Array.from(data.group)).toEqual([1, 0]);
    expect(Array.from(data.rowIndex)).toEqual([13, 11]);
  });

  it('fitPreprocessor leaves a constant column unscaled (scale 1) and standardize false keeps values', () => {
    const constant = [numericColumn('c', [5, 5, 5])];
    const fitted = fitPreprocessor(constant, Int32Array.from([0, 1, 2]));
    const out = applyPreprocessor(fitted, constant, Int32Array.from([0]), label, group, rowIndex);
    expect(Array.from(out.features)).toEqual([0]);
    const raw = fitPreprocessor(columns, training, { standardize: false });
    const kept = applyPreprocessor(raw, columns, Int32Array.from([3]), label, group, rowIndex);
    expect(kept.features[0]).toBe(1000);
  });

  it('applyPreprocessor on no rows gives an empty table', () => {
    const preprocessor = fitPreprocessor(columns, training);
    const data = applyPreprocessor(preprocessor, columns, new Int32Array(0), label, group, rowIndex);
    expect(data.rows).toBe(0);
    expect(data.features.length).toBe(0);
  });
});
