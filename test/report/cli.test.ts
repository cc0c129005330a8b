import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { fixtureRows, writeAuditResults } from './results-fixture.js';

let printed: string[] = [];
let errors: string[] = [];

beforeEach(() => {
  printed = [];
  errors = [];
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    printed.push(args.join(' '));
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    errors.push(String(chunk));
    return true;
  });
  process.exitCode = undefined;
});

afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

function publishedFolder(cells: unknown[]): string {
  const folder = mkdtempSync(join(tmpdir(), 'fairaudit-cli-published-'));
  writeFileSync(join(folder, 'test.json'), JSON.stringify({ paper: 'T', experiment: 'fixture', replicates: 20, cells }));
  return folder;
}

const queriesCell = {
  id: 'acs-decision-queries',
  table: 'Table 2',
  row: 'ACS',
  column: 'Decision-only',
  kind: 'mean',
  statistic: 'queries_mean',
  where: { dataset: 'acs', access: 'decision' },
  std: 1345,
  rounding: 0.5,
  regression: true,
};

describe('fairaudit report RESULTS_DIR', () => {
  it('report <fixture> exits 0 and writes report.html', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'fairaudit-cli-')), 'fixture');
    writeAuditResults(folder, fixtureRows());
    const code = await main(['report', folder, '--no-png', '--published', publishedFolder([{ ...queriesCell, value: 2349 }])]);
    expect(code).toBe(0);
    expect(existsSync(join(folder, 'report.html'))).toBe(true);
    expect(existsSync(join(folder, 'comparison.csv'))).toBe(true);
    expect(printed.join('\n')).toMatch(/6 cells, 24 replicate rows/);
    expect(printed.join('\n')).toMatch(/published cells: 1\/1 within tolerance/);
  });
  it('report <missing folder> exits 2 with a message naming it', async () => {
    const missing = join(tmpdir(), 'fairaudit-no-such-results-folder');
    expect(await main(['report', missing])).toBe(2);
    expect(errors.join('')).toMatch(/fairaudit-no-such-results-folder: expected a results folder/);
  });
  it('report <empty folder> and report <unknown kind> exit 2', async () => {
    const root = mkdtempSync(join(tmpdir(), 'fairaudit-cli-'));
    mkdirSync(join(root, 'empty'));
    expect(await main(['report', join(root, 'empty')])).toBe(2);
    writeAuditResults(join(root, 'odd'), fixtureRows(), { kind: 'odd-kind' });
    expect(await main(['report', join(root, 'odd')])).toBe(2);
    expect(errors.join('')).toMatch(/found "odd-kind"/);
  });
});

describe('fairaudit compare RESULTS_DIR', () => {
  it('compare exits 0 when every regression cell is within tolerance and prints one line per cell', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'fairaudit-cli-')), 'fixture');
    writeAuditResults(folder, fixtureRows());
    const code = await main(['compare', folder, '--published', publishedFolder([{ ...queriesCell, value: 2349 }])]);
    expect(code).toBe(0);
    const text = printed.join('\n');
    expect(text).toMatch(/acs-decision-queries\s+queries_mean\s+2349 ± 1345\s+2550\s+201\s+\S+\s+within \[regression\]/);
    expect(text).toMatch(/1 within, 0 outside/);
  });
  it('compare exits 1 when a regression cell is out of tolerance', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'fairaudit-cli-')), 'fixture');
    writeAuditResults(folder, fixtureRows());
    const code = await main(['compare', folder, '--published', publishedFolder([{ ...queriesCell, value: 9000, std: 10 }])]);
    expect(code).toBe(1);
    expect(errors.join('')).toMatch(/regression cells out of tolerance or missing: acs-decision-queries/);
  });
  it('compare explains a missing regression cell and exits 1', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'fairaudit-cli-')), 'fixture');
    writeAuditResults(folder, fixtureRows());
    const code = await main(['compare', folder, '--published', publishedFolder([{ ...queriesCell, value: 2349, where: { dataset: 'compas' } }])]);
    expect(code).toBe(1);
    expect(printed.join('\n')).toMatch(/acs-decision-queries: missing: 0 reproduced cells match \{"dataset":"compas"\}/);
  });
  it('compare --json prints the rows; a non-regression cell out of tolerance still exits 0', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'fairaudit-cli-')), 'fixture');
    writeAuditResults(folder, fixtureRows());
    const code = await main(['compare', folder, '--json', '--published', publishedFolder([{ ...queriesCell, value: 9000, regression: false }])]);
    expect(code).toBe(0);
    const json = JSON.parse(printed.join('\n'));
    expect(json.rows[0]).toMatchObject({ id: 'acs-decision-queries', status: 'outside', reproduced: 2550 });
  });
  it('compare --published FILE reads one file; a --published path that does not exist exits 2', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'fairaudit-cli-')), 'fixture');
    writeAuditResults(folder, fixtureRows());
    const file = join(publishedFolder([{ ...queriesCell, value: 2349 }]), 'test.json');
    expect(await main(['compare', folder, '--published', file])).toBe(0);
    expect(printed.join('\n')).toMatch(/1 within/);
    expect(await main(['compare', folder, '--published', join(folder, 'no-such.json')])).toBe(2);
    expect(errors.join('')).toMatch(/--published: expected a folder of published-number JSON files, or one such file/);
  });
  it('compare --sigmas 0 and compare <missing> exit 2', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'fairaudit-cli-')), 'fixture');
    writeAuditResults(folder, fixtureRows());
    expect(await main(['compare', folder, '--sigmas', '0'])).toBe(2);
    expect(await main(['compare', join(folder, 'nothing')])).toBe(2);
  });
});
