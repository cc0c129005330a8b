import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { reproducePaperA } from '../../../papers/paper-a/reproduce.js';
import { parseOverride } from '../../../src/harness/config.js';

// Small: 3 replicates and B = 300 (the calibrations scale with the budget).
const overrides = [parseOverride('replicates=3'), parseOverride('budget=300')];

describe('reproducePaperA({ beyond: true }): Tables 2 and 3 beyond the paper', () => {
  const out = mkdtempSync(join(tmpdir(), 'paper-a-beyond-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it(
    "runs the base pools with calibrated-glr and betting and shows them beside paper A's test, marked, with the " +
      'comparison unchanged',
    async () => {
      const plain = mkdtempSync(join(tmpdir(), 'paper-a-plain-'));
      const options = { calibrated: true, sensitivity: false, overrides, threads: 2, png: false } as const;
      const result = await reproducePaperA({ ...options, outDirectory: out });
      const without = await reproducePaperA({ ...options, outDirectory: plain, beyond: false });
      expect(result.runs.map((run) => run.experiment)).toEqual(['paper-a', 'paper-a-beyond']);
      const html = readFileSync(join(out, 'report.html'), 'utf8');
      expect(html).toContain('Table 2 beyond the paper (SP)');
      expect(html).toContain('NOT IN THE PAPER');
      const table = readFileSync(join(out, 'tables', 'paper-a-table-3-beyond.csv'), 'utf8')
        .trim()
        .split('\n');
      expect(table[0]).toBe(
        'dataset,model,decision_wald_glr,decision_calibrated_glr,decision_betting,' +
          'score_wald_glr,score_calibrated_glr,score_betting,logit_wald_glr,logit_calibrated_glr,logit_betting',
      );
      expect(table).toHaveLength(5);
      // Paper A's own outputs do not see the extra run: the same results, tables and comparison.
      // (results.arrow differs in its plan fingerprint only: the pool files sit in another folder.)
      for (const file of [
        'summary.csv',
        'tables/paper-a-table-2.csv',
        'tables/paper-a-comparison.csv',
        'comparison.csv',
      ]) {
        expect(readFileSync(join(out, file)), file).toEqual(readFileSync(join(plain, file)));
      }
      expect(result.comparison).toEqual(without.comparison);
      rmSync(plain, { recursive: true, force: true });
    },
  );
});
