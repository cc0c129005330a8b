import { describe, expect, it } from 'vitest';
import { auditSettingsSchema } from '../../src/audit/audit-settings.js';
import { buildAuditTest } from '../../src/audit/build-audit-test.js';
import { logitBoundsProblem } from '../../src/audit/logit-bounds-check.js';
import type { AuditPool } from '../../src/audit/pool.js';
import { prepareAudit } from '../../src/audit/prepare-audit.js';
import { validateInput } from '../../src/util/schema.js';

/** Eight rows, four per group, with the given logits. */
function logitPool(logits: readonly number[]): AuditPool {
  const size = logits.length;
  return {
    size,
    group: Uint8Array.from({ length: size }, (_, i) => (i < size / 2 ? 0 : 1)),
    label: new Uint8Array(size).fill(1),
    decision: Uint8Array.from(logits, (z) => (z > 0 ? 1 : 0)),
    score: null,
    logit: Float64Array.from(logits),
    id: null,
    source: 'pool.csv',
  };
}

describe('logitBoundsProblem(prepared, bounds)', () => {
  it('is null when every logit lies within the bounds, ends included', () => {
    const prepared = prepareAudit(logitPool([-8, -1, 0, 2, 1, 3, 8, 0.5]), 'sp', 'logit');
    expect(logitBoundsProblem(prepared, { lower: -8, upper: 8 })).toBeNull();
  });

  it('names the first row outside, how many are and the range found', () => {
    const prepared = prepareAudit(logitPool([-1, 0, 9.5, 2, 1, 3, -12, 0.5]), 'sp', 'logit');
    expect(logitBoundsProblem(prepared, { lower: -8, upper: 8 })?.message).toBe(
      `pool.csv: logit of the sp pool: expected every logit within the declared logit bounds [-8, 8] (the ` +
        `betting test's guarantee needs them), found "2 of 8 rows outside ` +
        `(the first is row 3 of the metric's pool, 9.5; the logits span [-12, 9.5])"`,
    );
  });

  it('buildAuditTest refuses the betting test before the audit, not only when a query reaches the row', () => {
    const prepared = prepareAudit(logitPool([-1, 0, 9.5, 2, 1, 3, 2, 0.5]), 'sp', 'logit');
    const settings = validateInput(
      { access: 'logit', test: 'betting', logitBounds: { lower: -8, upper: 8 } },
      auditSettingsSchema,
      (path) => path.join('.'),
    );
    expect(() => buildAuditTest(prepared, settings)).toThrow(/1 of 8 rows outside/);
    const wide = validateInput(
      { access: 'logit', test: 'betting', logitBounds: { lower: -10, upper: 10 } },
      auditSettingsSchema,
      (path) => path.join('.'),
    );
    expect(buildAuditTest(prepared, wide).name).toBe('betting');
  });
});
