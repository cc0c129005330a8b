import { join } from 'node:path';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { makeFolder } from '../../util/make-folder.js';
import { writeChart } from '../charts/write-chart.js';
import { escapeHtml, tableToHtml } from '../table-to-html.js';
import { writeTable } from '../write-table.js';
import type { RunComparison } from './compare-runs.js';
import { comparisonChart } from './comparison-chart.js';
import { comparisonTable } from './comparison-table.js';

/**
 * comparisonSection(comparison, svg) is the report.html section of a run-vs-run
 * comparison: the verdict in words, what differs between the plans, the chart of every
 * difference with its interval, and the table. O(statistics).
 */
export function comparisonSection(comparison: RunComparison, svg: string | null): string {
  const parts = [`<section id="run-comparison"><h2>Run against run</h2>`];
  parts.push(`<p class="verdict">${escapeHtml(comparison.summary)}</p><ul>`);
  for (const run of comparison.runs) {
    const plan = run.identical
      ? 'identical'
      : `${run.samePlan ? 'same plan' : 'different plans'}, ${run.sharedCells} shared cells` +
        (run.onlyInBase.length + run.onlyInHead.length > 0
          ? `; only in base: ${run.onlyInBase.join(', ') || 'none'}; only in ` +
            `head: ${run.onlyInHead.join(', ') || 'none'}`
          : '') +
        (run.configChanges.length > 0 ? `; config changes: ${run.configChanges.join('; ')}` : '');
    parts.push(`<li><b>${escapeHtml(run.name)}</b> (${escapeHtml(run.experiment)}): ${escapeHtml(plan)}</li>`);
  }
  parts.push('</ul>');
  if (svg !== null) parts.push(`<figure><div class="chart">${svg}</div></figure>`);
  if (comparison.statistics.length > 0) {
    const comparisonHtml = tableToHtml(comparisonTable(comparison), (row) =>
      row.verdict === 'changed' ? 'outside' : undefined,
    );
    parts.push(`<div class="table-wrap">${comparisonHtml}</div>`);
  }
  parts.push('</section>');
  return parts.join('\n');
}

/**
 * writeComparison(folder, comparison) writes a comparison's outputs into `folder`:
 * run-comparison.arrow, .csv and .md (the table), comparison.json (the whole result),
 * charts/run-comparison.vl.json and .svg, and report.html with the comparison section.
 * Each file atomically. O(statistics).
 */
export async function writeComparison(folder: string, comparison: RunComparison): Promise<string[]> {
  makeFolder(join(folder, 'charts'));
  const files = writeTable(folder, comparisonTable(comparison));
  let svg: string | null = null;
  if (comparison.statistics.length > 0) {
    const chart = await writeChart(folder, comparisonChart(comparison), false);
    svg = chart.rendered.svg;
    files.push(...chart.files);
  }
  const json = join(folder, 'comparison.json');
  writeFileAtomic(
    json,
    `${JSON.stringify(comparison, (_key, value) => (value === Infinity ? 'Infinity' : value), 2)}\n`,
  );
  const html = join(folder, 'report.html');
  writeFileAtomic(
    html,
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>fairaudit: run against run</title>` +
      `<style>body{font-family:"DejaVu Sans",Arial,sans-serif;margin:24px;max-width:1400px}` +
      `table{border-collapse:collapse;font-size:13px}th,td{border:1px solid #ddd;padding:3px 8px}` +
      `tr.outside td{background:#fde8e8}.verdict{font-weight:bold}</style></head><body>\n` +
      `${comparisonSection(comparison, svg)}\n</body></html>\n`,
  );
  files.push(json, html);
  return files;
}
