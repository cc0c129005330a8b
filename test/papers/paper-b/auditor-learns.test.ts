import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paperBAuditorLearnsTable } from '../../../papers/paper-b/auditor-learns.js';
import { writePaperBTableOne } from '../../../papers/paper-b/table-1.js';
import { benchmarkObliviousTransports } from '../../../src/pir/benchmark-oblivious.js';
import { benchmarkPir } from '../../../src/pir/benchmark-pir.js';

describe('paperBAuditorLearnsTable(rows): what the auditor learns, per transport', () => {
  it('measures COMPAS-sized audits: voprf reveals |S| + k labels and moves less; simplepir reveals all N', async () => {
    // COMPAS's candidate set (paper B Table 2): N = 2,778, |S| = 1,389, k = 10.
    const progress: number[] = [];
    const rows = await benchmarkObliviousTransports({
      entries: 2778,
      retrievals: 1399,
      threads: 1,
      repetitions: 1,
      onProgress: (done, total) => progress.push(total === 1399 ? done : Number.NaN),
    });
    // One progress call per VOPRF batch of 256 labels, the last at |S| + k.
    expect(progress).toEqual([256, 512, 768, 1024, 1280, 1399]);
    const table = paperBAuditorLearnsTable(rows);
    const byTransport = Object.fromEntries(table.rows.map((row) => [row.transport, row]));
    expect(byTransport.voprf).toMatchObject({ dataset: 'COMPAS', labels_revealed: 1399, retrievals: 1399 });
    expect(byTransport.simplepir).toMatchObject({ dataset: 'COMPAS', labels_revealed: 2778 });
    expect(byTransport.voprf.mb_moved as number).toBeLessThan(byTransport.simplepir.mb_moved as number);
    // The times depend on the machine: they are columns only when asked for (--timings).
    for (const row of table.rows) expect(row).not.toHaveProperty('whole_audit_s');
    expect(table.caption).toContain("run.json's provenance");
    const timed = paperBAuditorLearnsTable(rows, true);
    for (const row of timed.rows) expect(row.whole_audit_s as number).toBeGreaterThan(0);
    expect(timed.caption).toContain('does not compare equal');
    const folder = mkdtempSync(join(tmpdir(), 'fairaudit-auditor-learns-'));
    try {
      const pir = await benchmarkPir({ entries: 2778, entryBits: 1, repetitions: 1 });
      const paths = await writePaperBTableOne(folder, [pir], { png: false, alongside: [table] });
      expect(paths).toContain(join(folder, 'paper-b-auditor-learns.md'));
      const markdown = readFileSync(join(folder, 'paper-b-auditor-learns.md'), 'utf8');
      expect(markdown).toMatch(/\| COMPAS \| voprf \| 2,?778 \| 1,?399 \| 1,?399 \| kept/);
      expect(readFileSync(join(folder, 'report.html'), 'utf8')).toContain('What the auditor learns');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);
});
