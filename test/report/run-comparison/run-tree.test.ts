import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MEASUREMENT_RECORD_FORMAT, RUN_RECORD_FORMAT } from '../../../src/harness/run-record.js';
import { pairRunTrees } from '../../../src/report/run-comparison/run-tree.js';

const root = mkdtempSync(join(tmpdir(), 'fairaudit-run-tree-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A reproduction tree: two runs (run.json of a run) and paper-b-pir's measurement record. */
function reproductionTree(name: string): string {
  const tree = join(root, name);
  for (const [folder, format] of [
    ['paper-a/pools', RUN_RECORD_FORMAT],
    ['paper-b/table-2', RUN_RECORD_FORMAT],
    ['paper-b-pir', MEASUREMENT_RECORD_FORMAT],
  ]) {
    mkdirSync(join(tree, folder), { recursive: true });
    writeFileSync(join(tree, folder, 'run.json'), JSON.stringify({ format, provenance: {} }));
  }
  return tree;
}

describe('pairRunTrees(base, head) of two make reproduce trees', () => {
  it("pairs the runs by path and passes over paper-b-pir's measurement record (no results to compare)", () => {
    const base = reproductionTree('base');
    const head = reproductionTree('head');
    const { pairs, onlyInBase, onlyInHead } = pairRunTrees(base, head);
    expect(pairs.map((pair) => pair.name)).toEqual(['paper-a/pools', 'paper-b/table-2']);
    expect([onlyInBase, onlyInHead]).toEqual([[], []]);
  });
});
