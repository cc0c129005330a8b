import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { paperBPirReproduction } from '../../../papers/paper-b/pir-reproduction.js';
import { writePaperBTableOne } from '../../../papers/paper-b/table-1.js';
import { reproductionNames } from '../../../src/cli/registry.js';
import type { PirBenchmarkRow } from '../../../src/pir/benchmark-pir.js';

describe('paperBPirReproduction.run(options)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'fairaudit-pir-table-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('is one of the reproductions "fairaudit reproduce all" runs', () => {
    expect(reproductionNames()).toContain('paper-b-pir');
  });

  it('writes Table 1 for 2^14..2^24 and the three candidate sets, every size recovered correctly', async () => {
    const result = await paperBPirReproduction.run({ outDirectory: folder });
    expect(result.lines.join('\n')).toContain('all correct');
    const markdown = readFileSync(join(folder, 'paper-b-table-1.md'), 'utf8');
    // 11 powers of two (paper B Table 1's range) + CCD, COMPAS, HateDay candidate sets (Table 2's N).
    const dataRows = markdown.split('\n').filter((line) => /^\| (2\^\d+|[\d,]+ \()/.test(line));
    expect(dataRows).toHaveLength(14);
    for (const row of dataRows) expect(row.trim().endsWith('| yes |')).toBe(true);
    for (const file of [
      'paper-b-table-1.arrow',
      'paper-b-table-1.csv',
      'charts/paper-b-table-1.svg',
      'charts/paper-b-table-1.png',
      'paper-b-auditor-learns.md',
      'paper-b-auditor-learns.arrow',
    ]) {
      expect(existsSync(join(folder, file)), file).toBe(true);
    }
    // Beside Table 1: one audit per transport at each candidate set (|S| = ⌈N/2⌉, k = 10).
    const learns = readFileSync(join(folder, 'paper-b-auditor-learns.md'), 'utf8');
    expect(learns).toMatch(/\| HateDay \| voprf \| 36,?450 \| 18,?235 \| 18,?235 \|/);
    expect(learns).toMatch(/\| HateDay \| simplepir \| 36,?450 \| 18,?235 \| 36,?450 \|/);
  }, 600_000);
});

describe('writePaperBTableOne(folder, rows, {png: false})', () => {
  it('writes the table and the SVG chart but no PNG (reproduce paper-b-pir --no-png)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'fairaudit-pir-table-nopng-'));
    try {
      const row = {
        entries: 16_384,
        queryMs: 0.1,
        answerMs: 0.01,
        recoverMs: 0.02,
        verifyMs: 0.01,
        queryBytes: 500,
        answerBytes: 500,
        hintBytes: 1e6,
        answerGBps: 10,
        correct: true,
      };
      const paths = await writePaperBTableOne(folder, [row as unknown as PirBenchmarkRow], { png: false });
      expect(existsSync(join(folder, 'charts', 'paper-b-table-1.svg'))).toBe(true);
      expect(existsSync(join(folder, 'charts', 'paper-b-table-1.png'))).toBe(false);
      expect(paths.some((path) => path.endsWith('.png'))).toBe(false);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
