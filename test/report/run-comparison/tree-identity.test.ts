import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compareTreeIdentity, treeFiles } from '../../../src/report/run-comparison/tree-identity.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A results tree with the given files (relative path → content). */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'fairaudit-tree-identity-'));
  folders.push(root);
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), content);
  }
  return root;
}

function runJson(
  rows: number,
  provenance: Record<string, unknown>,
  keyOrder: 'rows first' | 'kind first' = 'rows first',
) {
  const record =
    keyOrder === 'rows first'
      ? { rows, kind: 'sequential-audit', provenance }
      : { kind: 'sequential-audit', provenance, rows };
  return `${JSON.stringify(record, null, 2)}\n`;
}

describe('compareTreeIdentity(first, second): two results trees differ only in run.json provenance', () => {
  const common = {
    'paper-a/report.html': '<p>equal</p>',
    'paper-a/charts/figure-1.svg': '<svg/>',
    '.gitkeep': '',
  };

  it('passes two trees whose run.json files differ only in provenance, at any depth and in any key order', () => {
    const first = tree({
      ...common,
      'paper-a/run.json': runJson(10, { wallSeconds: 1.5, notes: { model: 'trained' } }),
      'paper-b-pir/run.json': runJson(0, { timings: { answerMs: [0.5] } }),
    });
    const second = tree({
      ...common,
      'paper-a/run.json': runJson(10, { wallSeconds: 9.25, notes: { model: 'cached' } }, 'kind first'),
      'paper-b-pir/run.json': runJson(0, { timings: { answerMs: [0.9] } }),
    });
    expect(compareTreeIdentity(first, second)).toEqual({ files: 5, differing: [] });
  });

  it('names a run.json that differs outside its provenance, and any other file that differs by a byte', () => {
    const first = tree({ ...common, 'paper-a/run.json': runJson(10, { wallSeconds: 1 }) });
    const second = tree({
      ...common,
      'paper-a/run.json': runJson(11, { wallSeconds: 1 }),
      'paper-a/report.html': '<p>equal</p>\n',
    });
    expect(compareTreeIdentity(first, second).differing).toEqual([
      { file: 'paper-a/report.html', why: 'bytes differ' },
      { file: 'paper-a/run.json', why: 'run.json differs outside provenance' },
    ]);
  });

  it('exempts provenance only in run.json: another JSON file with a provenance key must be byte-equal', () => {
    const first = tree({ 'paper-a/report-layout.json': runJson(1, { at: 'one' }) });
    const second = tree({ 'paper-a/report-layout.json': runJson(1, { at: 'two' }) });
    expect(compareTreeIdentity(first, second).differing).toEqual([
      { file: 'paper-a/report-layout.json', why: 'bytes differ' },
    ]);
  });

  it('lists files only one tree holds, and counts the union', () => {
    const first = tree({ ...common, 'paper-b/table-2.md': 'x' });
    const second = tree({ ...common, 'paper-b/table-3.md': 'x' });
    const identity = compareTreeIdentity(first, second);
    expect(identity.files).toBe(5);
    expect(identity.differing).toEqual([
      { file: 'paper-b/table-2.md', why: 'only in the first tree' },
      { file: 'paper-b/table-3.md', why: 'only in the second tree' },
    ]);
  });

  it('treats a run.json that is not a JSON object as differing unless byte-equal', () => {
    const first = tree({ 'run.json': '{"provenance": 1' });
    const second = tree({ 'run.json': '{"provenance": 2' });
    expect(compareTreeIdentity(first, second).differing).toEqual([
      { file: 'run.json', why: 'run.json differs outside provenance' },
    ]);
    expect(compareTreeIdentity(first, tree({ 'run.json': '{"provenance": 1' })).differing).toEqual([]);
  });
});

describe('treeFiles(root)', () => {
  it('lists every file, hidden ones included, sorted, with "/"', () => {
    expect(treeFiles(tree({ 'b/c.txt': '', 'a.txt': '', '.gitkeep': '' }))).toEqual(['.gitkeep', 'a.txt', 'b/c.txt']);
  });
});
