import type { AuditPool } from '../../audit/pool.js';
import { VOPRF_SUITE } from '../../pir/voprf-suite.js';
import { inputError } from '../../util/errors.js';

/** What each transport keeps of paper B's promises, as --help, --json and the docs say it. */
export const SIMPLEPIR_NOTE = 'not symmetric: the auditor can read every label';
export const VOPRF_NOTE = 'symmetric: the auditor learns exactly |S| + k labels (one-more-gap-DH), S hidden perfectly';
export const TRANSPORT_HELP =
  `voprf: k-out-of-N oblivious transfer from an RFC 9497 verifiable OPRF ` +
  `(${VOPRF_SUITE}), ${VOPRF_NOTE}; simplepir: SimplePIR + VeriSimplePIR (paper B Table 1; post-quantum hiding of ` +
  `S), ${SIMPLEPIR_NOTE}`;

/**
 * requireIdColumn(pool, flag) refuses a pool without an `id` column: without one the
 * candidate digest covers only the sequence of groups, and rows of one group could be
 * permuted unnoticed. Exit 2 naming the file.
 */
export function requireIdColumn(pool: AuditPool, flag: string): void {
  if (pool.id !== null) return;
  throw inputError({
    where: `${flag} ${pool.source}`,
    expected: 'an id column (the candidate digest binds each row by its id and group)',
    found: 'no id column',
  });
}
