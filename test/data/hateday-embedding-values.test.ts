import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDataset } from '../../src/data/load-dataset.js';
import { InputError } from '../../src/util/errors.js';
import { hatedayFixture, npyBuffer } from '../fixtures/hateday-fixture.js';

const fixture = hatedayFixture(40, 512, 5);

function mirrorWith(files: Record<string, Buffer>) {
  const root = mkdtempSync(join(tmpdir(), 'fairaudit-hateday-values-'));
  const folder = join(root, 'mirror', 'hateday');
  mkdirSync(folder, { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(folder, name), content);
  return { dataDirectory: join(root, 'mirror'), downloadsDirectory: join(root, 'downloads') };
}

// A NaN or infinite embedding value would flow through standardisation into the
// models' features (and every prediction of a tree or MLP that touches it) silently.
describe('loadDataset("hateday") on embeddings that are not finite numbers', () => {
  it.each([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
  ])('loadDataset rejects a side-file embedding of %s naming the file, row and dimension', async (_name, bad) => {
    const values = Float32Array.from(fixture.embedding);
    values[3 * 512 + 17] = bad;
    const npy = npyBuffer(values, fixture.rows, 512);
    const error = await loadDataset(
      'hateday',
      mirrorWith({ 'hateday_v2_hf_final.parquet': fixture.parquetWithoutEmbedding, 'hateday_embeddings.npy': npy }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(/hateday_embeddings\.npy: row 4, dimension 18: expected a finite number/);
  });

  it('loadDataset still reads a side file of finite embeddings', async () => {
    const table = await loadDataset(
      'hateday',
      mirrorWith({
        'hateday_v2_hf_final.parquet': fixture.parquetWithoutEmbedding,
        'hateday_embeddings.npy': fixture.npy,
      }),
    );
    expect(table.rows).toBe(fixture.rows);
  });
});
