import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PaperAReproduction, reproducePaperA } from '../../../papers/paper-a/reproduce.js';
import { readPoolFile } from '../../../src/audit/pool-io.js';
import { parseOverride } from '../../../src/harness/config.js';
import { packageRoot } from '../../../src/util/paths.js';
import { chromiumMissing, openReport } from '../../report/open-in-chromium.js';

// The runner's worker threads load dist/: build first (`npx tsc -p tsconfig.build.json`).
describe('reproducePaperA({ calibrated: true }) with 3 replicates', () => {
  let out: string;
  let result: PaperAReproduction;

  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'paper-a-'));
    result = await reproducePaperA({
      outDirectory: out,
      calibrated: true,
      beyond: false,
      overrides: [parseOverride('replicates=3')],
      threads: 1,
      png: true,
    });
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it(
    'writes every table (Arrow, CSV, Markdown), Figure 1 (Vega-Lite, SVG, PNG), report.html and the ' + 'comparisons',
    () => {
      const expected = [
        ...[1, 2, 3, 4, 5].flatMap((n) => ['arrow', 'csv', 'md'].map((ext) => `tables/paper-a-table-${n}.${ext}`)),
        ...['vl.json', 'svg', 'png'].map((ext) => `charts/paper-a-figure-1.${ext}`),
        'report.html',
        'comparison.arrow',
        'comparison.md',
        'tables/paper-a-comparison.md',
        'tables/paper-a-comparison.arrow',
        'README.md',
        'results.arrow',
        'run.json',
        'pools/pools.json',
        ...['score', 'logit'].flatMap((access) => [
          `${access}-tolerance/report.html`,
          ...['vl.json', 'svg', 'png'].map(
            (ext) => `${access}-tolerance/charts/paper-a-${access}-tolerance-queries.${ext}`,
          ),
        ]),
      ];
      const missing = expected.filter((file) => !existsSync(join(out, file)));
      expect(missing).toEqual([]);
    },
  );

  it('says plainly, in every output, that the data is calibrated synthetic and not a reproduction', () => {
    expect(result.calibrated).toBe(true);
    expect(result.mode).toMatch(/NOT A REPRODUCTION/);
    for (const n of [1, 2, 3, 4, 5]) {
      const table = readFileSync(join(out, `tables/paper-a-table-${n}.md`), 'utf8');
      const rows = table.split('\n').filter((line) => line.startsWith('| ACS') || line.startsWith('| Adult'));
      expect(rows.length, `table ${n}`).toBeGreaterThan(0);
      expect(
        rows.every((line) => line.includes('CALIBRATED SYNTHETIC, not a reproduction')),
        `table ${n}`,
      ).toBe(true);
    }
    for (const file of [
      'README.md',
      'report.html',
      'score-tolerance/report.html',
      'logit-tolerance/report.html',
      'charts/paper-a-figure-1.svg',
    ]) {
      expect(readFileSync(join(out, file), 'utf8'), file).toMatch(/[Cc]alibrated synthetic|CALIBRATED SYNTHETIC/);
    }
    const comparison = readFileSync(join(out, 'tables/paper-a-comparison.md'), 'utf8');
    expect(comparison).toMatch(/not reproduced \(calibrated synthetic\)/);
  });

  it('lists every published cell in the comparison, none marked reproduced', () => {
    expect(result.comparison.total).toBe(164);
    expect(result.comparison.notReproduced).toBe(164);
    expect(result.comparison.reproduced).toBe(0);
  });

  it('fills Table 1 with the calibrated gaps (paper A Table 1: Adult Robust-Base SP 0.1716, EO 0.0753)', () => {
    const lines = readFileSync(join(out, 'tables/paper-a-table-1.csv'), 'utf8').split('\n');
    const [header, ...rest] = lines;
    expect(header.split(',').slice(0, 4)).toEqual(['dataset', 'model', 'sp_gap', 'eo_gap']);
    const fields = rest.find((line) => line.startsWith('Adult,Robust-Base,'))?.split(',') ?? [];
    expect(Number(fields[2]).toFixed(4)).toBe('0.1716');
    expect(Number(fields[3]).toFixed(4)).toBe('0.0753');
    const pool = readPoolFile(join(out, 'pools/adult-robust-base.arrow'));
    expect(pool.size).toBe(13_567);
  });

  it.skipIf(chromiumMissing !== undefined)(
    'report.html opens in Chromium with Figure 1 drawn and all five tables (screenshot under results/)',
    async () => {
      const html = readFileSync(join(out, 'report.html'), 'utf8');
      for (const n of [1, 2, 3, 4, 5]) expect(html).toContain(`id="table-paper-a-table-${n}"`);
      expect(html).toContain('id="chart-paper-a-figure-1"');
      const seen = await openReport(
        join(out, 'report.html'),
        join(packageRoot(), 'results', 'screenshots', 'paper-a-calibrated-report.png'),
      );
      expect(seen.consoleErrors).toEqual([]);
      expect(seen.externalRequests).toEqual([]);
      expect(seen.chartSvgCounts.length).toBeGreaterThanOrEqual(1);
      expect(seen.chartSvgCounts.every((count) => count >= 1)).toBe(true);
      expect(seen.markCount).toBeGreaterThan(12);
    },
  );
});
