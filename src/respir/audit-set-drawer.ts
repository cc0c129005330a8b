import { type AuditDesign, groupAuditSizes } from '../audit/audit-design.js';
import { partialShuffle, type Random } from '../util/random.js';
import { type AuditStrata, strataPerGroup } from './audit-strata.js';
import { logFactorialTable } from './log-factorial-table.js';
import { multivariateHypergeometricKernel } from './multivariate-hypergeometric.js';

/**
 * How a draw is made: 'counts' draws the per-stratum counts directly from the
 * multivariate hypergeometric law (O(strata × sd) per draw); 'indices' runs a partial
 * Fisher-Yates shuffle over a reused buffer of C's rows (O(N) per draw). Both give
 * the same law of the counts (test/respir/audit-set-drawer.test.ts checks it).
 */
export type AuditSampler = 'counts' | 'indices';

/** A drawer fills `out` (one entry per stratum) with the audit set's count per stratum. */
export type AuditSetDrawer = (random: Random, out: Int32Array) => void;

function groupSize(strata: AuditStrata, group: number): number {
  let total = 0;
  for (let s = group * strataPerGroup; s < (group + 1) * strataPerGroup; s++) total += strata.counts[s];
  return total;
}

/**
 * createAuditSetDrawer(strata, auditSetSize, design, sampler) returns a function that
 * draws one audit set S ⊂ C of `auditSetSize` rows and writes its count per stratum.
 * Set-up is O(N) (the ln-factorial table, or the row buffer); each draw is
 * O(strata × sd) for 'counts' and O(N) for 'indices' (the buffer's reset, then n swaps). Inputs are trusted
 * (auditSetSize ≤ N).
 */
export function createAuditSetDrawer(
  strata: AuditStrata,
  auditSetSize: number,
  design: AuditDesign,
  sampler: AuditSampler,
): AuditSetDrawer {
  const sizes: [number, number] = [groupSize(strata, 0), groupSize(strata, 1)];
  const perGroup = groupAuditSizes(design, sizes, auditSetSize);
  const strataCount = strata.counts.length;
  if (sampler === 'counts') {
    const logFactorials = logFactorialTable(sizes[0] + sizes[1]);
    if (perGroup === null) {
      return (random, out) =>
        multivariateHypergeometricKernel(random, logFactorials, strata.counts, 0, strataCount, auditSetSize, out);
    }
    return (random, out) => {
      multivariateHypergeometricKernel(random, logFactorials, strata.counts, 0, strataPerGroup, perGroup[0], out);
      multivariateHypergeometricKernel(
        random,
        logFactorials,
        strata.counts,
        strataPerGroup,
        strataCount,
        perGroup[1],
        out,
      );
    };
  }
  // 'indices': one buffer of stratum ids per row (per group when stratified); a partial
  // Fisher-Yates pass over the buffer's current order draws a uniform subset.
  // Each draw starts from the pristine buffer (an O(N) copy), so a draw never depends
  // on the draws before it: results stay identical whatever order replicates run in.
  const buffers: Int32Array[] = [];
  const pristine: Int32Array[] = [];
  const takes: number[] = [];
  const fill = (from: number, to: number): Int32Array => {
    let length = 0;
    for (let s = from; s < to; s++) length += strata.counts[s];
    const buffer = new Int32Array(length);
    let at = 0;
    for (let s = from; s < to; s++) {
      buffer.fill(s, at, at + strata.counts[s]);
      at += strata.counts[s];
    }
    return buffer;
  };
  if (perGroup === null) {
    buffers.push(fill(0, strataCount));
    takes.push(auditSetSize);
  } else {
    buffers.push(fill(0, strataPerGroup), fill(strataPerGroup, strataCount));
    takes.push(perGroup[0], perGroup[1]);
  }
  for (const buffer of buffers) pristine.push(buffer.slice());
  return (random, out) => {
    out.fill(0);
    for (let b = 0; b < buffers.length; b++) {
      const buffer = buffers[b];
      buffer.set(pristine[b]);
      const taken = partialShuffle(buffer, takes[b], random);
      for (let i = 0; i < taken.length; i++) out[taken[i]]++;
    }
  };
}
