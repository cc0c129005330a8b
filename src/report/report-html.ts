import type { ChartSpec } from './charts/chart-spec.js';
import type { ComparisonRow } from './compare-published.js';
import { type CellStatus, countStatuses, countsSentence, STATUS_STYLE, statusClass } from './reproduction-status.js';
import type { SummaryTable } from './summary-table.js';
import { escapeHtml, tableToHtml } from './table-to-html.js';

/** A rendered chart for the report: its spec, its SVG and the file names beside it. */
export interface RenderedChart {
  chart: ChartSpec;
  svg: string;
  /** Paths relative to report.html. */
  files: { spec: string; svg: string; png: string | null };
}

/** Everything report.html shows. */
export interface ReportContent {
  experiment: string;
  kind: string;
  kindDescription: string;
  generatedAt: string;
  /** Provenance rows (label → value), in order. */
  provenance: Array<[string, string]>;
  /** The resolved config as written in run.json (shown folded), or null. */
  config: unknown;
  summary: SummaryTable;
  paperTables: SummaryTable[];
  charts: RenderedChart[];
  /** The comparison, its table, and each published cell's status for readers (the counts and row colours). */
  comparison: { rows: ComparisonRow[]; table: SummaryTable; statuses: CellStatus[] } | null;
  /** Sentences shown at the top (unmapped published cells, missing run.json, ...). */
  notices: string[];
}

const style =
  `
body{font-family:"DejaVu Sans","Liberation Sans",Arial,sans-serif;margin:0;color:#1b1b1b;` +
  `background:#fafafa;line-height:1.45}
header{background:#1f3b57;color:#fff;padding:18px 32px}header h1{margin:0;font-size:24px}` +
  `header p{margin:4px 0 0;opacity:.9}
main{padding:8px 32px 40px;max-width:1500px}nav a{margin-right:14px}
section{background:#fff;border:1px solid #e2e2e2;border-radius:6px;padding:12px 20px;margin:18px 0}
h2{font-size:19px;border-bottom:1px solid #eee;padding-bottom:4px}
.table-wrap{overflow-x:auto;max-width:100%;margin:10px 0 18px}table{border-collapse:collapse;font-size:13px}
.table-wrap tbody th:first-child,.table-wrap td:first-child,.table-wrap thead th:first-child{` +
  `position:sticky;left:0;z-index:1;background:#fff;box-shadow:1px 0 0 #ddd}
caption{text-align:left;padding:6px 0;caption-side:top}caption span{color:#555;font-weight:normal}
th,td{border:1px solid #ddd;padding:3px 8px;white-space:nowrap}th{background:#f0f3f6;cursor:help}` +
  `td.num{text-align:right;font-variant-numeric:tabular-nums}` +
  `td.wrap{white-space:normal;min-width:320px;max-width:480px}
${STATUS_STYLE}
figure{margin:16px 0 28px}figure .chart{overflow-x:auto}figcaption{color:#444;font-size:13px;max-width:900px}
.notice{background:#fff7e0;border:1px solid #f0d890;padding:6px 10px;border-radius:4px}
.verdict{font-weight:bold}pre{background:#f6f6f6;padding:10px;overflow:auto;font-size:12px;max-height:420px}
`;

/** Makes the ids inside one inline SVG unique in the page (clip paths, gradients). */
function scopeSvgIds(svg: string, prefix: string): string {
  return svg
    .replace(/\bid="([^"]+)"/g, `id="${prefix}-$1"`)
    .replace(/url\(#([^)]+)\)/g, `url(#${prefix}-$1)`)
    .replace(/href="#([^"]+)"/g, `href="#${prefix}-$1"`);
}

function comparisonVerdict(rows: ComparisonRow[], statuses: CellStatus[]): string {
  const failed = rows.filter((row) => row.regression && row.status !== 'within').length;
  return `${countsSentence(countStatuses(statuses))}; regression checks failing: ${failed}.`;
}

