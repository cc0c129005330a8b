/**
 * textTable(header, rows) lays out a plain-text table for the terminal: each column
 * padded to its widest cell, columns two spaces apart, trailing spaces trimmed; one
 * string per line (header first), without newlines. O(cells).
 */
export function textTable(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}
