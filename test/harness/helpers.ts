import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Schema, Table, tableFromIPC, tableToIPC, vectorFromArray } from 'apache-arrow';
import { encodeChunkPayload } from '../../src/harness/chunk-payload.js';
import type { KindRunner } from '../../src/harness/kind-runner.js';
import type { Plan } from '../../src/harness/plan.js';
import { runChunk } from '../../src/harness/run-chunk.js';

/** A fresh temporary folder. */
export function temporaryFolder(prefix = 'fairaudit-runner-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes text to name inside folder and returns the path. */
export function writeText(folder: string, name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

/** The bytes of a file. */
export function bytesOf(path: string): Buffer {
  return readFileSync(path);
}

/**
 * A small sequential-audit experiment: 2 pools × 2 metrics = 4 cells on small
 * synthetic pools, chunks of 7 so that chunk edges fall inside cells.
 */
export function smallExperimentYaml(name: string, replicates = 30): string {
  return `experiment: ${name}
kind: sequential-audit
seed: 7
replicates: ${replicates}
chunkSize: 7
settings:
  access: score
  budget: 800
grid:
  metric: [sp, eo]
  pool:
    - name: fair
      synthetic: { size: 3000, decisionRate: [0.40, 0.39], truePositiveRate: [0.7, 0.69], seed: 3 }
    - name: unfair
      synthetic: { size: 3000, decisionRate: [0.45, 0.30], truePositiveRate: [0.8, 0.6], seed: 4 }
`;
}

/**
 * The payload a worker thread sends for chunk `index` of a plan (the same functions it
 * calls: the kind's prepare, runChunk, encodeChunkPayload), made in this thread so a
 * test can lay out checkpoints as a killed run leaves them.
 */
export async function workerPayload(
  plan: Plan,
  kind: KindRunner,
  index: number,
  configFile = 'test.yaml',
): Promise<Uint8Array> {
  const chunk = plan.chunkAt(index);
  const cell = plan.cellAt(chunk.cell);
  const context = await kind.prepare(cell.settings, { configFile, baseDirectory: tmpdir() });
  return encodeChunkPayload(kind.outcomeColumns, runChunk(kind, context, cell, plan.seed, chunk));
}

/**
 * Two cells (decision and logit access) × 1500 replicates in chunks of 25 on a
 * 20,000-row synthetic pool: a couple of seconds at one thread on an idle core, so a
 * test can interrupt the run or overlap two runs.
 */
export function longExperimentYaml(name: string, seed = `${name}-test`): string {
  return `experiment: ${name}
kind: sequential-audit
seed: ${seed}
replicates: 1500
chunkSize: 25
settings:
  budget: 4000
  pool: { name: near, synthetic: { size: 20000, decisionRate: [0.40, 0.37] } }
grid:
  access: [decision, logit]
`;
}

/** Rewrites results.arrow with `edit` applied to its columns, keeps its schema metadata, and writes the new SHA-256 and
 * size into run.json. */
export function forgeResults(
  folder: string,
  edit: (columns: Record<string, unknown[]>) => void,
  metadata?: Map<string, string>,
) {
  const file = join(folder, 'results.arrow');
  const table = tableFromIPC(readFileSync(file));
  const columns: Record<string, unknown[]> = {};
  for (const field of table.schema.fields) columns[field.name] = [...(table.getChild(field.name)?.toArray() ?? [])];
  edit(columns);
  const vectors = Object.fromEntries(
    table.schema.fields.map((field) => [field.name, vectorFromArray(columns[field.name] as never, field.type)]),
  );
  const rebuilt = new Table(vectors);
  const bytes = tableToIPC(
    new Table(new Schema(rebuilt.schema.fields, metadata ?? table.schema.metadata), rebuilt.batches),
    'file',
  );
  writeFileSync(file, bytes);
  const runFile = join(folder, 'run.json');
  const record = JSON.parse(readFileSync(runFile, 'utf8'));
  const artifact = record.artifacts.find((entry: { file: string }) => entry.file === 'results.arrow');
  artifact.sha256 = createHash('sha256').update(bytes).digest('hex');
  artifact.bytes = bytes.length;
  writeFileSync(runFile, JSON.stringify(record, null, 2));
  return record;
}
