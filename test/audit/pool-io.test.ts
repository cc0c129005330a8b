import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bool, Float32, tableFromArrays, tableToIPC, Table, vectorFromArray } from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { poolToArrowBytes, readPoolFile, writePoolFile } from '../../src/audit/pool-io.js';
import { InputError } from '../../src/util/errors.js';

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'pools');
const scratch = mkdtempSync(join(tmpdir(), 'fairaudit-pool-io-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function csv(name: string, text: string): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

describe('readPoolFile(path) on CSV', () => {
  it('readPoolFile(small.csv) reads every column as typed arrays', () => {
    const pool = readPoolFile(join(fixtures, 'small.csv'));
    expect(pool.size).toBe(6);
    expect([...pool.group]).toEqual([0, 0, 1, 1, 0, 1]);
    expect([...pool.label]).toEqual([1, 0, 1, 0, 1, 1]);
    expect([...pool.decision]).toEqual([1, 0, 0, 1, 1, 1]);
    expect([...pool.score!]).toEqual([0.9, 0.2, 0.4, 0.7, 0.6, 0.55]);
    expect(pool.logit![0]).toBe(2.1972245773362196);
    expect([...pool.id!]).toEqual([1, 2, 3, 4, 5, 6]);
    expect(pool.source).toBe(join(fixtures, 'small.csv'));
  });

  it('readPoolFile(decisions-only.csv) leaves score, logit and id null', () => {
    const pool = readPoolFile(join(fixtures, 'decisions-only.csv'));
    expect(pool.size).toBe(2);
    expect(pool.score).toBeNull();
    expect(pool.logit).toBeNull();
    expect(pool.id).toBeNull();
  });

  it('readPoolFile(path, {require: ["score"]}) names the missing column', () => {
    const path = join(fixtures, 'decisions-only.csv');
    expect(() => readPoolFile(path, { require: ['score'] })).toThrow(InputError);
    expect(() => readPoolFile(path, { require: ['score'] })).toThrow(/decisions-only\.csv: column "score"/);
  });

  it('readPoolFile(bad-decision.csv) names file, row and column of a decision of 2', () => {
    expect(() => readPoolFile(join(fixtures, 'bad-decision.csv'))).toThrow(
      /bad-decision\.csv: row 2 \(line 3\), column "decision": expected 0 or 1, found "2"/,
    );
  });

  it('readPoolFile(nan-score.csv) rejects a NaN score', () => {
    expect(() => readPoolFile(join(fixtures, 'nan-score.csv'))).toThrow(/row 2 \(line 3\), column "score"/);
  });

  it('readPoolFile(path) rejects a missing group column, an empty cell, a score above 1, a ragged row', () => {
    expect(() => readPoolFile(csv('no-group.csv', 'label,decision\n1,1\n'))).toThrow(/column "group"/);
    expect(() => readPoolFile(csv('empty-cell.csv', 'group,label,decision\n0,,1\n'))).toThrow(
      /row 1 \(line 2\), column "label"/,
    );
    expect(() => readPoolFile(csv('big-score.csv', 'group,label,decision,score\n0,1,1,1.5\n'))).toThrow(
      /column "score": expected a score in \[0, 1\]/,
    );
    expect(() => readPoolFile(csv('ragged.csv', 'group,label,decision\n0,1\n'))).toThrow(/row 1 \(line 2\)/);
    expect(() => readPoolFile(csv('group-3.csv', 'group,label,decision\n3,1,1\n'))).toThrow(/column "group"/);
    expect(() => readPoolFile(join(scratch, 'absent.csv'))).toThrow(InputError);
  });

  it('readPoolFile(path) accepts CRLF line ends and a trailing newline', () => {
    const pool = readPoolFile(csv('crlf.csv', 'group,label,decision\r\n0,1,1\r\n1,0,0\r\n'));
    expect(pool.size).toBe(2);
    expect([...pool.decision]).toEqual([1, 0]);
  });
});

describe('writePoolFile(path, pool) and readPoolFile(path) on Arrow IPC', () => {
  it('round-trips every column exactly', () => {
    const pool = readPoolFile(join(fixtures, 'small.csv'));
    const path = join(scratch, 'small.arrow');
    writePoolFile(path, pool);
    const back = readPoolFile(path);
    expect(back.size).toBe(pool.size);
    for (const column of ['group', 'label', 'decision', 'score', 'logit', 'id'] as const) {
      expect([...back[column]!]).toEqual([...pool[column]!]);
    }
  });

  it('round-trips a pool without optional columns', () => {
    const pool = readPoolFile(join(fixtures, 'decisions-only.csv'));
    const path = join(scratch, 'decisions.arrow');
    writePoolFile(path, pool);
    const back = readPoolFile(path);
    expect(back.score).toBeNull();
    expect([...back.group]).toEqual([0, 1]);
  });

  it('readPoolFile(arrow) names row and column of a bad value', () => {
    const pool = readPoolFile(join(fixtures, 'small.csv'));
    const score = pool.score!.slice();
    score[3] = Number.NaN;
    const path = join(scratch, 'bad.arrow');
    writeFileSync(path, poolToArrowBytes({ ...pool, score }));
    expect(() => readPoolFile(path)).toThrow(/bad\.arrow: row 4, column "score"/);
  });

  it('readPoolFile(arrow) accepts int64, boolean and float32 columns as other writers produce them', () => {
    const table = new Table({
      group: vectorFromArray([false, true, true], new Bool()),
      label: tableFromArrays({ x: BigInt64Array.from([1n, 0n, 1n]) }).getChild('x')!,
      decision: tableFromArrays({ x: Float64Array.from([1, 0, 0]) }).getChild('x')!,
      score: vectorFromArray([0.5, 0.25, 0.75], new Float32()),
    });
    const path = join(scratch, 'typed.arrow');
    writeFileSync(path, tableToIPC(table, 'file'));
    const pool = readPoolFile(path);
    expect([...pool.group]).toEqual([0, 1, 1]);
    expect([...pool.label]).toEqual([1, 0, 1]);
    expect([...pool.decision]).toEqual([1, 0, 0]);
    expect([...pool.score!]).toEqual([0.5, 0.25, 0.75]);
  });

  it('readPoolFile(arrow) names the row of a null value', () => {
    const table = new Table({
      group: vectorFromArray([0, 1, null]),
      label: vectorFromArray([1, 1, 1]),
      decision: vectorFromArray([1, 0, 1]),
    });
    const path = join(scratch, 'null.arrow');
    writeFileSync(path, tableToIPC(table, 'file'));
    expect(() => readPoolFile(path)).toThrow(/null\.arrow: row 3, column "group": expected 0 or 1, found null/);
  });

  it('readPoolFile(arrow) rejects a file that is not Arrow', () => {
    const path = csv('not.arrow', 'group,label,decision\n');
    expect(() => readPoolFile(path)).toThrow(InputError);
  });
});
