import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/cli.js';
import { fixtureRows, writeAuditResults } from './results-fixture.js';

function publishedFolder(cells: unknown[]): string {
  const folder = mkdtempSync(join(tmpdir(), 'fairaudit-cli-published-'));
  writeFileSync(
    join(folder, 'test.json'),
    JSON.stringify({ paper: 'T', experiment: 'fixture', replicates: 20, cells }),
  );
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
    const { code, stdout } = await runCliInProcess([
      'report',
      folder,
      '--no-png',
      '--published',
      publishedFolder([{ ...queriesCell, value: 2349 }]),
    ]);
    expect(code).toBe(0);
    expect(existsSync(join(folder, 'report.html'))).toBe(true);
    expect(existsSync(join(folder, 'comparison.csv'))).toBe(true);
    expect(stdout).toMatch(/6 cells, 24 replicate rows/);
    expect(stdout).toMatch(/published cells: 1\/1 within tolerance/);
  });
  it('report <missing folder> exits 2 with a message naming it', async () => {
    const missing = join(tmpdir(), 'fairaudit-no-such-results-folder');
    const { code, stderr } = await runCliInProcess(['report', missing]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/fairaudit-no-such-results-folder: expected a results folder/);
  });
  it('report <empty folder> and report <unknown kind> exit 2', async () => {
    const root = mkdtempSync(join(tmpdir(), 'fairaudit-cli-'));
    mkdirSync(join(root, 'empty'));
    expect((await runCliInProcess(['report', join(root, 'empty')])).code).toBe(2);
    writeAuditResults(join(root, 'odd'), fixtureRows(), { kind: 'odd-kind' });
    const odd = await runCliInProcess(['report', join(root, 'odd')]);
    expect(odd.code).toBe(2);
    expect(odd.stderr).toMatch(/found "odd-kind"/);
  });
});

describe('fairaudit compare RESULTS_DIR', () => {
  it('compare exits 0 when every regression cell is within tolerance and prints one line per cell', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'fairaudit-cli-')), 'fixture');
    writeAuditResults(folder, fixtureRows());
    const { code, stdout: text } = await runCliInProcess([
      'compare',
      folder,
      '--published',
      publishedFolder([{ ...queriesCell, value: 2349 }]),
    ]);
    expect(code).toBe(0);
    expect(text).toMatch(
      /acs-decision-queries\s+queries_mean\s+2349 ± 1345\s+2550\s+201\s+\S+\s+reproduced \[regression\]/,
    );
    expect(text).toMatch(/1 published cells: 1 reproduced, 0 within training variability, 0 differs/);
  });
  it('compare exits 1 when a regression cell is out of tolerance', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'fairaudit-cli-')), 'fixture');
    writeAuditResults(folder, fixtureRows());
    const { code, stderr } = await runCliInProcess([
      'compare',
      folder,
      '--published',
      publishedFolder([{ ...queriesCell, value: 9000, std: 10 }]),
    ]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/regression cells out of tolerance or missing: acs-decision-queries/);
  });
  it(
    'compare explains a missing regression cell and, with no cell compared, exits 2 (never pass ' + 'vacuously)',
    async () => {
      const folder = join(mkdtempSync(join(tmpdir(), 'fairaudit-cli-')), 'fixture');
      writeAuditResults(folder, fixtureRows());
      const { code, stdout, stderr } = await runCliInProcess([
        'compare',
        folder,
        '--published',
        publishedFolder([{ ...queriesCell, value: 2349, where: { dataset: 'compas' } }]),
      ]);
      expect(code).toBe(2);
      expect(stdout).toMatch(/acs-decision-queries: missing: 0 reproduced cells match \{"dataset":"compas"\}/);
      expect(stderr).toMatch(
        new RegExp(
          'compare .*fixture: expected published cells of the experiment "fixture" that can be ' +
            String.raw`compared with its results, found "1 published cell\(s\), none comparable ` +
            String.raw`\(acs-decision-queries: missing\)"`,
        ),
      );
    },
  );
  it(
    'compare of an experiment no published cell names exits 2, not 0 (a results.arrow of another experiment in ' +
      'a paper folder passed a CI gate)',
    async () => {
      const folder = join(mkdtempSync(join(tmpdir(), 'fairaudit-cli-')), 'fixture');
      writeAuditResults(folder, fixtureRows(), { experiment: 'another-experiment' });
      const { code, stderr } = await runCliInProcess([
        'compare',
        folder,
        '--published',
        publishedFolder([{ ...queriesCell, value: 2349 }]),
      ]);
      expect(code).toBe(2);
      expect(stderr).toMatch(
        new RegExp(
          'expected published cells of the experiment "another-experiment" .*found "no published ' +
            'cell naming that experiment: nothing was compared"',
        ),
      );
    },
  );
  it('compare --json prints the rows; a non-regression cell out of tolerance still exits 0', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'fairaudit-cli-')), 'fixture');
    writeAuditResults(folder, fixtureRows());
    const { code, stdout } = await runCliInProcess([
      'compare',
      folder,
      '--json',
      '--published',
      publishedFolder([{ ...queriesCell, value: 9000, regression: false }]),
    ]);
    expect(code).toBe(0);
    const json = JSON.parse(stdout);
    expect(json.rows[0]).toMatchObject({ id: 'acs-decision-queries', status: 'outside', reproduced: 2550 });
  });
  it('compare --published FILE reads one file; a --published path that does not exist exits 2', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'fairaudit-cli-')), 'fixture');
    writeAuditResults(folder, fixtureRows());
    const file = join(publishedFolder([{ ...queriesCell, value: 2349 }]), 'test.json');
    const one = await runCliInProcess(['compare', folder, '--published', file]);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/1 published cells: 1 reproduced/);
    const absent = await runCliInProcess(['compare', folder, '--published', join(folder, 'no-such.json')]);
    expect(absent.code).toBe(2);
    expect(absent.stderr).toMatch(/--published: expected a folder of published-number JSON files, or one such file/);
  });
  it('compare --sigmas 0 and compare <missing> exit 2', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'fairaudit-cli-')), 'fixture');
    writeAuditResults(folder, fixtureRows());
    expect((await runCliInProcess(['compare', folder, '--sigmas', '0'])).code).toBe(2);
    expect((await runCliInProcess(['compare', join(folder, 'nothing')])).code).toBe(2);
  });
});

describe('fairaudit report RESULTS_DIR where the report cannot be written', () => {
  it(
    'report.html is a folder: exit 2 naming it (an internal-error stack before), results.arrow ' + 'untouched',
    async () => {
      const folder = join(mkdtempSync(join(tmpdir(), 'fairaudit-cli-')), 'fixture');
      writeAuditResults(folder, fixtureRows());
      const before = readFileSync(join(folder, 'results.arrow'));
      mkdirSync(join(folder, 'report.html'));
      const { code, stderr } = await runCliInProcess(['report', folder, '--no-png']);
      expect(code).toBe(2);
      expect(stderr).toMatch(
        /report\.html: expected a place fairaudit can write, found a folder where a file should be \(EISDIR\)\n$/,
      );
      expect(readFileSync(join(folder, 'results.arrow')).equals(before)).toBe(true);
    },
  );
});
