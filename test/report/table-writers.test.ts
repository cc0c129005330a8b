import { tableFromIPC } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import type { SummaryTable } from '../../src/report/summary-table.js';
import { formatSummaryValue } from '../../src/report/summary-table.js';
import { tableToArrow } from '../../src/report/table-to-arrow.js';
import { tableToCsv } from '../../src/report/table-to-csv.js';
import { escapeHtml, tableToHtml } from '../../src/report/table-to-html.js';
import { tableToMarkdown } from '../../src/report/table-to-markdown.js';

const table: SummaryTable = {
  id: 't',
  title: 'A table',
  caption: 'With a caption',
  columns: [
    { name: 'name', label: 'Name', type: 'string' },
    { name: 'value', label: 'Value', type: 'number', digits: 2 },
  ],
  rows: [
    { name: 'plain', value: 1.23456 },
    { name: 'has, comma and "quotes"', value: Number.NaN },
    { name: 'pipe | <b>', value: null },
    { name: null, value: 1e300 },
  ],
};

describe('tableToArrow(table)', () => {
  it('round-trips through tableFromIPC with float64 numbers (NaN kept, null for missing) and utf8 text', () => {
    const back = tableFromIPC(tableToArrow(table));
    expect(back.numRows).toBe(4);
    expect(back.schema.fields.map((field) => `${field.name}:${field.type}`)).toEqual(['name:Utf8', 'value:Float64']);
    expect(back.getChild('value')?.get(0)).toBe(1.23456);
    expect(back.getChild('value')?.get(1)).toBeNaN();
    expect(back.getChild('value')?.get(2)).toBeNull();
    expect(back.getChild('name')?.get(3)).toBeNull();
    expect(back.getChild('value')?.get(3)).toBe(1e300);
  });
  it('writes an empty table with its columns', () => {
    const back = tableFromIPC(tableToArrow({ ...table, rows: [] }));
    expect(back.numRows).toBe(0);
    expect(back.schema.fields).toHaveLength(2);
  });
});

describe('tableToCsv(table)', () => {
  it('quotes fields with commas and quotes, keeps full precision, writes NaN and empty for null', () => {
    expect(tableToCsv(table)).toBe(
      'name,value\nplain,1.23456\n"has, comma and ""quotes""",NaN\npipe | <b>,\n,1e+300\n',
    );
  });
});

describe('tableToMarkdown(table)', () => {
  it('rounds to the column digits, right-aligns numbers and escapes pipes', () => {
    const lines = tableToMarkdown(table).split('\n');
    expect(lines[0]).toBe('### A table');
    expect(lines).toContain('| Name | Value |');
    expect(lines).toContain('| :--- | ---: |');
    expect(lines).toContain('| plain | 1.23 |');
    expect(lines).toContain('| pipe \\| <b> |  |');
  });
});

describe('tableToHtml(table)', () => {
  it('escapes text and marks number cells', () => {
    const html = tableToHtml(table);
    expect(html).toContain('<td class="text">pipe | &lt;b&gt;</td>');
    expect(html).toContain('<td class="num">1.23</td>');
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});

describe('formatSummaryValue(value, column)', () => {
  it('formats integers without digits, others to 6 significant digits, infinities in words', () => {
    const column = { name: 'v', label: 'v', type: 'number' as const };
    expect(formatSummaryValue(4000, column)).toBe('4000');
    expect(formatSummaryValue(1 / 3, column)).toBe('0.333333');
    expect(formatSummaryValue(Number.NEGATIVE_INFINITY, column)).toBe('-Infinity');
  });
});
