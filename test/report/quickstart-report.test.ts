import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/util/paths.js';
import { runCliInProcess } from '../helpers/cli.js';
import { chromiumMissing, openReport } from './open-in-chromium.js';

if (chromiumMissing) console.warn(`quickstart report in Chromium ${chromiumMissing}`);

// The quickstart pools are built to have these hard-decision gaps (configs/quickstart.yaml,
// header comment): compliant SP 0.02 / EO 0.01, violating SP 0.12 / EO 0.10 at δ = 0.05.
const designedGaps: Array<[string, string, number, string]> = [
  ['compliant', 'sp', 0.02, 'accept'],
  ['compliant', 'eo', 0.01, 'accept'],
  ['violating', 'sp', 0.12, 'reject'],
  ['violating', 'eo', 0.1, 'reject'],
];

describe('quickstart end to end: run → report → compare → Chromium', () => {
  const out = join(mkdtempSync(join(tmpdir(), 'fairaudit-quickstart-')), 'quickstart');

  it('fairaudit run configs/quickstart.yaml, then report and compare', async () => {
    const config = join(packageRoot(), 'configs', 'quickstart.yaml');
    expect((await runCliInProcess(['run', config, '--out', out, '--threads', '2', '--quiet'])).code).toBe(0);

    const published = mkdtempSync(join(tmpdir(), 'fairaudit-quickstart-published-'));
    const cells = designedGaps.flatMap(([pool, metric, gap, decision]) => [
      {
        id: `quickstart/${pool}/${metric}/gap`,
        table: 'configs/quickstart.yaml',
        row: pool,
        column: `${metric} gap`,
        kind: 'analytic',
        statistic: 'oracle_gap',
        value: gap,
        rounding: 5e-5,
        where: { pool, metric, access: 'decision' },
        regression: true,
      },
      {
        id: `quickstart/${pool}/${metric}/oracle`,
        table: 'configs/quickstart.yaml',
        row: pool,
        column: `${metric} oracle`,
        kind: 'label',
        statistic: 'oracle_decision',
        value: decision,
        where: { pool, metric, access: 'decision' },
        regression: true,
      },
    ]);
    writeFileSync(
      join(published, 'quickstart.json'),
      JSON.stringify({ paper: 'quickstart design', experiment: 'quickstart', cells }),
    );

    expect((await runCliInProcess(['report', out, '--published', published])).code).toBe(0);
    const summary = tableFromIPC(readFileSync(join(out, 'summary.arrow')));
    expect(summary.numRows).toBe(12); // 2 pools × 2 metrics × 3 access regimes
    expect([...(summary.getChild('replicates')?.toArray() ?? [])]).toEqual(new Array(12).fill(100));
    expect((await runCliInProcess(['compare', out, '--published', published])).code).toBe(0);
  });

  it.skipIf(chromiumMissing !== undefined)(
    'report.html opens in Chromium with its charts (screenshot under results/)',
    async () => {
      const screenshot = join(packageRoot(), 'results', 'report-screenshots', 'quickstart-report.png');
      const seen = await openReport(join(out, 'report.html'), screenshot);
      expect(seen.title).toBe('fairaudit report: quickstart');
      expect(seen.chartSvgCounts).toEqual([1, 1, 1]);
      expect(seen.consoleErrors).toEqual([]);
      expect(seen.externalRequests).toEqual([]);
      expect(statSync(screenshot).size).toBeGreaterThan(10_000);
    },
  );
});
