import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** Whether python3 with numpy and scipy is on this machine (the cross-check needs them). */
const scipyAvailable = spawnSync('python3', ['-c', 'import numpy, scipy'], { stdio: 'ignore' }).status === 0;
if (!scipyAvailable) {
  // vitest prints skipped tests; this says why.
  console.warn('multi-group-mle-scipy.test.ts: skipped: python3 with numpy and scipy is not available');
}

describe.skipIf(!scipyAvailable)(
  'the K-group constrained MLE against SciPy SLSQP (scripts/multi-group-mle-scipy.py)',
  () => {
    it('matches a generic optimiser with pairwise constraints to 1e-9 in log-likelihood on 60 random cases', () => {
      const cases = execFileSync('node', ['scripts/multi-group-mle-cases.mjs', '40', 'vitest'], { encoding: 'utf8' });
      const output = execFileSync('python3', ['scripts/multi-group-mle-scipy.py'], { input: cases, encoding: 'utf8' });
      const summary = JSON.parse(output);
      expect(summary.cases).toBe(60);
      expect(summary.largestAbsoluteDifference).toBeLessThan(1e-9);
      expect(summary.scipyBetterBy1e9).toBe(0);
      expect(summary.largestNullViolationOfOurs).toBeLessThan(1e-12);
    }, 120_000);
  },
);
