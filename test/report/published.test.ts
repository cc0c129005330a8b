import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  loadPublishedFile,
  loadPublishedFiles,
  loadPublishedFolder,
  parsePublished,
  rowText,
} from '../../src/report/published.js';
import { InputError } from '../../src/util/errors.js';
import { packageRoot } from '../../src/util/paths.js';

const cell = {
  id: 'x',
  table: 'Table 1',
  row: 'ACS',
  column: 'SP Gap',
  kind: 'analytic',
  value: 0.0287,
  rounding: 5e-5,
};

describe('parsePublished(json, path)', () => {
  it('reads the paper-A file in the repository (every cell valid, ids unique)', () => {
    const files = loadPublishedFiles([
      join(packageRoot(), 'papers', 'paper-a', 'published.json'),
      join(packageRoot(), 'papers', 'paper-b', 'published.json'),
    ]);
    const paperA = files.find((file) => file.paper === 'A');
    expect(paperA).toBeDefined();
    expect(paperA?.cells.length).toBeGreaterThan(100);
    const table2 = paperA?.cells.find((entry) => entry.id === 'paper-a/table2/acs/robust-base/decision/queries');
    // paper A Table 2, ACS Robust-Base, decision-only: "Reject, 2349 ± 1345" over 20 runs
    expect(table2).toMatchObject({ kind: 'mean', value: 2349, std: 1345, replicates: 20 });
  });
  it('fills replicates and experiment from the file', () => {
    const file = parsePublished(
      {
        paper: { id: 'A', title: 'T' },
        settings: { replicates: 20 },
        experiment: 'e',
        cells: [{ ...cell, kind: 'frequency', value: 0.5 }],
      },
      'p.json',
    );
    expect(file.cells[0]).toMatchObject({ replicates: 20, experiment: 'e' });
    expect(file.title).toBe('T');
  });
  it('throws InputError naming the file, cell and key for a bad kind, value or duplicate id', () => {
    expect(() => parsePublished({ paper: 'A', cells: [{ ...cell, kind: 'average' }] }, 'p.json')).toThrow(
      /p\.json: cells\[0\] \(x\)\.kind: expected one of mean/,
    );
    expect(() => parsePublished({ paper: 'A', cells: [{ ...cell, value: 'big' }] }, 'p.json')).toThrow(
      /\.value: expected a finite number/,
    );
    expect(() => parsePublished({ paper: 'A', cells: [{ ...cell, kind: 'mean' }] }, 'p.json')).toThrow(/replicates/);
    expect(() => parsePublished({ paper: 'A', cells: [cell, cell] }, 'p.json')).toThrow(/unique cell ids/);
    expect(() => parsePublished({ paper: 'A', cells: [{ ...cell, where: { dataset: ['acs'] } }] }, 'p.json')).toThrow(
      InputError,
    );
    expect(() => parsePublished([], 'p.json')).toThrow(InputError);
  });
  it('loadPublishedFile reports invalid JSON and a missing file as InputError', () => {
    const folder = mkdtempSync(join(tmpdir(), 'fairaudit-published-'));
    writeFileSync(join(folder, 'bad.json'), '{ nope');
    expect(() => loadPublishedFile(join(folder, 'bad.json'))).toThrow(/bad\.json: expected valid JSON/);
    expect(() => loadPublishedFile(join(folder, 'missing.json'))).toThrow(InputError);
  });
  it('loadPublishedFolder rejects an id used in two files and returns [] for a missing folder', () => {
    const folder = mkdtempSync(join(tmpdir(), 'fairaudit-published-'));
    writeFileSync(join(folder, 'a.json'), JSON.stringify({ paper: 'A', cells: [cell] }));
    writeFileSync(join(folder, 'b.json'), JSON.stringify({ paper: 'B', cells: [cell] }));
    expect(() => loadPublishedFolder(folder)).toThrow(/already used in/);
    expect(loadPublishedFolder(join(folder, 'nothing-here'))).toEqual([]);
  });
});

describe('rowText(row)', () => {
  it('joins a row object in order', () => {
    expect(rowText({ dataset: 'ACS', model: 'Robust-Base' })).toBe('ACS / Robust-Base');
    expect(rowText('Reject')).toBe('Reject');
  });
});
