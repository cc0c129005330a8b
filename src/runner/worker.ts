import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { isInputError } from '../util/errors.js';
import type { ExperimentKind } from './kind.js';
import { runChunk } from './run-chunk.js';
import type { ChunkReply, ChunkRequest, WorkerSetup } from './worker-protocol.js';

/**
 * The worker thread: runs chunks of replicates sent by the main thread. A kind's
 * context (a pool loaded or generated, an audit prepared) is made once per worker
 * per context key and reused by every later chunk, never once per replicate.
 */
const setup = workerData as WorkerSetup;
const contexts = new Map<string, Promise<unknown>>();

function isKind(value: unknown): value is ExperimentKind {
  return typeof value === 'object' && value !== null && (value as ExperimentKind).name === setup.kind && 'runReplicate' in value;
}

/** The kind: from its own module when the main thread named one, else from the registry. */
async function loadKind(): Promise<ExperimentKind> {
  const found = setup.kindModule
    ? Object.values((await import(pathToFileURL(setup.kindModule).href)) as Record<string, unknown>).find(isKind)
    : (await import('./kinds.js')).findKind(setup.kind);
  if (!found) throw new Error(`worker: experiment kind ${setup.kind} not found in ${setup.kindModule ?? 'the registry'}`);
  return found;
}

const kindLoaded = loadKind();

function contextFor(kind: ExperimentKind, settings: Record<string, unknown>): Promise<unknown> {
  const key = kind.contextKey(settings);
  let context = contexts.get(key);
  if (!context) {
    context = kind.prepare(settings, setup.origin);
    contexts.set(key, context);
  }
  return context;
}

parentPort?.on('message', async (request: ChunkRequest) => {
  let reply: ChunkReply;
  try {
    const kind = await kindLoaded;
    const cell = setup.cells[request.chunk.cell];
    const context = await contextFor(kind, cell.settings);
    reply = { type: 'done', chunk: request.chunk.index, outcomes: runChunk(kind, context, cell, setup.seed, request.chunk) };
  } catch (error) {
    reply = {
      type: 'error',
      chunk: request.chunk.index,
      message: (error as Error)?.message ?? String(error),
      stack: (error as Error)?.stack ?? String(error),
      inputError: isInputError(error),
    };
  }
  parentPort?.postMessage(reply);
});
