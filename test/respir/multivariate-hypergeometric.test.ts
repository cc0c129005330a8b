import { describe, expect, it } from 'vitest';
import { logFactorialTable } from '../../src/respir/log-factorial-table.js';
import { multivariateHypergeometricKernel } from '../../src/respir/multivariate-hypergeometric.js';
import { createRandom } from '../../src/util/random.js';

describe('multivariateHypergeometricKernel(random, logFactorials, counts, from, to, draws, out)', () => {
  it(
    'takes strata − 1 uniforms per draw whatever the counts, so the same seed drives the same draws (true ' +
      'common random numbers)',
    () => {
      const logFactorials = logFactorialTable(1000);
      // Two candidate sets that differ only by flips: one stratum empty in the first, not in the second.
      const before = Int32Array.of(300, 700, 0, 0, 0);
      const after = Int32Array.of(290, 700, 0, 10, 0);
      for (const counts of [before, after]) {
        let calls = 0;
        const source = createRandom('multivariate-calls');
        const random = () => {
          calls++;
          return source();
        };
        const out = new Int32Array(5);
        for (let d = 0; d < 100; d++) multivariateHypergeometricKernel(random, logFactorials, counts, 0, 5, 400, out);
        expect(calls).toBe(100 * 4);
      }
      // Coupled: with the same uniforms, the draws of the two sets differ only where the flipped stratum enters.
      const first = createRandom('multivariate-coupled');
      const second = createRandom('multivariate-coupled');
      const a = new Int32Array(5);
      const b = new Int32Array(5);
      let sameNegatives = 0;
      for (let d = 0; d < 1000; d++) {
        multivariateHypergeometricKernel(first, logFactorials, before, 0, 5, 400, a);
        multivariateHypergeometricKernel(second, logFactorials, after, 0, 5, 400, b);
        if (a[1] === b[1] || Math.abs(a[1] - b[1]) <= 4) sameNegatives++;
      }
      expect(sameNegatives).toBeGreaterThan(900);
    },
  );
});
