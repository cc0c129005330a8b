import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { runPaperB } from '../../../papers/paper-b/reproduce.js';
import type { CandidateSetModel } from '../../../papers/paper-b/table-2.js';
import type { AuditPool } from '../../../src/audit/pool.js';
import { main } from '../../../src/cli/main.js';
import { inputError } from '../../../src/util/errors.js';

/** A pool of `size` rows, the first `minority` in group 1, with the given positive rate per group. */
function pool(size: number, minority: number, rates: [number, number]): AuditPool {
  const group = new Uint8Array(size);
  const decision = new Uint8Array(size);
  const label = new Uint8Array(size);
  const seen = [0, 0];
  for (let i = 0; i < size; i++) {
    const g = i < minority ? 1 : 0;
    group[i] = g;
    decision[i] = seen[g] < Math.round(rates[g] * (g === 1 ? minority : size - minority)) ? 1 : 0;
    label[i] = decision[i];
    seen[g]++;
  }
  return { size, group, label, decision, score: null, logit: null, id: null, source: 'test' };
}

let printed: string[] = [];
beforeEach(() => {
  printed = [];
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    printed.push(args.join(' '));
  });
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

describe('fairaudit report / compare on results/paper-b (a paper-level folder without results.arrow)', () => {
  const out = join(mkdtempSync(join(tmpdir(), 'paper-b-layout-')), 'paper-b');
  const files = [
    'tables/paper-b-table-2.csv',
    'tables/paper-b-table-3-models.csv',
    'comparison.csv',
    'charts/paper-b-figure-2-models.vl.json',
    'series/figure-1a-flips.csv',
  ];
  const written = new Map<string, string>();

  beforeAll(async () => {
    // COMPAS race sized as paper B Table 2 prints it: N = 2,778, N_min = 947, n = 1,389, n_min = 473; CCD has no data.
    await runPaperB({
      outDirectory: out,
      simulate: false,
      png: false,
      candidateSets: async (setting): Promise<CandidateSetModel> => {
        if (setting.dataset === 'ccd') throw inputError({ where: 'ccd', expected: 'the CCD files', found: 'nothing' });
        return {
          ...setting,
          datasetSize: 6172,
          candidatePool: pool(2778, 947, [0.4, 0.564]),
          auditPool: pool(1389, 473, [0.4, 0.564]),
        };
      },
    });
    for (const file of files) written.set(file, readFileSync(join(out, file), 'utf8'));
    for (const file of [...files, 'report.html']) rmSync(join(out, file));
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it(
    'main(["report", "results/paper-b"]) rebuilds the tables, figures, series and comparison that reproduce ' + 'wrote',
    async () => {
      expect(await main(['report', out, '--no-png'])).toBe(0);
      for (const file of files) expect(readFileSync(join(out, file), 'utf8'), file).toBe(written.get(file));
      expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain(
        'Table 2 rows CCD gender, CCD education, CCD marriage, CCD age not reproduced (no model)',
      );
    },
  );

  it('main(["compare", "results/paper-b"]) compares our Table 2 rows with the published cells', async () => {
    expect(await main(['compare', out])).toBe(0);
    const text = printed.join('\n');
    expect(text).toMatch(/paper-b\/table2\/compas\/race\/candidate-set-size\s.*reproduced/);
    expect(text).toMatch(
      /note: Table 2 rows CCD gender, CCD education, CCD marriage, CCD age not reproduced \(no model\)/,
    );
  });

  it('main(["report", folder]) exits 2 naming report-layout.json when it names no known layout', async () => {
    const bad = mkdtempSync(join(tmpdir(), 'paper-layout-bad-'));
    writeFileSync(join(bad, 'report-layout.json'), JSON.stringify({ layout: 'paper-z', options: {} }));
    expect(await main(['report', bad])).toBe(2);
    rmSync(bad, { recursive: true, force: true });
  });
});
