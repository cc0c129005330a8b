import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportDatasetSplit } from '../../src/data/export-split.js';
import { loadDataset } from '../../src/data/load-dataset.js';
import { readNpyMatrix } from '../../src/data/npy-array.js';
import { prepareSplit } from '../../src/data/prepare-split.js';
import { InputError } from '../../src/util/errors.js';
import { adultFixture, writeAdultManifest } from '../fixtures/adult-fixture.js';

function adultMirror() {
  const root = mkdtempSync(join(tmpdir(), 'fairaudit-export-'));
  const fixture = adultFixture(150, 5);
  mkdirSync(join(root, 'mirror', 'adult'), { recursive: true });
  writeFileSync(join(root, 'mirror', 'adult', 'adult.data'), fixture.data);
  writeFileSync(join(root, 'mirror', 'adult', 'adult.test'), fixture.test);
  writeAdultManifest(join(root, 'manifests'), fixture);
  return { root, options: { dataDirectory: join(root, 'mirror'), manifestDirectory: join(root, 'manifests') } };
}

/** The uint8 or int32 payload of a 1-D .npy file with a 128-byte header (as encodeNpy writes small ones). */
function npyVector(path: string, type: 'u1' | 'i4'): number[] {
  const bytes = readFileSync(path);
  const data = bytes.subarray(128);
  return type === 'u1' ? Array.from(data) : Array.from({ length: data.length / 4 }, (_, i) => data.readInt32LE(4 * i));
}

describe('exportDatasetSplit(dataset, split, directory, options)', () => {
  it('writes the encoded train and held-out parts exactly as prepareSplit makes them (npy)', async () => {
    const { root, options } = adultMirror();
    const out = join(root, 'npy');
    const settings = { scheme: 'paper-a' as const, seed: 11, protectedAttribute: 'sex' };
    await exportDatasetSplit('adult', settings, out, options);
    const split = prepareSplit(await loadDataset('adult', options), settings);
    for (const [name, part] of [
      ['train', split.train],
      ['held-out', split.heldOut],
    ] as const) {
      const features = readNpyMatrix(join(out, `${name}-features.npy`));
      expect([features.rows, features.columns]).toEqual([part.rows, part.columns]);
      expect(Array.from(features.values)).toEqual(Array.from(part.features));
      expect(npyVector(join(out, `${name}-label.npy`), 'u1')).toEqual(Array.from(part.label));
      expect(npyVector(join(out, `${name}-group.npy`), 'u1')).toEqual(Array.from(part.group));
      expect(npyVector(join(out, `${name}-row.npy`), 'i4')).toEqual(Array.from(part.rowIndex));
    }
    const description = JSON.parse(readFileSync(join(out, 'split.json'), 'utf8'));
    expect(description).toMatchObject({
      format: 'fairaudit-split/1',
      dataset: 'adult',
      scheme: 'paper-a',
      seed: '11',
      protectedAttribute: 'sex',
      featureNames: split.train.featureNames,
      train: { rows: split.train.rows },
      heldOut: { rows: split.heldOut.rows },
      auditRows: null,
    });
    expect(description.datasetFiles.map((file: { name: string }) => file.name)).toEqual(['adult.data', 'adult.test']);
  });

  it('writes CSV with row, group, label, [audit] and the features, numbers that parse back exactly', async () => {
    const { root, options } = adultMirror();
    const out = join(root, 'csv');
    const settings = { scheme: 'paper-b' as const, seed: 3, protectedAttribute: 'sex' };
    await exportDatasetSplit('adult', settings, out, { ...options, format: 'csv' });
    const split = prepareSplit(await loadDataset('adult', options), settings);
    const lines = readFileSync(join(out, 'held-out.csv'), 'utf8').trimEnd().split('\n');
    expect(lines[0].split(',')).toEqual(['row', 'group', 'label', 'audit', ...split.heldOut.featureNames]);
    expect(lines.length - 1).toBe(split.heldOut.rows);
    const audit = new Set(split.auditRows);
    lines.slice(1).forEach((line, r) => {
      const cells = line.split(',').map(Number);
      expect(cells.slice(0, 4)).toEqual([
        split.heldOut.rowIndex[r],
        split.heldOut.group[r],
        split.heldOut.label[r],
        audit.has(r) ? 1 : 0,
      ]);
      expect(cells.slice(4)).toEqual(
        Array.from(split.heldOut.features.subarray(r * split.heldOut.columns, (r + 1) * split.heldOut.columns)),
      );
    });
  });

  it('throws InputError naming --format for an unknown format', async () => {
    const { root, options } = adultMirror();
    await expect(
      exportDatasetSplit('adult', { scheme: 'paper-a', seed: 1 }, join(root, 'x'), {
        ...options,
        format: 'parquet' as 'npy',
      }),
    ).rejects.toThrow(InputError);
    await expect(
      exportDatasetSplit('adult', { scheme: 'paper-a', seed: 1 }, join(root, 'x'), {
        ...options,
        format: 'parquet' as 'npy',
      }),
    ).rejects.toThrow(/--format/);
  });
});
