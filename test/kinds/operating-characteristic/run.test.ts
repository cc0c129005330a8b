import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { configFromObject } from '../../../src/harness/config.js';
import { runExperiment } from '../../../src/harness/run-experiment.js';
import { writeReport } from '../../../src/report/write-report.js';
import { temporaryFolder } from '../../harness/helpers.js';

const pool = {
  name: 'p',
  synthetic: {
    size: 2000,
    groupShare: 0.4,
    labelRate: [0.5, 0.5],
    decisionRate: [0.4, 0.4],
    logitScale: 1,
    seed: 'oc',
  },
};

function rows(directory: string) {
  const table = tableFromIPC(readFileSync(join(directory, 'results.arrow')));
  return table.toArray().map((row) => row.toJSON() as Record<string, unknown>);
}

describe('runExperiment(config) of operating-characteristic cells', () => {
  it(
    'moves the pool to each true gap (exact on counts: δ itself is the boundary) and estimates the decisions ' +
      'there',
    async () => {
      const out = temporaryFolder();
      const config = configFromObject(
        {
          experiment: 'oc',
          kind: 'operating-characteristic',
          seed: 3,
          replicates: 40,
          settings: { pool, budget: 1500, tolerance: 0.05 },
          grid: { gap: [null, -0.15, 0, 0.05, 0.15], test: ['wald-glr', 'betting'] },
        },
        'oc (built in the test)',
      );
      await runExperiment(config, { outDirectory: out, threads: 2 });
      const results = rows(out);
      const byCell = (gap: number | null, test: string) =>
        results.filter((row) => (gap === null ? Number.isNaN(row.gap) : row.gap === gap) && row.test === test);
      // 800 rows in group b at rate 0.4: a gap of 0.05 is 40 rows re-decided, exactly δ.
      expect(byCell(0.05, 'betting').every((row) => row.truth === 'boundary' && row.changed_rows === 40)).toBe(true);
      expect(
        byCell(-0.15, 'betting').every(
          (row) => row.truth === 'violating' && Math.abs((row.true_gap as number) + 0.15) < 1e-12,
        ),
      ).toBe(true);
      expect(
        byCell(null, 'wald-glr').every(
          (row) => row.truth === 'compliant' && row.true_gap === 0 && row.changed_rows === 0,
        ),
      ).toBe(true);
      const share = (cell: Array<Record<string, unknown>>, decision: string) =>
        cell.filter((row) => row.decision === decision).length / cell.length;
      for (const test of ['wald-glr', 'betting']) {
        expect(share(byCell(0.15, test), 'reject'), test).toBeGreaterThan(0.9);
        expect(share(byCell(0, test), 'reject'), test).toBeLessThan(0.3);
      }
      // The report: a summary per cell and the two charts, with the tolerance marked.
      const report = await writeReport(out, { png: false });
      expect(report.summaries).toHaveLength(10);
      const cell = report.summaries.find(
        (summary) => summary.settings.test === 'betting' && summary.settings.gap === 0.15,
      )!;
      expect(cell.values.p_reject).toBeGreaterThan(0.9);
      expect(cell.values.false_violation).toBeNaN();
      expect(report.files.some((file) => file.endsWith('operating-characteristic.svg'))).toBe(true);
      const spec = JSON.parse(readFileSync(join(out, 'charts', 'operating-characteristic.vl.json'), 'utf8'));
      expect(JSON.stringify(spec)).toContain('"datum":0.05');
    },
  );

  it(
    "gapUnit tolerance moves along the pool's own gap in units of the tolerance it moves (score access: " +
      'shifting scores)',
    async () => {
      const out = temporaryFolder();
      const config = configFromObject(
        {
          experiment: 'oc-units',
          kind: 'operating-characteristic',
          seed: 3,
          replicates: 5,
          settings: {
            pool: { ...pool, synthetic: { ...pool.synthetic, decisionRate: [0.4, 0.3] } },
            budget: 200,
            access: 'score',
            scoreTolerance: 0.04,
            gapUnit: 'tolerance',
          },
          grid: { gap: [0, 0.5, 1] },
        },
        'oc-units (built in the test)',
      );
      await runExperiment(config, { outDirectory: out, threads: 1 });
      const gaps = [...new Set(rows(out).map((row) => Number((row.true_gap as number).toFixed(9))))];
      // The generated pool's score gap is negative (b's decision rate is lower): the moves go that way.
      expect(gaps).toEqual([0, -0.02, -0.04]);
      // A shift reaches the tolerance to 1e-13, not to the last bit: that point is the boundary, not compliant.
      expect(
        rows(out)
          .filter((row) => row.gap === 1)
          .every((row) => row.truth === 'boundary'),
      ).toBe(true);
    },
  );
  it(
    'score access on a pool whose scores are its decisions (0 or 1, a hard classifier) re-decides rows, in ' +
      'units of the score tolerance',
    async () => {
      const out = temporaryFolder();
      // 600 rows of group a at rate 0.5, 400 of group b at rate 0.3: score gap -0.2; scores = decisions.
      const lines = ['group,label,decision,score'];
      for (let row = 0; row < 1000; row++) {
        const group = row < 600 ? 0 : 1;
        const decision = group === 0 ? Number(row % 2 === 0) : Number(row - 600 < 120);
        lines.push(`${group},${row % 3 === 0 ? 1 : 0},${decision},${decision}`);
      }
      const file = join(out, '..', `hard-scores-${Date.now()}.csv`);
      writeFileSync(file, `${lines.join('\n')}\n`);
      const config = configFromObject(
        {
          experiment: 'oc-hard',
          kind: 'operating-characteristic',
          seed: 3,
          replicates: 5,
          settings: {
            pool: { name: 'hard', file },
            budget: 200,
            access: 'score',
            scoreTolerance: 0.04,
            gapUnit: 'tolerance',
          },
          grid: { gap: [0, 1, 2] },
        },
        'oc-hard (built in the test)',
      );
      await runExperiment(config, { outDirectory: out, threads: 1 });
      const results = rows(out);
      const at = (gap: number) => results.filter((row) => row.gap === gap);
      // A shift on the logit scale cannot move 0s and 1s; re-deciding b's rows does: 16 rows (0.04 x 400) per
      // tolerance.
      expect(
        at(0).every(
          (row) => Math.abs(row.true_gap as number) < 1e-12 && row.truth === 'compliant' && row.changed_rows === 80,
        ),
      ).toBe(true);
      expect(
        at(1).every(
          (row) =>
            Math.abs((row.true_gap as number) + 0.04) < 1e-12 && row.truth === 'boundary' && row.changed_rows === 64,
        ),
      ).toBe(true);
      expect(at(2).every((row) => Math.abs((row.true_gap as number) + 0.08) < 1e-12 && row.truth === 'violating')).toBe(
        true,
      );
    },
  );
});
