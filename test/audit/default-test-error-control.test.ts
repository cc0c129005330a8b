import { describe, expect, it } from 'vitest';
import { auditPool } from '../../src/audit/audit-pool.js';
import { generateSyntheticPool } from '../../src/data/synthetic-pool.js';

// The fair synthetic pool of docs/error-control.md (4,000 rows here), moved to the edge of the null: decision rates 0.3
// (a) and 0.35 (b), so the
// SP gap is exactly the tolerance 0.05 (counts 2400 · 0.3 = 720 and 1600 · 0.35 = 560), where a test's
// false-violation rate is largest; 400 seeded audits.
const pool = generateSyntheticPool(
  { size: 4000, groupShare: 0.4, labelRate: [0.45, 0.4], decisionRate: [0.3, 0.35], logitScale: 1, seed: 'audit' },
  'boundary pool',
);
const replicates = 400;
const alpha = 0.05;
/** α + 3 standard errors of a rate α estimated from `replicates` audits. */
const bound = alpha + 3 * Math.sqrt((alpha * (1 - alpha)) / replicates);

async function falseViolationRate(settings: Parameters<typeof auditPool>[1]): Promise<number> {
  const summary = await auditPool(pool, { seed: 'error-control', replicates, ...settings });
  if (!('decisions' in summary)) throw new Error('several replicates give decision counts');
  expect(summary.oracleGap).toBe(0.05);
  return summary.decisions.reject / replicates;
}

describe("auditPool's default test on a compliant pool at |gap| = tolerance", () => {
  it('keeps P(false violation) ≤ α + 3 SE (the betting test, the default)', async () => {
    expect(await falseViolationRate({})).toBeLessThanOrEqual(bound);
  });

  it("while paper A's wald-glr exceeds it on the same pool (so the check can fail)", async () => {
    expect(await falseViolationRate({ test: 'wald-glr' })).toBeGreaterThan(bound);
  });
});
