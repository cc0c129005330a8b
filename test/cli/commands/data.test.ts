import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { realDataMirror } from '../../data/real-datasets.js';
import { runCliInProcess } from '../../helpers/cli.js';

describe('fairaudit data', () => {
  it('fairaudit data info adult --data-dir EMPTY exits 2 and says how to provide the data', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'fairaudit-cli-'));
    const result = await runCliInProcess(['data', 'info', 'adult', '--data-dir', empty]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/dataset "adult"/);
    expect(result.stderr).toMatch(/fairaudit data fetch adult/);
  });

  it('fairaudit data info compas with a wrong-size file exits 2 naming the file', async () => {
    const mirror = mkdtempSync(join(tmpdir(), 'fairaudit-cli-'));
    mkdirSync(join(mirror, 'compas'));
    writeFileSync(join(mirror, 'compas', 'compas-scores-two-years.csv'), 'id,name\n1,x\n');
    const result = await runCliInProcess(['data', 'info', 'compas', '--data-dir', mirror]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/compas-scores-two-years\.csv: expected 2546489 bytes/);
  });

  it('fairaudit data info compas --no-verify with a malformed file exits 2 naming file and line', async () => {
    const mirror = mkdtempSync(join(tmpdir(), 'fairaudit-cli-'));
    writeFileSync(join(mirror, 'compas-scores-two-years.csv'), 'id,name\n1,x\n');
    const result = await runCliInProcess(['data', 'info', 'compas', '--data-dir', mirror, '--no-verify']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /compas-scores-two-years\.csv: line 1 \(header of compas-scores-two-years\.csv\): expected columns/,
    );
  });

  it('fairaudit data info nope exits 2', async () => {
    const result = await runCliInProcess(['data', 'info', 'nope']);
    expect(result.code).toBe(2);
  });

  const { mirror, reason } = realDataMirror('compas/compas-scores-two-years.csv');
  it.skipIf(mirror === null)(
    `fairaudit data info compas prints rows, label rate and group shares${mirror === null ? ` (${reason})` : ''}`,
    async () => {
      const result = await runCliInProcess(['data', 'info', 'compas', '--data-dir', mirror as string, '--json']);
      expect(result.code).toBe(0);
      const summary = JSON.parse(result.stdout);
      expect(summary.rows).toBe(6172);
      expect(summary.positives).toBe(2809);
      expect(summary.groups.map((group: { groupBRows: number }) => group.groupBRows)).toEqual([1175, 2103]);
    },
  );

  it.skipIf(mirror === null)("fairaudit data list --data-dir MIRROR shows each dataset's status", async () => {
    const result = await runCliInProcess(['data', 'list', '--data-dir', mirror as string, '--json']);
    expect(result.code).toBe(0);
    const entries = JSON.parse(result.stdout) as Array<{ name: string; status: string }>;
    expect(entries.find((entry) => entry.name === 'compas')?.status).toBe('ready');
  });

  it.skipIf(mirror === null)(
    `fairaudit data export compas --scheme paper-b --protected-attribute race writes Table 2's N = 2,778 and n = ` +
      `1,389${mirror === null ? ` (${reason})` : ''}`,
    async () => {
      const out = join(mkdtempSync(join(tmpdir(), 'fairaudit-cli-')), 'compas-split');
      const args = ['data', 'export', 'compas', '--scheme', 'paper-b', '--seed', '7', '--protected-attribute', 'race'];
      const result = await runCliInProcess([...args, '--out', out, '--format', 'csv', '--data-dir', mirror as string]);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/held-out\.csv/);
      const description = JSON.parse(readFileSync(join(out, 'split.json'), 'utf8'));
      expect([description.heldOut.rows, description.auditRows]).toEqual([2778, 1389]);
      expect(description.droppedColumns).toEqual(['race']);
    },
  );

  it('fairaudit data export adult without --scheme exits 2 naming the flag', async () => {
    const result = await runCliInProcess(['data', 'export', 'adult', '--seed', '1', '--out', tmpdir()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/scheme/);
  });
});
