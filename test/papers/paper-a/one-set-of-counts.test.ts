import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calibratedPools, type TrainedPoolsProvider } from '../../../papers/paper-a/pool-sources.js';
import { paperAReproduction } from '../../../papers/paper-a/reproduction.js';
import type { ReproductionOptions, ReproductionResult } from '../../../papers/reproduction.js';
import { closingBlock, recordReproduction } from '../../../src/cli/closing-block.js';
import { parseOverride } from '../../../src/harness/config.js';
import { REPRODUCTION_STATUSES } from '../../../src/report/reproduction-status.js';
import { runCliInProcess } from '../../helpers/cli.js';

// Adult "trained" (its calibrated pools relabelled, as in mixed-mode.test.ts) and ACS
// without data: the run has reproduced, differing and synthetic cells in seconds.
const adultOnly: TrainedPoolsProvider = async (dataset) =>
  dataset === 'adult'
    ? {
        available: true,
        pools: calibratedPools('adult', '').map((entry) => ({
          ...entry,
          origin: 'trained-model' as const,
          reason: null,
          cached: true,
        })),
      }
    : { available: false, reason: 'the ACS mirror has no feature columns (test stand-in).' };

const SENTENCE = new RegExp(
  `(\\d+) published cells: ${REPRODUCTION_STATUSES.map((status) => `(\\d+) ${status.split(' ')[0]}`).join('[^,]*, ')}`,
);

/** The counts of every sentence in `text` that states them, as arrays [total, ...per status]. */
function sentences(text: string): number[][] {
  return [...text.matchAll(new RegExp(SENTENCE, 'g'))].map((match) => match.slice(1).map(Number));
}

describe('reproduce paper-a: one set of counts on every surface', () => {
  let root: string;
  let out: string;
  let result: ReproductionResult;
  let closing: string[];
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'paper-a-counts-'));
    out = join(root, 'paper-a');
    const options = {
      outDirectory: out,
      trainedPools: adultOnly,
      overrides: [parseOverride('replicates=2')],
      sensitivity: false,
      beyond: false,
      png: false,
      threads: 1,
    } as ReproductionOptions;
    result = await paperAReproduction.run(options);
    recordReproduction(result, paperAReproduction.title);
    closing = closingBlock([result]);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it(
    'console, closing block, README.md, report.html, index.html, compare and compare --json state equal ' + 'counts',
    async () => {
      const console = sentences(result.lines.join('\n'));
      expect(console).toHaveLength(1);
      const [expected] = console;
      // 164 published cells (papers/paper-a/published.json); Adult's are real, ACS's synthetic.
      expect(expected[0]).toBe(164);
      const synthetic = expected[REPRODUCTION_STATUSES.indexOf('synthetic') + 1];
      const reproduced = expected[REPRODUCTION_STATUSES.indexOf('reproduced') + 1];
      expect(synthetic).toBe(82);
      expect(reproduced).toBeGreaterThan(0);

      expect(sentences(closing.join('\n'))).toEqual([expected]);
      expect(sentences(readFileSync(join(out, 'README.md'), 'utf8'))).toEqual([expected]);
      expect(sentences(readFileSync(join(out, 'report.html'), 'utf8'))).toEqual([expected]);
      expect(sentences(readFileSync(join(root, 'index.html'), 'utf8'))).toEqual([expected]);

      const text = await runCliInProcess(['compare', out]);
      expect(text.code).toBe(0);
      expect(sentences(text.stdout)).toEqual([expected]);

      const json = await runCliInProcess(['compare', out, '--json']);
      expect(json.code).toBe(0);
      const counts = JSON.parse(json.stdout).counts as Record<string, number>;
      expect([counts.total, ...REPRODUCTION_STATUSES.map((status) => counts[status])]).toEqual(expected);
    },
  );

  it('marks synthetic rows grey in report.html, never as reproduced', () => {
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    const comparison = html.slice(html.indexOf('id="table-paper-a-comparison"'));
    const rowClass = (dataset: string) =>
      [
        ...comparison.matchAll(
          new RegExp(`<tr class="([^"]+)"><td class="text">[^<]*</td><td class="text">${dataset} /`, 'g'),
        ),
      ].map((match) => match[1]);
    const acsRows = rowClass('ACS');
    expect(acsRows.length).toBeGreaterThan(0);
    expect(new Set(acsRows)).toEqual(new Set(['status-synthetic']));
    expect(rowClass('Adult')).toContain('status-reproduced');
    expect(rowClass('Adult')).not.toContain('status-synthetic');
  });

  it('index.html lists one row per published table and links the report', () => {
    const html = readFileSync(join(root, 'index.html'), 'utf8');
    for (const table of ['Table 1', 'Table 2', 'Table 3', 'Table 4', 'Table 5', 'Figure 1'])
      expect(html).toContain(`<td>${table}</td>`);
    expect(html).toContain('href="paper-a/report.html"');
  });
});
