import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Bool,
  Float32,
  makeData,
  RecordBatch,
  Schema,
  Struct,
  Table,
  tableFromArrays,
  tableToIPC,
  vectorFromArray,
} from 'apache-arrow';
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

  it(
    'readPoolFile(path) rejects a missing group column, an empty cell, a score above 1, a logit whose square ' +
      'overflows, a ragged row',
    () => {
      expect(() => readPoolFile(csv('no-group.csv', 'label,decision\n1,1\n'))).toThrow(/column "group"/);
      expect(() => readPoolFile(csv('empty-cell.csv', 'group,label,decision\n0,,1\n'))).toThrow(
        /row 1 \(line 2\), column "label"/,
      );
      expect(() => readPoolFile(csv('big-score.csv', 'group,label,decision,score\n0,1,1,1.5\n'))).toThrow(
        /column "score": expected a score in \[0, 1\]/,
      );
      expect(() => readPoolFile(csv('huge-logit.csv', 'group,label,decision,logit\n0,1,1,1e200\n'))).toThrow(
        /column "logit": expected a finite logit of at most 1000000 in size/,
      );
      expect(() => readPoolFile(csv('ragged.csv', 'group,label,decision\n0,1\n'))).toThrow(/row 1 \(line 2\)/);
      // A value other than 0 and 1 makes a group of its own (the K-group pools of group-coder.test.ts).
      expect(readPoolFile(csv('group-3.csv', 'group,label,decision\n3,1,1\n')).groupNames).toEqual(['3']);
      expect(() => readPoolFile(join(scratch, 'absent.csv'))).toThrow(InputError);
    },
  );

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
    expect(() => readPoolFile(path)).toThrow(
      /null\.arrow: row 3, column "group": expected a group value \(an integer or a name\), found null/,
    );
  });

  it('readPoolFile(arrow) rejects a file that is not Arrow', () => {
    const path = csv('not.arrow', 'group,label,decision\n');
    expect(() => readPoolFile(path)).toThrow(InputError);
  });
});

describe('readPoolFile(path) on hostile input', () => {
  it('reads RFC 4180 quoted cells ("0", "1") as their values, as every spreadsheet writes them', () => {
    const pool = readPoolFile(csv('quoted.csv', '"group","label","decision"\n"0","1","1"\n"1","0","0"\n0,0,1\n'));
    expect(pool.size).toBe(3);
    expect([...pool.group]).toEqual([0, 1, 0]);
    expect([...pool.decision]).toEqual([1, 0, 1]);
  });

  it('reads lone-CR line ends (old Mac exports) as rows, where "among 0 rows" came before', () => {
    const pool = readPoolFile(csv('lone-cr.csv', 'group,label,decision,score\r0,1,1,0.5\r1,0,0,0.25\r'));
    expect(pool.size).toBe(2);
    expect([...pool.score!]).toEqual([0.5, 0.25]);
  });

  it('still refuses a quoted cell that is not a decimal, naming row and column', () => {
    expect(() => readPoolFile(csv('quoted-text.csv', 'group,label,decision\n"0","1","yes"\n'))).toThrow(
      /quoted-text\.csv: row 1 \(line 2\), column "decision": expected 0 or 1, found "yes"/,
    );
  });

  it('reads a pool of 5000 rows, every row in place (a first pass counts them)', () => {
    const lines = ['group,label,decision'];
    for (let i = 0; i < 5000; i++) lines.push(`${i % 2},${(i >> 1) % 2},${(i >> 2) % 2}`);
    const pool = readPoolFile(csv('five-thousand.csv', `${lines.join('\n')}\n`));
    expect(pool.size).toBe(5000);
    expect(pool.group.length).toBe(5000);
    expect(pool.decision[4999]).toBe((4999 >> 2) % 2);
  });

  it('refuses an Arrow pool with two decision columns (the CSV was already refused), naming the column', () => {
    const base = tableFromArrays({
      group: new Uint8Array([0, 1]),
      label: new Uint8Array([1, 0]),
      decision: new Uint8Array([1, 1]),
    });
    const other = tableFromArrays({ decision: new Uint8Array([0, 0]) });
    const doubled = new Table(
      new Schema([...base.schema.fields, ...other.schema.fields]),
      new RecordBatch(
        new Schema([...base.schema.fields, ...other.schema.fields]),
        makeData({
          type: new Struct([...base.schema.fields, ...other.schema.fields]),
          length: 2,
          children: [...base.batches[0].data.children, ...other.batches[0].data.children],
        }),
      ),
    );
    expect(doubled.schema.fields.map((field) => field.name)).toEqual(['group', 'label', 'decision', 'decision']);
    const path = join(scratch, 'two-decisions.arrow');
    writeFileSync(path, tableToIPC(doubled, 'file'));
    expect(() => readPoolFile(path)).toThrow(
      new InputError(`${path}: schema: expected each column named once, found "column \\"decision\\" twice"`),
    );
    expect(() => readPoolFile(csv('two-decisions.csv', 'group,label,decision,decision\n0,1,1,0\n'))).toThrow(
      /expected each column named once, found "column \\"decision\\" twice"/,
    );
  });

  it('stops reading /dev/zero at 500 MiB with InputError instead of growing without limit', () => {
    expect(() => readPoolFile('/dev/zero')).toThrow(
      new InputError('/dev/zero: expected a readable pool file of at most 500 MiB, found a larger file'),
    );
  });

  it('quotes at most 200 characters of a 4 MB cell in its message', () => {
    const path = csv('huge-cell.csv', `group,label,decision\n0,1,${'2'.repeat(4_000_000)}\n`);
    let message = '';
    try {
      readPoolFile(path);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(
      /huge-cell\.csv: row 1 \(line 2\), column "decision": expected 0 or 1, found "2{200}…" \(4000000 characters\)$/,
    );
  });
});

describe('readPoolFile(path): values a hostile pool may hold', () => {
  it('a finite logit of 1e308 is refused naming the row (it gave NaN statistics); 1e6 is the largest accepted', () => {
    const folder = mkdtempSync(join(tmpdir(), 'fairaudit-pool-values-'));
    const huge = join(folder, 'huge.csv');
    writeFileSync(huge, 'group,label,decision,logit\n0,1,1,0.5\n1,0,0,1e308\n');
    expect(() => readPoolFile(huge, { require: ['logit'] })).toThrow(
      new RegExp(
        `${huge}: row 2 \\(line 3\\), column "logit": expected a finite logit of at most 1000000 in size .*, ` +
          `found "1e308"`,
      ),
    );
    const edge = join(folder, 'edge.csv');
    writeFileSync(edge, 'group,label,decision,logit\n0,1,1,-1000000\n1,0,0,1000000\n');
    expect(readPoolFile(edge, { require: ['logit'] }).logit).toEqual(Float64Array.of(-1e6, 1e6));
    rmSync(folder, { recursive: true, force: true });
  });

  it('a 0-byte .arrow pool: "an empty file (0 bytes)", not "found columns none"', () => {
    const folder = mkdtempSync(join(tmpdir(), 'fairaudit-pool-values-'));
    const empty = join(folder, 'empty.arrow');
    writeFileSync(empty, '');
    expect(() => readPoolFile(empty)).toThrow(
      new InputError(`${empty}: expected an Arrow IPC file, found "an empty file (0 bytes)"`),
    );
    rmSync(folder, { recursive: true, force: true });
  });
});
