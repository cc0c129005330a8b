import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadPoolSource, poolSourceSchema } from '../../src/data/pool-source.js';
import { validate } from '../../src/util/schema.js';

const scratch = mkdtempSync(join(tmpdir(), 'fairaudit-pool-source-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const origin = { configFile: join(scratch, 'config.yaml'), baseDirectory: scratch };

describe('loadPoolSource(source, access, origin) with a column mapping (the YAML keys of a pool file)', () => {
  it('reads a file with its own column names and string groups', async () => {
    writeFileSync(join(scratch, 'user.csv'), 'sex,y_true,y_pred,proba\nFemale,1,1,0.9\nMale,0,0,0.2\nMale,1,1,0.7\n');
    const source = validate(
      {
        file: 'user.csv',
        groupColumn: 'sex',
        groupA: 'Female',
        labelColumn: 'y_true',
        decisionColumn: 'y_pred',
        scoreColumn: 'proba',
      },
      poolSourceSchema,
    );
    const pool = await loadPoolSource(source, 'score', origin);
    expect([...pool.group]).toEqual([0, 1, 1]);
    expect([...pool.label]).toEqual([1, 0, 1]);
    expect([...pool.decision]).toEqual([1, 0, 1]);
    expect([...(pool.score ?? [])]).toEqual([0.9, 0.2, 0.7]);
  });

  it('refuses a mapping on a synthetic pool, naming the key', () => {
    expect(() =>
      validate({ synthetic: { size: 100, decisionRate: [0.3, 0.3] }, groupColumn: 'sex' }, poolSourceSchema, ['pool']),
    ).toThrow(/pool\.groupColumn: expected a column mapping only with file/);
  });
});
