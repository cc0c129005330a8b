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
    // No measured time in the tables: they are in run.json's provenance, one row per size and per audit.
    expect(markdown).not.toContain('(ms)');
    const record = JSON.parse(readFileSync(join(folder, 'run.json'), 'utf8'));
    expect(record.format).toBe('fairaudit-measurement/1');
    expect(record.files).toContain('paper-b-table-1.md');
    expect(record.provenance.timings['paper-b-table-1']).toHaveLength(14);
    expect(record.provenance.timings['paper-b-table-1'][0].answerMs).toBeGreaterThan(0);
    expect(record.provenance.timings['paper-b-auditor-learns']).toHaveLength(6);
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
  const row = {
    entries: 16_384,
    plaintextModulus: 256,
    rows: 128,
    columns: 128,
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

  it('keeps the times out of the tables and chart unless timings is set (--timings)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'fairaudit-pir-table-timings-'));
    try {
      const rows = [row as unknown as PirBenchmarkRow];
      await writePaperBTableOne(join(folder, 'plain'), rows, { png: false });
      const slower = [{ ...row, answerMs: 0.5, queryMs: 3 } as unknown as PirBenchmarkRow];
      await writePaperBTableOne(join(folder, 'slower'), slower, { png: false });
      const files = ['paper-b-table-1.md', 'paper-b-table-1.csv', 'charts/paper-b-table-1.svg', 'report.html'];
      for (const file of files) {
        // Two runs that differ only in their times write the same bytes.
        expect(readFileSync(join(folder, 'slower', file)), file).toEqual(readFileSync(join(folder, 'plain', file)));
      }
      expect(readFileSync(join(folder, 'plain', 'paper-b-table-1.md'), 'utf8')).toContain('| 256 | 128 × 128 |');
      await writePaperBTableOne(join(folder, 'timed'), rows, { png: false, timings: true });
      const timed = readFileSync(join(folder, 'timed', 'paper-b-table-1.md'), 'utf8');
      expect(timed).toContain('Answer (ms)');
      expect(timed).toContain('does not compare equal');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('writes the table and the SVG chart but no PNG (reproduce paper-b-pir --no-png)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'fairaudit-pir-table-nopng-'));
    try {
      const paths = await writePaperBTableOne(folder, [row as unknown as PirBenchmarkRow], { png: false });
      expect(existsSync(join(folder, 'charts', 'paper-b-table-1.svg'))).toBe(true);
      expect(existsSync(join(folder, 'charts', 'paper-b-table-1.png'))).toBe(false);
      expect(paths.some((path) => path.endsWith('.png'))).toBe(false);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
