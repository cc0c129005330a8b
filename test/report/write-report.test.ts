import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { writeReport } from '../../src/report/write-report.js';
import { fixtureRows, writeAuditResults } from './results-fixture.js';

describe('writeReport(directory)', () => {
  it('writes summary tables, charts (spec, SVG, PNG) and a self-contained report.html', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'fairaudit-report-')), 'fixture');
    writeAuditResults(folder, fixtureRows());
    const output = await writeReport(folder, {
      publishedFolder: mkdtempSync(join(tmpdir(), 'fairaudit-no-published-')),
    });
    expect(output.summaries).toHaveLength(6);
    for (const name of [
      'summary.arrow',
      'summary.csv',
      'summary.md',
      'report.html',
      'charts/queries.svg',
      'charts/queries.png',
      'charts/queries.vl.json',
    ]) {
      expect(existsSync(join(folder, name)), name).toBe(true);
    }
    const summary = tableFromIPC(readFileSync(join(folder, 'summary.arrow')));
    expect(summary.numRows).toBe(6);
    expect(summary.getChild('queries_mean')?.get(0)).toBe(2550); // (2000+2400+1800+4000)/4
    const html = readFileSync(output.reportPath, 'utf8');
    expect(html).not.toMatch(/<script/);
    expect(html).not.toMatch(/(src|href)="https?:/);
    expect((html.match(/<svg/g) ?? []).length).toBe(3);
    const png = readFileSync(join(folder, 'charts/queries.png'));
    expect([...png.subarray(1, 4)].map((byte) => String.fromCharCode(byte)).join('')).toBe('PNG');
    console.log(folder);
  });
});
