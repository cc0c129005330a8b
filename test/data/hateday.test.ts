import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDataset } from '../../src/data/load-dataset.js';
import { prepareSplit } from '../../src/data/prepare-split.js';
import { InputError } from '../../src/util/errors.js';
import { hatedayFixture, npyBuffer } from '../fixtures/hateday-fixture.js';
import { sum } from './real-datasets.js';

const fixture = hatedayFixture(120, 512, 3);

function mirrorWith(files: Record<string, Buffer>) {
  const root = mkdtempSync(join(tmpdir(), 'fairaudit-hateday-'));
  const folder = join(root, 'mirror', 'hateday');
  mkdirSync(folder, { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(folder, name), content);
  return { dataDirectory: join(root, 'mirror'), downloadsDirectory: join(root, 'downloads') };
}

const embeddingOf = (table: Awaited<ReturnType<typeof loadDataset>>, row: number) =>
  table.columns.map((column) => (column.kind === 'numeric' ? column.values[row] : Number.NaN));

describe('loadDataset("hateday") on a generated parquet', () => {
  it('loadDataset reads class_clean, lang_country_hateday and the embedding column', async () => {
    const table = await loadDataset(
      'hateday',
      mirrorWith({ 'hateday_v2_hf_final.parquet': fixture.parquetWithEmbedding }),
    );
    expect(table.rows).toBe(fixture.rows);
    expect(sum(table.label)).toBe(fixture.positives);
    expect(table.protectedAttributes[0].name).toBe('language');
    expect(sum(table.protectedAttributes[0].group)).toBe(fixture.nonUs);
    expect(table.columns).toHaveLength(512);
    expect(embeddingOf(table, 7)).toEqual(Array.from(fixture.embedding.slice(7 * 512, 8 * 512)));
    expect(table.files[0].check).toBe('unknown'); // no checksum is published for a gated file
  });

  it('loadDataset takes the embeddings from hateday_embeddings.npy when the parquet has none', async () => {
    const table = await loadDataset(
      'hateday',
      mirrorWith({
        'hateday_v2_hf_final.parquet': fixture.parquetWithoutEmbedding,
        'hateday_embeddings.npy': fixture.npy,
      }),
    );
    expect(table.rows).toBe(fixture.rows);
    expect(embeddingOf(table, 119)).toEqual(Array.from(fixture.embedding.slice(119 * 512)));
  });

  it('loadDataset without embeddings names the two ways to supply them', async () => {
    const error = await loadDataset(
      'hateday',
      mirrorWith({ 'hateday_v2_hf_final.parquet': fixture.parquetWithoutEmbedding }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(
      /expected an embedding column \(embedding or embeddings\) or the side file hateday_embeddings\.npy/,
    );
  });

  it('loadDataset rejects a side file of the wrong shape and a truncated one', async () => {
    const narrow = npyBuffer(new Float32Array(fixture.rows * 4), fixture.rows, 4);
    await expect(
      loadDataset(
        'hateday',
        mirrorWith({
          'hateday_v2_hf_final.parquet': fixture.parquetWithoutEmbedding,
          'hateday_embeddings.npy': narrow,
        }),
      ),
    ).rejects.toThrow(/hateday_embeddings\.npy: expected shape \(120, 512\).*found "shape \(120, 4\)"/);
    const cut = fixture.npy.subarray(0, fixture.npy.length - 100);
    await expect(
      loadDataset(
        'hateday',
        mirrorWith({ 'hateday_v2_hf_final.parquet': fixture.parquetWithoutEmbedding, 'hateday_embeddings.npy': cut }),
      ),
    ).rejects.toThrow(/hateday_embeddings\.npy: expected 245760 bytes of data.*truncated/);
  });

  it('loadDataset rejects a file that is not parquet', async () => {
    await expect(
      loadDataset('hateday', mirrorWith({ 'hateday_v2_hf_final.parquet': Buffer.from('text,class_clean\n') })),
    ).rejects.toThrow(/hateday_v2_hf_final\.parquet: expected a parquet file/);
  });

  it('loadDataset when the gated file is absent says how to get it', async () => {
    const error = await loadDataset('hateday', mirrorWith({})).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(/gated/);
    expect((error as Error).message).toMatch(/download the files yourself/);
  });

  it('prepareSplit(hateday, paper-b) stratifies the candidate set by language', async () => {
    const table = await loadDataset(
      'hateday',
      mirrorWith({ 'hateday_v2_hf_final.parquet': fixture.parquetWithEmbedding }),
    );
    const split = prepareSplit(table, { scheme: 'paper-b', seed: 1 });
    expect(split.heldOut.rows).toBe(Math.ceil(0.45 * fixture.rows));
    expect(split.auditRows?.length).toBe(Math.ceil(split.heldOut.rows / 2));
    expect(split.train.columns).toBe(512);
    expect(Math.abs(sum(split.heldOut.group) - (fixture.nonUs * split.heldOut.rows) / fixture.rows)).toBeLessThan(1);
  });
});
