import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeReport } from '../../src/report/write-report.js';
import { packageRoot } from '../../src/util/paths.js';
import { chromiumMissing, openReport } from './open-in-chromium.js';
import { fixtureRows, writeAuditResults } from './results-fixture.js';

if (chromiumMissing) console.warn(chromiumMissing);

describe.skipIf(chromiumMissing !== undefined)('report.html in headless Chromium', () => {
  it(
    'writeReport(fixture) renders every chart as SVG with no console errors and no network, and saves a ' +
      'screenshot',
    async () => {
      const folder = join(mkdtempSync(join(tmpdir(), 'fairaudit-browser-')), 'fixture');
      writeAuditResults(folder, fixtureRows());
      const output = await writeReport(folder, {
        publishedFolder: mkdtempSync(join(tmpdir(), 'fairaudit-no-published-')),
        png: false,
      });
      const screenshot = join(packageRoot(), 'results', 'report-screenshots', 'fixture-report.png');
      const seen = await openReport(output.reportPath, screenshot);
      expect(seen.title).toBe('fairaudit report: fixture');
      expect(seen.chartSvgCounts).toEqual([1, 1, 1]); // queries, accuracy, decisions
      expect(seen.markCount).toBeGreaterThan(30);
      expect(seen.consoleErrors).toEqual([]);
      expect(seen.externalRequests).toEqual([]);
      expect(existsSync(screenshot) && statSync(screenshot).size > 10_000).toBe(true);
    },
  );
});
