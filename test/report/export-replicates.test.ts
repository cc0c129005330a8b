import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/util/paths.js';
import { runCliInProcess } from '../helpers/cli.js';

// Reads the CSV the way a pandas user would (pandas.read_csv when installed, else
// Python's csv module), and prints the shape, the columns and the distinct settings.
const READER = `
import json, sys
path = sys.argv[1]
try:
    import pandas
    frame = pandas.read_csv(path)
    columns = list(frame.columns)
    rows = len(frame)
    distinct = {c: sorted(map(str, frame[c].unique()))
                for c in ['access', 'tolerance', 'scoreTolerance', 'logitTolerance', 'metric', 'alpha', 'pool.name']}
    reader = 'pandas'
except ImportError:
    import csv
    with open(path, newline='') as f:
        records = list(csv.DictReader(f))
    columns = list(records[0].keys())
    rows = len(records)
    distinct = {c: sorted({r[c] for r in records})
                for c in ['access', 'tolerance', 'scoreTolerance', 'logitTolerance', 'metric', 'alpha', 'pool.name']}
    reader = 'csv'
print(json.dumps({'reader': reader, 'rows': rows, 'columns': columns, 'distinct': distinct}))
`;

const python = spawnSync('python3', ['--version']).status === 0;

describe('fairaudit export RESULTS --format csv|parquet on the zipped sweep', () => {
  const out = join(mkdtempSync(join(tmpdir(), 'fairaudit-export-')), 'linked-tolerances');
  beforeAll(async () => {
    const config = join(packageRoot(), 'configs', 'sweeps', 'linked-tolerances.yaml');
    expect((await runCliInProcess(['run', config, '--out', out, '--threads', '1', '--quiet'])).code).toBe(0);
  });

  it.skipIf(!python)(
    'export --format csv loads in Python with one row per replicate and every setting a column',
    async () => {
      const exported = await runCliInProcess(['export', out, '--format', 'csv']);
      expect(exported.code).toBe(0);
      expect(exported.stdout).toMatch(/export: 180 replicates × \d+ columns/);
      const read = spawnSync('python3', ['-c', READER, join(out, 'replicates.csv')], { encoding: 'utf8' });
      expect(read.status, read.stderr).toBe(0);
      const seen = JSON.parse(read.stdout) as { rows: number; columns: string[]; distinct: Record<string, string[]> };
      // 9 cells (3 zipped tolerance levels × 3 access regimes) × 20 replicates (configs/sweeps/linked-tolerances.yaml).
      expect(seen.rows).toBe(180);
      for (const setting of [
        'budget',
        'beta',
        'pool.synthetic.size',
        'cell',
        'replicate',
        'seed',
        'queries',
        'decision',
      ])
        expect(seen.columns).toContain(setting);
      expect(seen.distinct.access).toEqual(['decision', 'logit', 'score']);
      expect(seen.distinct.tolerance.map(Number)).toEqual([0.02, 0.05, 0.1]);
      expect(seen.distinct.logitTolerance.map(Number)).toEqual([0.1, 0.2, 0.4]);
      // Settings off the grid are columns too, so two sweeps can be concatenated.
      expect(seen.distinct.metric).toEqual(['sp']);
      expect(seen.distinct['pool.name']).toEqual(['violating']);
      expect(seen.distinct.alpha.map(Number)).toEqual([0.05]);
    },
  );

  it('export --format parquet holds the same rows as the CSV (read back with hyparquet)', async () => {
    expect((await runCliInProcess(['export', out, '--format', 'parquet'])).code).toBe(0);
    const bytes = readFileSync(join(out, 'replicates.parquet'));
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const rows = (await parquetReadObjects({ file })) as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(180);
    expect(rows[0]).toMatchObject({
      experiment: 'linked-tolerances',
      access: 'decision',
      tolerance: 0.02,
      scoreTolerance: 0.02,
    });
    expect(new Set(rows.map((row) => row.cell)).size).toBe(9);
  });

  it('export of a folder that is not a results folder exits 2 naming it', async () => {
    const missing = join(out, 'no-such-folder');
    const result = await runCliInProcess(['export', missing]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no-such-folder');
  });
});
