import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Table, tableToIPC, vectorFromArray } from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { applyGroupSizeRule } from '../../src/audit/group-size-rule.js';
import { groupCountOf } from '../../src/audit/pool.js';
import { readPoolFile } from '../../src/audit/pool-io.js';

const scratch = mkdtempSync(join(tmpdir(), 'fairaudit-group-coder-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function csv(name: string, text: string): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

const PEOPLE = [
  'sex,race,label,decision',
  'Male,White,1,1',
  'Female,Black,0,1',
  'Female,White,1,0',
  'Male,Black,1,1',
  'Female,Asian,0,0',
  'Male,White,0,1',
].join('\n');

describe('readPoolFile with a multi-valued group column', () => {
  it('readPoolFile(csv, {groupColumn}) codes names in sorted order and names them', () => {
    const pool = readPoolFile(csv('race.csv', PEOPLE), { columns: { groupColumn: 'race' } });
    expect(pool.groupNames).toEqual(['Asian', 'Black', 'White']);
    expect([...pool.group]).toEqual([2, 1, 2, 1, 0, 2]);
    expect(groupCountOf(pool)).toBe(3);
  });

  it('readPoolFile(csv) sorts integer codes by value ("10" after "2") and reads "1.0" as 1', () => {
    const pool = readPoolFile(csv('ints.csv', 'group,label,decision\n10,1,1\n2,0,1\n1.0,1,0\n2,1,1\n'));
    expect(pool.groupNames).toEqual(['1', '2', '10']);
    expect([...pool.group]).toEqual([2, 1, 0, 1]);
  });

  it('readPoolFile(csv) of a 0/1 column has no group names (a two-group pool as before)', () => {
    const pool = readPoolFile(csv('binary.csv', 'group,label,decision\n1,1,1\n0,0,1\n1.0,1,0\n'));
    expect(pool.groupNames).toBeUndefined();
    expect([...pool.group]).toEqual([1, 0, 1]);
  });

  it('readPoolFile(csv) refuses an empty group cell and a fractional one, naming row and column', () => {
    expect(() => readPoolFile(csv('empty.csv', 'group,label,decision\nA,1,1\n,0,1\n'))).toThrow(
      /empty\.csv: row 2 \(line 3\), column "group": expected a group value \(an integer or a name\)/,
    );
    expect(() => readPoolFile(csv('half.csv', 'group,label,decision\n0.5,1,1\n'))).toThrow(/row 1 \(line 2\)/);
  });

  it('readPoolFile(csv, {groups: "sex,race"}) forms the intersections, named part by part', () => {
    const pool = readPoolFile(csv('both.csv', PEOPLE), { columns: { groups: 'sex,race' } });
    expect(pool.groupNames).toEqual([
      'Female & Asian',
      'Female & Black',
      'Female & White',
      'Male & Black',
      'Male & White',
    ]);
    expect([...pool.group]).toEqual([4, 1, 2, 3, 0, 4]);
  });

  it('readPoolFile(arrow, {groups}) forms the same intersections as the CSV reader', () => {
    const rows = PEOPLE.split('\n')
      .slice(1)
      .map((line) => line.split(','));
    const table = new Table({
      sex: vectorFromArray(rows.map((row) => row[0])),
      race: vectorFromArray(rows.map((row) => row[1])),
      label: vectorFromArray(rows.map((row) => Number(row[2]))),
      decision: vectorFromArray(rows.map((row) => Number(row[3]))),
    });
    const path = join(scratch, 'both.arrow');
    writeFileSync(path, tableToIPC(table, 'file'));
    const fromArrow = readPoolFile(path, { columns: { groups: 'sex,race' } });
    const fromCsv = readPoolFile(csv('both2.csv', PEOPLE), { columns: { groups: 'sex,race' } });
    expect(fromArrow.groupNames).toEqual(fromCsv.groupNames);
    expect([...fromArrow.group]).toEqual([...fromCsv.group]);
  });

  it('readPoolFile(csv, {groups}) refuses a missing column and groups with groupColumn', () => {
    expect(() => readPoolFile(csv('p1.csv', PEOPLE), { columns: { groups: 'sex,age' } })).toThrow(
      /column "age": expected a column "age" of the groups \(groups, --groups\)/,
    );
    expect(() => readPoolFile(csv('p2.csv', PEOPLE), { columns: { groups: 'sex', groupColumn: 'race' } })).toThrow(
      /either groups .* or groupColumn\/groupA/,
    );
  });
});

describe('applyGroupSizeRule(pool, rule)', () => {
  it('excludes the groups under the minimum size, renumbers the rest and states the rule', () => {
    const pool = readPoolFile(csv('rule.csv', PEOPLE), { columns: { groupColumn: 'race', minGroupSize: 2 } });
    expect(pool.groupNames).toEqual(['Black', 'White']);
    expect(pool.size).toBe(5);
    expect([...pool.group]).toEqual([1, 0, 1, 0, 1]);
    expect([...pool.decision]).toEqual([1, 1, 0, 1, 1]);
    expect(pool.groupSizeRule).toEqual({
      rule: 'groups with fewer than 2 rows are excluded from the audit',
      excluded: [{ name: 'Asian', rows: 1 }],
    });
  });

  it('applies a share (Local Law 144: 2%) of the rows, and refuses a rule that leaves one group', () => {
    const pool = readPoolFile(csv('share.csv', PEOPLE), { columns: { groupColumn: 'race' } });
    // 1 of 6 rows is 16.7% < 20%; 2 of 6 is 33.3%.
    expect(applyGroupSizeRule(pool, { minGroupShare: 0.2 }).groupSizeRule?.excluded).toEqual([
      { name: 'Asian', rows: 1 },
    ]);
    expect(() => applyGroupSizeRule(pool, { minGroupSize: 3 })).toThrow(
      /expected at least two groups left after the rule, found "?1 left: groups with fewer than 3 rows/,
    );
  });

  it('keeps a pool whose groups all pass, recording the rule with nothing excluded', () => {
    const pool = readPoolFile(csv('pass.csv', PEOPLE), { columns: { groupColumn: 'sex' } });
    const ruled = applyGroupSizeRule(pool, { minGroupSize: 1 });
    expect(ruled.group).toBe(pool.group);
    expect(ruled.groupSizeRule?.excluded).toEqual([]);
  });
});
