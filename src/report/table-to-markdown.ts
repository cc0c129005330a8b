import { formatSummaryValue, type SummaryTable } from './summary-table.js';

function markdownCell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

/**
 * tableToMarkdown(table) writes a GitHub-flavoured Markdown table under a heading
 * with the title (and the caption as a paragraph), numbers right-aligned and rounded
 * to each column's digits. O(rows × columns).
 */
export function tableToMarkdown(table: SummaryTable): string {
  const lines = [`### ${table.title}`, ''];
  if (table.caption) lines.push(table.caption, '');
  lines.push(`| ${table.columns.map((column) => markdownCell(column.label)).join(' | ')} |`);
  lines.push(`| ${table.columns.map((column) => (column.type === 'number' ? '---:' : ':---')).join(' | ')} |`);
  for (const row of table.rows) {
    const cells = table.columns.map((column) => markdownCell(formatSummaryValue(row[column.name] ?? null, column)));
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return `${lines.join('\n')}\n`;
}
