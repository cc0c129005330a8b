import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Float64, Int32, Schema, Table, tableToIPC, Utf8, type Vector, vectorFromArray } from 'apache-arrow';
import { replicateSeed } from '../../src/harness/plan.js';

/** One replicate row of a sequential-audit results table (docs/contracts.md columns). */
export interface AuditRow {
  dataset: string;
  access: string;
  decision: 'reject' | 'accept' | 'inconclusive';
  queries: number;
  oracleGap: number;
  oracleDecision: 'reject' | 'accept';
  fixedDecision: 'reject' | 'accept';
  fixedSamples: number;
  poolSize?: number;
  proxyGap?: number;
  statistic?: number;
}

/** The plan fingerprint the fixture's run.json and results.arrow record. */
export const FIXTURE_FINGERPRINT = 'f'.repeat(64);

/**
 * writeAuditResults(folder, rows, options) writes results.arrow (and run.json unless
 * told not to) the way the harness does: experiment, kind, cell, the varying
 * settings dataset and access, replicate, seed, then the sequential-audit outcome
 * columns; run.json of format 2 lists the plan's cells (in the rows' order), the
 * columns and the SHA-256 of results.arrow, as the reader checks them. Rows of one cell
 * must be contiguous.
 */
export function writeAuditResults(
  folder: string,
  rows: AuditRow[],
  options: { experiment?: string; kind?: string; runJson?: boolean; dropColumns?: string[] } = {},
): void {
  mkdirSync(folder, { recursive: true });
  const experiment = options.experiment ?? 'fixture';
  const cellOf = (row: AuditRow) => `access=${row.access},dataset=${row.dataset}`;
  const replicateIndex = new Map<string, number>();
  const replicates = rows.map((row) => {
    const cell = cellOf(row);
    const index = replicateIndex.get(cell) ?? 0;
    replicateIndex.set(cell, index + 1);
    return index;
  });
  const columns: Record<string, Vector<Utf8> | Vector<Int32> | Vector<Float64>> = {
    experiment: vectorFromArray(
      rows.map(() => experiment),
      new Utf8(),
    ),
    kind: vectorFromArray(
      rows.map(() => options.kind ?? 'sequential-audit'),
      new Utf8(),
    ),
    cell: vectorFromArray(rows.map(cellOf), new Utf8()),
    dataset: vectorFromArray(
      rows.map((row) => row.dataset),
      new Utf8(),
    ),
    access: vectorFromArray(
      rows.map((row) => row.access),
      new Utf8(),
    ),
    replicate: vectorFromArray(replicates, new Int32()),
    seed: vectorFromArray(
      // The seeds a run with master seed '7' gives (run.json below), which every reader re-derives.
      rows.map((row, i) => replicateSeed('7', cellOf(row), replicates[i])),
      new Utf8(),
    ),
    decision: vectorFromArray(
      rows.map((row) => row.decision),
      new Utf8(),
    ),
    queries: vectorFromArray(
      rows.map((row) => row.queries),
      new Int32(),
    ),
    statistic: vectorFromArray(
      rows.map((row) => row.statistic ?? 0),
      new Float64(),
    ),
    oracle_gap: vectorFromArray(
      rows.map((row) => row.oracleGap),
      new Float64(),
    ),
    oracle_decision: vectorFromArray(
      rows.map((row) => row.oracleDecision),
      new Utf8(),
    ),
    fixed_decision: vectorFromArray(
      rows.map((row) => row.fixedDecision),
      new Utf8(),
    ),
    fixed_samples: vectorFromArray(
      rows.map((row) => row.fixedSamples),
      new Int32(),
    ),
    pool_size: vectorFromArray(
      rows.map((row) => row.poolSize ?? 5000),
      new Int32(),
    ),
    proxy_gap: vectorFromArray(
      rows.map((row) => row.proxyGap ?? Number.NaN),
      new Float64(),
    ),
  };
  for (const name of options.dropColumns ?? []) delete columns[name];
  const kind = options.kind ?? 'sequential-audit';
  const table = new Table(columns);
  const metadata = new Map([
    ['fairaudit.experiment', experiment],
    ['fairaudit.kind', kind],
    ['fairaudit.fingerprint', FIXTURE_FINGERPRINT],
  ]);
  const bytes = tableToIPC(new Table(new Schema(table.schema.fields, metadata), table.batches), 'file');
  writeFileSync(join(folder, 'results.arrow'), bytes);
  if (options.runJson !== false) {
    const cells = [...replicateIndex.entries()].map(([key, count], index) => {
      const [access, dataset] = key.split(',').map((part) => part.split('=')[1]);
      return {
        index,
        key,
        columns: { dataset, access },
        settings: { dataset, access, audit: { tolerance: 0.05, budget: 4000 } },
        replicates: count,
      };
    });
    const typeOf = (vector: Vector) =>
      ({ Utf8: 'utf8', Int32: 'int32', Float64: 'float64' })[String(vector.type)] as string;
    writeFileSync(
      join(folder, 'run.json'),
      JSON.stringify({
        format: 'fairaudit-run/2',
        experiment,
        kind,
        config: {
          file: 'fixture.yaml',
          description: null,
          seed: '7',
          replicates: 4,
          chunkSize: 100,
          settings: {},
          grid: {},
        },
        plan: {
          fingerprint: FIXTURE_FINGERPRINT,
          fingerprintFormat: 'fairaudit-plan/2',
          tasks: rows.length,
          chunks: cells.length,
          seed: '7',
          replicates: 4,
          chunkSize: 100,
          gridColumns: [
            { key: 'dataset', column: 'dataset', type: 'utf8' },
            { key: 'access', column: 'access', type: 'utf8' },
          ],
          cellCount: cells.length,
          cells,
        },
        shard: null,
        rows: rows.length,
        columns: Object.entries(columns).map(([name, vector]) => ({ name, type: typeOf(vector), description: name })),
        artifacts: [
          {
            file: 'results.arrow',
            sha256: createHash('sha256').update(bytes).digest('hex'),
            bytes: bytes.byteLength,
            rows: rows.length,
            batches: 1,
          },
        ],
        provenance: {
          fairauditVersion: '0.1.0',
          node: 'v20',
          gitCommit: 'abc123',
          masterSeed: 7,
          threads: 1,
          wallTimeSeconds: 1.5,
        },
      }),
    );
  }
}

