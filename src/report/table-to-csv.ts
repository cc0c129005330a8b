import type { SummaryTable, SummaryValue } from './summary-table.js';

function csvField(value: SummaryValue): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'number' ? String(value) : value;
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * tableToCsv(table) writes RFC 4180 CSV: a header of column names, numbers at full
 * precision (NaN as "NaN"), missing values empty, fields with quotes, commas or
 * newlines quoted. O(rows × columns).
 */
export function tableToCsv(table: SummaryTable): string {
  const lines = [table.columns.map((column) => csvField(column.name)).join(',')];
  for (const row of table.rows) lines.push(table.columns.map((column) => csvField(row[column.name] ?? null)).join(','));
  return `${lines.join('\n')}\n`;
}
