import { formatSummaryValue, type SummaryTable } from './summary-table.js';

/** escapeHtml(text) escapes the five characters that matter in HTML text and attributes. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/**
 * tableToHtml(table, rowClass) renders a <table> with a caption, headers carrying each
 * column's description as a tooltip, numbers right-aligned with the column's digits.
 * `rowClass` may add a CSS class per row (e.g. the comparison status). O(rows × columns).
 */
export function tableToHtml(
  table: SummaryTable,
  rowClass?: (row: Record<string, unknown>) => string | undefined,
): string {
  const head = table.columns
    .map(
      (column) =>
        `<th${column.description ? ` title="${escapeHtml(column.description)}"` : ''}>${escapeHtml(column.label)}</th>`,
    )
    .join('');
  const body = table.rows
    .map((row) => {
      const extra = rowClass?.(row);
      const cells = table.columns
        .map(
          (column) =>
            `<td ` +
            `class="${
              column.type === 'number' ? 'num' : column.wrap ? 'text ' + 'wrap' : 'text'
            }">${escapeHtml(formatSummaryValue(row[column.name] ?? null, column))}</td>`,
        )
        .join('');
      return `<tr${extra ? ` class="${escapeHtml(extra)}"` : ''}>${cells}</tr>`;
    })
    .join('\n');
  const captionNote = table.caption ? ` <span>${escapeHtml(table.caption)}</span>` : '';
  const caption = `<caption><strong>${escapeHtml(table.title)}</strong>${captionNote}</caption>`;
  return (
    `<div class="table-wrap"><table ` +
    `id="table-${escapeHtml(table.id)}">${caption}<thead><tr>${head}</tr></thead>` +
    `<tbody>\n${body}\n</tbody></table></div>`
  );
}
