/**
 * Adam's optimiser settings (Kingma and Ba 2015, Algorithm 1). The defaults below
 * are the paper's (beta1 0.9, beta2 0.999) with Keras's epsilon 1e-7.
 */
export interface AdamSettings {
  readonly learningRate: number;
  readonly beta1: number;
  readonly beta2: number;
  readonly epsilon: number;
}

export const ADAM_DEFAULTS = { beta1: 0.9, beta2: 0.999, epsilon: 1e-7 } as const;

/** Adam's running moments and step count for a parameter vector. */
export interface AdamState {
  readonly firstMoment: Float64Array;
  readonly secondMoment: Float64Array;
  step: number;
}

/** createAdamState(size) starts Adam with zero moments. */
export function createAdamState(size: number): AdamState {
  return { firstMoment: new Float64Array(size), secondMoment: new Float64Array(size), step: 0 };
}

/**
 * adamStep(parameters, gradient, state, settings) applies one Adam update in place:
 * m <- b1 m + (1 - b1) g, v <- b2 v + (1 - b2) g^2,
 * theta <- theta - lr * (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps).
 * O(parameters.length), no allocation.
 */
export function adamStep(
  parameters: Float64Array,
  gradient: Float64Array,
  state: AdamState,
  settings: AdamSettings,
): void {
  state.step += 1;
  const { beta1, beta2, epsilon, learningRate } = settings;
  const firstCorrection = 1 / (1 - beta1 ** state.step);
  const secondCorrection = 1 / (1 - beta2 ** state.step);
  const m = state.firstMoment;
  const v = state.secondMoment;
  for (let k = 0; k < parameters.length; k++) {
    const g = gradient[k];
    const mk = beta1 * m[k] + (1 - beta1) * g;
    const vk = beta2 * v[k] + (1 - beta2) * g * g;
    m[k] = mk;
    v[k] = vk;
    parameters[k] -= (learningRate * mk * firstCorrection) / (Math.sqrt(vk * secondCorrection) + epsilon);
  }
}
