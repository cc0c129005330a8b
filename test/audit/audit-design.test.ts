import { describe, expect, it } from 'vitest';
import { groupAuditSizes } from '../../src/audit/audit-design.js';

describe('groupAuditSizes(design, groupSizes, n)', () => {
  it('allocates proportionally or in halves, capped by the group sizes, and null for uniform', () => {
    expect(groupAuditSizes('uniform', [100, 20], 40)).toBeNull();
    expect(groupAuditSizes('proportional', [100, 20], 40)).toEqual([33, 7]);
    expect(groupAuditSizes('balanced', [100, 20], 40)).toEqual([20, 20]);
    expect(groupAuditSizes('balanced', [100, 10], 40)).toEqual([30, 10]);
  });

  it('rounds a tie x.5 up for group a (Math.round), the rounding pir and respir share', () => {
    expect(groupAuditSizes('proportional', [5, 5], 3)).toEqual([2, 1]);
  });
});
