import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reproduceErrorControl } from '../../papers/paper-a/error-control/reproduce.js';
import { reproducePaperA } from '../../papers/paper-a/reproduce.js';
import { runPaperB } from '../../papers/paper-b/reproduce.js';
import { parseOverride } from '../../src/harness/config.js';
import { packageRoot } from '../../src/util/paths.js';
import { runCliInProcess } from '../helpers/cli.js';
import { type BrowserCheck, chromiumMissing, openReport } from './open-in-chromium.js';

if (chromiumMissing) console.warn(`report widths in Chromium ${chromiumMissing}`);

/** Every report.html under a folder. */
function reportsUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('report.html'))
    .map((name) => join(folder, name))
    .filter((path) => statSync(path).isFile())
    .sort();
}

// Screenshots go where a person can look at them: results/report-screenshots/width-1400/.
const screenshots = join(packageRoot(), 'results', 'report-screenshots', 'width-1400');

describe.skipIf(chromiumMissing !== undefined)('every report.html at 1,400 px in headless Chromium', () => {
  const root = mkdtempSync(join(tmpdir(), 'fairaudit-widths-'));
  const seen = new Map<string, BrowserCheck>();
  beforeAll(async () => {
    // Without data (calibrated pools, analytic paper B) and the quickstart, at small replicate counts.
    const small = [parseOverride('replicates=2')];
    await reproducePaperA({
      outDirectory: join(root, 'paper-a'),
      calibrated: true,
      beyond: false,
      overrides: small,
      threads: 1,
      png: false,
    });
    await reproduceErrorControl({
      outDirectory: join(root, 'error-control'),
      calibrated: true,
      overrides: small,
      threads: 1,
      png: false,
    });
    await runPaperB({ outDirectory: join(root, 'paper-b'), analyticOnly: true, simulate: false, png: false });
    const config = join(packageRoot(), 'configs', 'quickstart.yaml');
    await runCliInProcess(['run', config, '--out', join(root, 'quickstart'), '--threads', '1', '--quiet']);
    await runCliInProcess(['report', join(root, 'quickstart'), '--no-png']);
    for (const report of reportsUnder(root)) {
      const name = relative(root, report)
        .replaceAll('/', '_')
        .replace(/\.html$/, '.png');
      seen.set(relative(root, report), await openReport(report, join(screenshots, name)));
    }
  }, 600_000);
  afterAll(() => console.log(`screenshots of ${seen.size} reports at 1,400 px: ${screenshots}`));

  it('opens the reports of paper A (three runs), error control, paper B and the quickstart', () => {
    expect([...seen.keys()]).toEqual(
      expect.arrayContaining([
        'paper-a/report.html',
        'paper-a/score-tolerance/report.html',
        'paper-a/logit-tolerance/report.html',
        'error-control/report.html',
        'paper-b/report.html',
        'quickstart/report.html',
      ]),
    );
  });

  it('no report scrolls sideways: every chart and every table box fits the 1,400 px viewport', () => {
    const problems = [...seen].flatMap(([report, check]) => [
      ...check.tooWide.map((entry) => `${report}: ${entry}`),
      ...(check.pageScrollWidth > check.viewportWidth ? [`${report}: page ${check.pageScrollWidth} px wide`] : []),
    ]);
    expect(problems).toEqual([]);
  });

  it('every chart with more than one series draws its legend', () => {
    const missing = [...seen].flatMap(([report, check]) =>
      check.visibleChartIds.filter((id) => !check.legendChartIds.includes(id)).map((id) => `${report}: ${id}`),
    );
    // Single-series charts need no legend; list them here by id when there are any.
    expect(missing).toEqual([]);
  });
});

// With FAIRAUDIT_WIDTH_REPORTS=<folder> (for example results/ after `make reproduce` with data),
// every report.html under that folder is checked the same way.
const extra = process.env.FAIRAUDIT_WIDTH_REPORTS;
describe.skipIf(chromiumMissing !== undefined || extra === undefined)(
  'every report.html under FAIRAUDIT_WIDTH_REPORTS at 1,400 px',
  () => {
    it('no chart or table box is wider than the viewport and every chart draws its legend', async () => {
      const problems: string[] = [];
      const reports = reportsUnder(extra as string);
      expect(reports.length).toBeGreaterThan(0);
      for (const report of reports) {
        const name = relative(extra as string, report);
        const check = await openReport(
          report,
          join(screenshots, 'given', name.replaceAll('/', '_').replace(/\.html$/, '.png')),
        );
        problems.push(...check.tooWide.map((entry) => `${name}: ${entry}`));
        if (check.pageScrollWidth > check.viewportWidth)
          problems.push(`${name}: page ${check.pageScrollWidth} px wide`);
        problems.push(
          ...check.visibleChartIds
            .filter((id) => !check.legendChartIds.includes(id))
            .map((id) => `${name}: ${id} has no legend`),
        );
      }
      expect(problems).toEqual([]);
    }, 600_000);
  },
);
