import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSyntheticPool } from '../../src/data/synthetic-pool.js';
import { CACHE_FILES, readCachedModel, writeCachedModel } from '../../src/models/model-cache.js';
import { type ModelCard, poolFigures } from '../../src/models/model-card.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';

/** A cache entry of a 2,000-row synthetic pool and a 500-row audit pool, with the card its figures give. */
function storedModel() {
  const directory = temporaryFolder('fairaudit-model-cache-');
  const spec = {
    size: 2000,
    groupShare: 0.4,
    labelRate: [0.45, 0.4],
    decisionRate: [0.4, 0.3],
    truePositiveRate: [0.75, 0.7],
    logitScale: 2,
    seed: '1',
  };
  const pool = generateSyntheticPool(spec as never);
  const auditPool = generateSyntheticPool({ ...spec, size: 500 } as never);
  const card: ModelCard = {
    model: 'test',
    dataset: 'synthetic',
    settings: {},
    seed: '1',
    trainingRows: 0,
    ...poolFigures(pool),
    trainingSeconds: 0,
  };
  writeCachedModel(directory, pool, auditPool, card);
  return { directory, card };
}

describe('readCachedModel(directory, onNotice): the model cache is checked as results are', () => {
  it('reads back a whole entry: the card as written (its checksums not part of it)', () => {
    const { directory, card } = storedModel();
    const notices: string[] = [];
    const read = readCachedModel(directory, (notice) => notices.push(notice));
    expect(read?.card).toEqual(card);
    expect(read?.auditPool?.size).toBe(500);
    // Named as a freshly trained model's pools are, not by the cache path: cold and warm runs write the same.
    expect([read?.pool.source, read?.auditPool?.source]).toEqual([
      'model:synthetic/test',
      'model:synthetic/test/audit',
    ]);
    expect(notices).toEqual([]);
    expect(JSON.parse(readFileSync(join(directory, CACHE_FILES.card), 'utf8')).checksums).toMatchObject({
      'pool.arrow': expect.stringMatching(/^[0-9a-f]{64}$/),
      'audit-pool.arrow': expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it('one flipped byte in audit-pool.arrow: not used, one notice, the model is trained again', () => {
    const { directory } = storedModel();
    const file = join(directory, CACHE_FILES.auditPool);
    const bytes = readFileSync(file);
    bytes[bytes.length - 200] ^= 0x01;
    writeFileSync(file, bytes);
    const notices: string[] = [];
    expect(readCachedModel(directory, (notice) => notices.push(notice))).toBeNull();
    expect(notices).toEqual([
      `${directory}: audit-pool.arrow does not have the SHA-256 card.json records (changed or damaged); training ` +
        `the model again`,
    ]);
  });

  it('a truncated card.json is a notice, not a crash', () => {
    const { directory } = storedModel();
    const file = join(directory, CACHE_FILES.card);
    writeFileSync(file, readFileSync(file, 'utf8').slice(0, 120));
    const notices: string[] = [];
    expect(readCachedModel(directory, (notice) => notices.push(notice))).toBeNull();
    expect(notices).toEqual([
      `${directory}: card.json is not a whole model card (truncated or damaged); training the model again`,
    ]);
  });

  it("a card whose SP gap is not its pool's (the checksums intact): not used", () => {
    const { directory, card } = storedModel();
    const file = join(directory, CACHE_FILES.card);
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...stored, statisticalParityGap: card.statisticalParityGap + 0.001 }));
    const notices: string[] = [];
    expect(readCachedModel(directory, (notice) => notices.push(notice))).toBeNull();
    expect(notices[0]).toMatch(/pool\.arrow gives 2000 rows, SP gap .* not the card's 2000, /);
  });
});
