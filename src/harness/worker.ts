import { pathToFileURL } from 'node:url';
import { workerData } from 'node:worker_threads';
import { serveThreadPool } from '../util/serve-thread-pool.js';
import { encodeChunkPayload } from './chunk-payload.js';
import type { KindRunner } from './kind-runner.js';
import { runChunk } from './run-chunk.js';
import type { WorkerCell, WorkerRequest, WorkerSetup } from './worker-protocol.js';

/**
 * The worker thread: prepares contexts and runs chunks of replicates sent by the main
 * thread, one request at a time in arrival order (the main thread keeps the next chunk
 * queued here, so the worker never waits for a round trip). A kind's context (a pool
 * loaded or generated, an audit prepared) is made once per worker per context key and
 * reused by every later chunk, never once per replicate. A chunk's outcomes go back
 * as one byte buffer (encodeChunkPayload), transferred rather than cloned, which the
 * main thread writes as the chunk's checkpoint as it is.
 */
const setup = workerData as WorkerSetup;
const contexts = new Map<string, Promise<unknown>>();
/** The cell of the last chunk request (a request carries its cell only when it changes). */
let lastCell: WorkerCell | undefined;

function isKind(value: unknown): value is KindRunner {
  return (
    typeof value === 'object' && value !== null && (value as KindRunner).name === setup.kind && 'runReplicate' in value
  );
}

/** The kind, from its own module alone (no registry: a worker loads only what its kind needs). */
async function loadKind(): Promise<KindRunner> {
  const exports = (await import(pathToFileURL(setup.kindModule).href)) as Record<string, unknown>;
  const found = Object.values(exports).find(isKind);
  if (!found)
    throw new Error(`worker: experiment kind ${setup.kind} not found among the exports of ${setup.kindModule}`);
  return found;
}

const kindLoaded = loadKind();
// Handled where it is awaited; this only keeps an early failure from being reported as unhandled.
kindLoaded.catch(() => undefined);

function contextFor(kind: KindRunner, settings: Record<string, unknown>): Promise<unknown> {
  const key = kind.contextKey(settings);
  let context = contexts.get(key);
  if (!context) {
    context = kind.prepare(settings, setup.origin);
    contexts.set(key, context);
  }
  return context;
}

async function answer(request: WorkerRequest): Promise<Uint8Array | undefined> {
  const kind = await kindLoaded;
  if (request.type === 'check') {
    await contextFor(kind, request.cell.settings);
    return undefined;
  }
  if (request.cell !== undefined) lastCell = request.cell;
  const cell = lastCell;
  if (cell?.index !== request.chunk.cell)
    throw new Error(`worker: chunk ${request.chunk.index} of cell ${request.chunk.cell} came without its cell`);
  const context = await contextFor(kind, cell.settings);
  return encodeChunkPayload(kind.outcomeColumns, runChunk(kind, context, cell, setup.seed, request.chunk));
}

// Requests are answered one at a time, in arrival order; a chunk's payload is transferred.
serveThreadPool<WorkerRequest, Uint8Array | undefined>({
  handle: answer,
  transfer: (payload) => (payload === undefined ? [] : [payload.buffer as ArrayBuffer]),
});
