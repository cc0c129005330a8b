import { describe, expect, it } from 'vitest';
import { toleranceReference, toleranceReferenceTable } from '../../../papers/paper-a/tolerance-reference.js';
import type { AuditPool } from '../../../src/audit/pool.js';

/** A pool whose scores are evenly spread over (0, 1): its logits are standard logistic. */
function uniformScorePool(size: number): AuditPool {
  const score = new Float64Array(size);
  const logit = new Float64Array(size);
  const group = new Uint8Array(size);
  const label = new Uint8Array(size);
  const decision = new Uint8Array(size);
  for (let i = 0; i < size; i++) {
    score[i] = (i + 0.5) / size;
    logit[i] = Math.log(score[i] / (1 - score[i]));
    group[i] = i % 2;
    label[i] = i % 3 === 0 ? 1 : 0;
    decision[i] = score[i] >= 0.5 ? 1 : 0;
  }
  return { size, group, label, decision, score, logit, id: null, source: 'test:uniform-scores' };
}

describe('toleranceReference(name, pool, metric, tolerance)', () => {
  it(
    "gives δ/f_Z(0) ≈ 4δ and δ·E[σ'(Z)]/f_Z(0) ≈ (2/3)δ when scores are uniform (logistic density 1/4 at 0; " +
      'E[S(1−S)] = 1/6)',
    () => {
      const reference = toleranceReference('uniform', uniformScorePool(20_000), 'sp', 0.05);
      expect(reference).not.toBeNull();
      // Standard logistic density at 0 is 1/4; the kernel estimate is within ~1% (smoothing bias h²f''(0)/2).
      expect(reference!.thresholdDensity).toBeGreaterThan(0.245);
      expect(reference!.thresholdDensity).toBeLessThan(0.2505);
      // E[S(1 − S)] for S uniform on (0, 1) is 1/2 − 1/3 = 1/6.
      expect(reference!.meanSlope).toBeCloseTo(1 / 6, 4);
      expect(reference!.logitTolerance / 0.2).toBeGreaterThan(0.99);
      expect(reference!.logitTolerance / 0.2).toBeLessThan(1.025);
      expect(reference!.scoreTolerance / ((2 / 3) * 0.05)).toBeGreaterThan(0.99);
      expect(reference!.scoreTolerance / ((2 / 3) * 0.05)).toBeLessThan(1.025);
    },
  );

  it('uses only the label = 1 rows for EO, and returns null for a pool without logits', () => {
    const pool = uniformScorePool(3_000);
    expect(toleranceReference('uniform', pool, 'eo', 0.05)!.rows).toBe(1_000);
    expect(toleranceReference('no logits', { ...pool, logit: null }, 'sp', 0.05)).toBeNull();
  });

  it('toleranceReferenceTable(references, defaults) puts each default beside its shift equivalent', () => {
    const reference = toleranceReference('uniform', uniformScorePool(2_000), 'sp', 0.05)!;
    const table = toleranceReferenceTable([reference], { score: 0.05, logit: 0.2 });
    expect(table.rows[0]).toMatchObject({ pool: 'uniform', metric: 'SP', score_default: 0.05, logit_default: 0.2 });
  });
});
