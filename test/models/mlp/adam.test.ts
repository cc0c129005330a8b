import { describe, expect, it } from 'vitest';
import { ADAM_DEFAULTS, adamStep, createAdamState } from '../../../src/models/mlp/adam.js';

describe('adamStep(parameters, gradient, state, settings)', () => {
  it('moves each parameter by the learning rate against the sign of its gradient on the first step', () => {
    // Kingma and Ba 2015 section 2.1: with bias correction the first step is
    // lr * g / (|g| + eps), i.e. lr in magnitude whatever the gradient's scale.
    const parameters = Float64Array.from([1, -2, 3]);
    const gradient = Float64Array.from([5, -0.001, 1e4]);
    adamStep(parameters, gradient, createAdamState(3), { ...ADAM_DEFAULTS, learningRate: 0.01 });
    expect(parameters[0]).toBeCloseTo(0.99, 6);
    expect(parameters[1]).toBeCloseTo(-1.99, 4);
    expect(parameters[2]).toBeCloseTo(2.99, 6);
  });

  it('minimises a convex quadratic sum a_k (theta_k - c_k)^2 to its minimum c', () => {
    const target = [0.5, -1.5, 2, 0];
    const curvature = [1, 10, 0.1, 3];
    const parameters = new Float64Array(4);
    const gradient = new Float64Array(4);
    const state = createAdamState(4);
    for (let step = 0; step < 5000; step++) {
      for (let k = 0; k < 4; k++) gradient[k] = 2 * curvature[k] * (parameters[k] - target[k]);
      adamStep(parameters, gradient, state, { ...ADAM_DEFAULTS, learningRate: 0.01 });
    }
    for (let k = 0; k < 4; k++) expect(Math.abs(parameters[k] - target[k])).toBeLessThan(1e-3);
    expect(state.step).toBe(5000);
  });
});
