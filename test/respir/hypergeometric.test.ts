import { describe, expect, it } from 'vitest';
import { hypergeometricKernel } from '../../src/respir/hypergeometric.js';
import { logFactorialTable } from '../../src/respir/log-factorial-table.js';
import { createRandom, type Random } from '../../src/util/random.js';

function counting(random: Random): { random: Random; calls: () => number } {
  let calls = 0;
  return {
    random: () => {
      calls++;
      return random();
    },
    calls: () => calls,
  };
}

describe('hypergeometricKernel(random, logFactorials, population, successes, draws)', () => {
  it('takes exactly one uniform per draw, also when the value is forced (common random numbers stay aligned)', () => {
    const logFactorials = logFactorialTable(100);
    const source = counting(createRandom('hypergeometric-one-uniform'));
    for (const [population, successes, draws] of [
      [100, 0, 10], // no successes: forced 0
      [100, 100, 10], // all successes: forced 10
      [100, 30, 0], // no draws
      [100, 30, 100], // every item drawn: forced 30
      [100, 30, 10],
    ]) {
      const before = source.calls();
      hypergeometricKernel(source.random, logFactorials, population, successes, draws);
      expect(source.calls() - before).toBe(1);
    }
  });

  it(
    'gives the same draw from the same uniform whatever came before (a forced draw no longer shifts the ' + 'stream)',
    () => {
      const logFactorials = logFactorialTable(200);
      const withForced = createRandom('hypergeometric-aligned');
      const without = createRandom('hypergeometric-aligned');
      for (let i = 0; i < 50; i++) {
        hypergeometricKernel(withForced, logFactorials, 200, 0, 20); // forced
        without(); // the same uniform, skipped
        expect(hypergeometricKernel(withForced, logFactorials, 200, 60, 40)).toBe(
          hypergeometricKernel(without, logFactorials, 200, 60, 40),
        );
      }
    },
  );
});
