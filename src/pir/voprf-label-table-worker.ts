import { serveThreadPool } from '../util/serve-thread-pool.js';
import { type MaskedRangeRequest, maskedRange } from './voprf-label-table.js';

/**
 * The worker-thread entry of createVoprfLabelTable: answers each MaskedRangeRequest with
 * its masked entries (maskedRange); a failure goes back through the thread pool's codec.
 */
serveThreadPool<MaskedRangeRequest, Uint8Array>({ handle: maskedRange });