/**
 * reportHtml(content) builds report.html: one self-contained page (inline CSS, charts
 * as inline SVG, no scripts, no network) with the provenance, the charts, the paper
 * tables, the comparison with published numbers and the per-cell summary. O(size).
 */
export function reportHtml(content: ReportContent): string {
  const parts: string[] = [];
  parts.push(
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" ` +
      `content="width=device-width, initial-scale=1">`,
  );
  parts.push(`<title>fairaudit report: ${escapeHtml(content.experiment)}</title><style>${style}</style></head><body>`);
  parts.push(
    `<header><h1>fairaudit report: ${escapeHtml(content.experiment)}</h1><p>Kind ` +
      `<code>${escapeHtml(content.kind)}</code>: ${escapeHtml(content.kindDescription)} ` +
      `Generated ${escapeHtml(content.generatedAt)}.</p></header><main>`,
  );
  const nav = [
    ['provenance', 'Provenance'],
    ['charts', 'Charts'],
    ...(content.paperTables.length ? [['paper-tables', 'Paper tables']] : []),
    ...(content.comparison ? [['comparison', 'Comparison']] : []),
    ['summary', 'Summary'],
  ];
  parts.push(`<nav>${nav.map(([id, label]) => `<a href="#${id}">${label}</a>`).join('')}</nav>`);
  for (const notice of content.notices) parts.push(`<p class="notice">${escapeHtml(notice)}</p>`);

  parts.push(`<section id="provenance"><h2>Provenance</h2><div class="table-wrap"><table><tbody>`);
  for (const [label, value] of content.provenance)
    parts.push(`<tr><th>${escapeHtml(label)}</th><td class="text">${escapeHtml(value)}</td></tr>`);
  parts.push(`</tbody></table></div>`);
  if (content.config !== null && content.config !== undefined) {
    parts.push(
      `<details><summary>Resolved config ` +
        `(run.json)</summary><pre>${escapeHtml(JSON.stringify(content.config, null, 2))}</pre></details>`,
    );
  }
  parts.push(`</section>`);

  parts.push(`<section id="charts"><h2>Charts</h2>`);
  if (content.charts.length === 0) parts.push(`<p>This experiment kind draws no charts.</p>`);
  content.charts.forEach((rendered, index) => {
    const links = [
      `<a href="${escapeHtml(rendered.files.spec)}">Vega-Lite spec</a>`,
      `<a href="${escapeHtml(rendered.files.svg)}">SVG</a>`,
    ];
    if (rendered.files.png) links.push(`<a href="${escapeHtml(rendered.files.png)}">PNG</a>`);
    parts.push(
      `<figure class="chart-figure" ` +
        `id="chart-${escapeHtml(rendered.chart.id)}"><h3>${escapeHtml(rendered.chart.title)}</h3><div ` +
        `class="chart">${scopeSvgIds(rendered.svg, `c${index}`)}</div>` +
        `<figcaption>${escapeHtml(rendered.chart.caption ?? '')} (${links.join(', ')})</figcaption></figure>`,
    );
  });
  parts.push(`</section>`);

  if (content.paperTables.length > 0) {
    parts.push(`<section id="paper-tables"><h2>Paper tables</h2>`);
    for (const table of content.paperTables) parts.push(tableToHtml(table));
    parts.push(`</section>`);
  }
  if (content.comparison) {
    const { rows, table, statuses } = content.comparison;
    parts.push(
      `<section id="comparison"><h2>Comparison with published numbers</h2><p ` +
        `class="verdict">${escapeHtml(comparisonVerdict(rows, statuses))}</p>`,
    );
    const byId = new Map(statuses.map((cell) => [cell.id, cell.status]));
    parts.push(
      tableToHtml(table, (row) => {
        const status = byId.get(String(row.id));
        return status === undefined ? undefined : statusClass(status);
      }),
    );
    parts.push(`</section>`);
  }
  parts.push(`<section id="summary"><h2>Summary per cell</h2>${tableToHtml(content.summary)}</section>`);
  parts.push(`</main></body></html>\n`);
  return parts.join('\n');
}
