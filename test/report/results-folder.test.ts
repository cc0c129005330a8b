import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Table, tableToIPC, Utf8, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { findKindReporter } from '../../src/report/kind-reporters.js';
import { parseRunRecord, readResultsFolder } from '../../src/report/results-folder.js';
import { groupCells, summarizeResults } from '../../src/report/summarize-results.js';
import { InputError } from '../../src/util/errors.js';
import { fixtureRows, writeAuditResults } from './results-fixture.js';

function fresh(): string {
  return mkdtempSync(join(tmpdir(), 'fairaudit-results-'));
}

describe('readResultsFolder(directory)', () => {
  it('reads rows, the experiment, the kind and the varying settings between cell and replicate', async () => {
    const folder = join(fresh(), 'fixture');
    writeAuditResults(folder, fixtureRows());
    const results = await readResultsFolder(folder);
    expect(results.experiment).toBe('fixture');
    expect(results.kind).toBe('sequential-audit');
    expect(results.varyingSettings).toEqual(['dataset', 'access']);
    expect(results.rowCount).toBe(24);
    const rows = [];
    for await (const row of results.rows()) rows.push(row);
    expect(rows).toHaveLength(24);
    expect(rows[0]).toMatchObject({
      dataset: 'acs',
      access: 'decision',
      replicate: 0,
      decision: 'reject',
      queries: 2000,
    });
    expect(results.run?.plannedCells).toHaveLength(6);
    expect(results.run?.provenance.gitCommit).toBe('abc123');
  });
  it('throws InputError (exit 2) for a missing folder, a folder without results.arrow and an empty table', async () => {
    const root = fresh();
    await expect(readResultsFolder(join(root, 'nope'))).rejects.toThrow(
      /nope: expected a results folder .* found no such folder/,
    );
    mkdirSync(join(root, 'empty'));
    await expect(readResultsFolder(join(root, 'empty'))).rejects.toThrow(/found no results.arrow/);
    writeAuditResults(join(root, 'zero'), []);
    await expect(readResultsFolder(join(root, 'zero'))).rejects.toThrow(
      /expected at least one replicate row, found "an empty table \(0 rows\)"/,
    );
    writeFileSync(join(root, 'empty', 'results.arrow'), 'not arrow');
    await expect(readResultsFolder(join(root, 'empty'))).rejects.toThrow(InputError);
  });
  it('throws InputError when results.arrow lacks a column run.json lists', async () => {
    const root = fresh();
    writeAuditResults(join(root, 'bad'), fixtureRows());
    const table = new Table({
      experiment: vectorFromArray(['e'], new Utf8()),
      kind: vectorFromArray(['sequential-audit'], new Utf8()),
    });
    writeFileSync(join(root, 'bad', 'results.arrow'), tableToIPC(table, 'file'));
    await expect(readResultsFolder(join(root, 'bad'))).rejects.toThrow(
      /results\.arrow: expected the \d+ bytes .*run\.json records/,
    );
  });
  it('findKindReporter names the known kinds for an unknown experiment kind', async () => {
    const folder = join(fresh(), 'mystery');
    writeAuditResults(folder, fixtureRows(), { kind: 'mystery-kind' });
    const results = await readResultsFolder(folder);
    expect(() => findKindReporter(results.kind, 'results.arrow: column kind')).toThrow(
      new RegExp(
        String.raw`results\.arrow: column kind: expected an experiment kind the reporter knows ` +
          String.raw`\(.*sequential-audit.*\), found "mystery-kind"`,
      ),
    );
  });
  it('summarizeResults throws InputError naming missing outcome columns', async () => {
    const folder = join(fresh(), 'short');
    writeAuditResults(folder, fixtureRows(), { dropColumns: ['fixed_decision'] });
    const results = await readResultsFolder(folder);
    await expect(summarizeResults(results, findKindReporter('sequential-audit', 'x'))).rejects.toThrow(
      /found "no fixed_decision"/,
    );
  });
  it('groupCells keeps canonical cell order and merges plan settings with varying columns', async () => {
    const folder = join(fresh(), 'fixture');
    writeAuditResults(folder, fixtureRows());
    const cells = await groupCells(await readResultsFolder(folder));
    expect(cells.map((cell) => cell.cell)).toEqual([
      'access=decision,dataset=acs',
      'access=score,dataset=acs',
      'access=logit,dataset=acs',
      'access=decision,dataset=adult',
      'access=score,dataset=adult',
      'access=logit,dataset=adult',
    ]);
    expect(cells[0].settings).toEqual({
      dataset: 'acs',
      access: 'decision',
      audit_tolerance: 0.05,
      audit_budget: 4000,
    });
    expect(cells[0].rows).toHaveLength(4);
  });
  it('refuses a folder without run.json: its results.arrow cannot be checked', async () => {
    const folder = join(fresh(), 'bare');
    writeAuditResults(folder, fixtureRows(), { runJson: false });
    await expect(readResultsFolder(folder)).rejects.toThrow(
      /bare\/run\.json: expected the run\.json of a fairaudit run, found ENOENT/,
    );
  });
});

describe('parseRunRecord(json, path)', () => {
  it('accepts cells keyed by "cell" and uses top-level fields as provenance when there is no provenance object', () => {
    const record = parseRunRecord(
      { plan: { cells: [{ cell: 'k', settings: { a: { b: 1 } } }] }, gitCommit: 'x', config: {} },
      'run.json',
    );
    expect(record.plannedCells).toEqual([{ key: 'k', settings: { a_b: 1 }, replicates: undefined }]);
    expect(record.provenance).toEqual({ gitCommit: 'x' });
  });
  it('throws InputError when run.json is not an object', () => {
    expect(() => parseRunRecord([1], 'run.json')).toThrow(InputError);
  });
});
