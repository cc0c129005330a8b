import { parentPort, workerData } from 'node:worker_threads';
import { isInputError } from '../util/errors.js';
import { findKind } from './kinds.js';
import { runChunk } from './run-chunk.js';
import type { ChunkReply, ChunkRequest, WorkerSetup } from './worker-protocol.js';

/**
 * The worker thread: runs chunks of replicates sent by the main thread. A kind's
 * context (a pool loaded or generated, an audit prepared) is made once per worker
 * per context key and reused by every later chunk, never once per replicate.
 */
const setup = workerData as WorkerSetup;
const kind = findKind(setup.kind);
const contexts = new Map<string, Promise<unknown>>();

function contextFor(settings: Record<string, unknown>): Promise<unknown> {
  if (!kind) throw new Error(`worker: unknown experiment kind ${setup.kind}`);
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
    if (!kind) throw new Error(`worker: unknown experiment kind ${setup.kind}`);
    const cell = setup.cells[request.chunk.cell];
    const context = await contextFor(cell.settings);
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
