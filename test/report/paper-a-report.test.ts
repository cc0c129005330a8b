import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { reproducePaperA } from '../../papers/paper-a/reproduce.js';
import { main } from '../../src/cli/main.js';
import { parseOverride } from '../../src/harness/config.js';
import { packageRoot } from '../../src/util/paths.js';
import { chromiumMissing, openReport } from './open-in-chromium.js';

if (chromiumMissing) console.warn(chromiumMissing);

let printed: string[] = [];
beforeEach(() => {
  printed = [];
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    printed.push(args.join(' '));
  });
});
afterEach(() => vi.restoreAllMocks());

// The runner's worker threads load dist/: build first (`npx tsc -p tsconfig.build.json`).
describe('fairaudit report / compare on a paper A reproduction folder (calibrated, 2 replicates)', () => {
  let out: string;
  const paperFiles = [
    'tables/paper-a-table-1.csv',
    'tables/paper-a-table-5.csv',
    'tables/paper-a-comparison.csv',
    'charts/paper-a-figure-1.vl.json',
  ];
  const written = new Map<string, string>();

  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'paper-a-report-'));
    await reproducePaperA({
      outDirectory: out,
      calibrated: true,
      sensitivity: false,
      beyond: false,
      overrides: [parseOverride('replicates=2')],
      threads: 1,
      png: false,
    });
    for (const file of paperFiles) written.set(file, readFileSync(join(out, file), 'utf8'));
    // What `reproduce` wrote goes; `report` must rebuild it from the folder alone.
    for (const file of [...paperFiles, 'report.html']) rmSync(join(out, file));
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it(
    'main(["report", folder]) rebuilds the paper tables, Figure 1 and the annotated comparison that reproduce ' +
      'wrote',
    async () => {
      expect(await main(['report', out, '--no-png'])).toBe(0);
      for (const file of paperFiles) {
        expect(existsSync(join(out, file)), file).toBe(true);
        expect(readFileSync(join(out, file), 'utf8'), file).toBe(written.get(file));
      }
    },
  );

  it('main(["compare", folder]) prints the calibrated-data notices before the comparison', async () => {
    expect(await main(['compare', out])).toBe(0);
    expect(printed.join('\n')).toMatch(/note: CALIBRATED SYNTHETIC DATA, NOT A REPRODUCTION/);
    expect(printed.join('\n')).toMatch(/note: ACS not reproduced: its pools are calibrated synthetic/);
  });

  it(
    'main(["compare", folder]) exits 2 naming report-layout.json when paper A\'s options have no pool ' + 'list',
    async () => {
      const bad = mkdtempSync(join(tmpdir(), 'paper-a-bad-layout-'));
      for (const file of ['results.arrow', 'run.json']) copyFileSync(join(out, file), join(bad, file));
      writeFileSync(
        join(bad, 'report-layout.json'),
        JSON.stringify({ layout: 'paper-a', options: { pools: 'all of them' } }),
      );
      const errors: string[] = [];
      vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
        errors.push(String(chunk));
        return true;
      });
      expect(await main(['compare', bad])).toBe(2);
      expect(errors.join('')).toMatch(/report-layout\.json: options\.pools/);
      rmSync(bad, { recursive: true, force: true });
    },
  );

  it.skipIf(chromiumMissing !== undefined)(
    'report.html opens in Chromium with Figure 1, all five tables, the reason column and the notices',
    async () => {
      const html = readFileSync(join(out, 'report.html'), 'utf8');
      const seen = await openReport(
        join(out, 'report.html'),
        join(packageRoot(), 'results', 'report-screenshots', 'paper-a-report.png'),
      );
      expect(seen.consoleErrors).toEqual([]);
      expect(seen.externalRequests).toEqual([]);
      expect(seen.visibleChartIds).toEqual(['chart-paper-a-figure-1']);
      for (const n of [1, 2, 3, 4, 5]) expect(seen.visibleTableIds, `table ${n}`).toContain(`table-paper-a-table-${n}`);
      // The comparison in the report is paper A's annotated one, with the Why column.
      expect(seen.visibleTableIds).toContain('table-paper-a-comparison');
      expect(html).toMatch(/<table id="table-paper-a-comparison">[\s\S]*?<th[^>]*>Why<\/th>/);
      expect(
        seen.notices.some((notice) =>
          /calibrated synthetic data|CALIBRATED SYNTHETIC DATA, NOT A REPRODUCTION/.test(notice),
        ),
      ).toBe(true);
      expect(seen.notices.some((notice) => notice.startsWith('ACS not reproduced'))).toBe(true);
    },
  );
});