/**
 * A small two-dataset, three-access run: per cell four replicates whose decisions,
 * queries and baseline outcomes are chosen by hand so every summary value is known.
 */
export function fixtureRows(): AuditRow[] {
  const rows: AuditRow[] = [];
  const datasets = [
    { dataset: 'acs', oracleGap: 0.0923, scale: 1 },
    { dataset: 'adult', oracleGap: 0.1716, scale: 0.1 },
  ];
  const accesses = [
    {
      access: 'decision',
      queries: [2000, 2400, 1800, 4000],
      decisions: ['reject', 'reject', 'reject', 'inconclusive'] as const,
    },
    {
      access: 'score',
      queries: [1500, 1900, 2100, 1700],
      decisions: ['reject', 'reject', 'reject', 'reject'] as const,
    },
    { access: 'logit', queries: [600, 800, 700, 500], decisions: ['reject', 'reject', 'accept', 'reject'] as const },
  ];
  for (const { dataset, oracleGap, scale } of datasets) {
    for (const { access, queries, decisions } of accesses) {
      queries.forEach((count, i) => {
        rows.push({
          dataset,
          access,
          decision: decisions[i],
          queries: Math.round(count * scale),
          oracleGap,
          oracleDecision: 'reject',
          fixedDecision: i === 3 && access === 'decision' ? 'accept' : 'reject',
          fixedSamples: 4000,
          proxyGap: access === 'decision' ? Number.NaN : 0.08,
        });
      });
    }
  }
  return rows;
}
