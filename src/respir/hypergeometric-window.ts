/**
 * The probabilities of X ~ Hypergeometric(population, successes, draws) on the window
 * first..first + length − 1 around the mode, and an upper bound on the mass left out.
 */
export interface HypergeometricWindow {
  /** The smallest value kept. */
  first: number;
  /** P(X = first + i) for i < length, normalised over the window (see droppedMass). */
  probabilities: Float64Array;
  length: number;
  /** An upper bound on P(X outside the window); 0 when the window is the whole support. */
  droppedMass: number;
}

/** Where fillHypergeometricWindow put its window: out[at..at + length − 1] holds P(X = first + i). */
export interface WindowPlacement {
  first: number;
  length: number;
  droppedMass: number;
}

// Scratch for the unnormalised terms, indexed by value − low; grown on demand. Holds no
// state between calls (every call writes before it reads).
let scratch = new Float64Array(1024);

/**
 * fillHypergeometricWindow(population, successes, draws, tailBound, out, at) is the
 * kernel of hypergeometricWindow: it writes the normalised window into out[at..] (out
 * must have room for the whole support, high − low + 1 values, from at) and returns
 * where it is. O(length of the window).
 */
export function fillHypergeometricWindow(
  population: number,
  successes: number,
  draws: number,
  tailBound: number,
  out: Float64Array,
  at: number,
): WindowPlacement {
  const failures = population - successes;
  const low = Math.max(0, draws - failures);
  const high = Math.min(draws, successes);
  if (low === high) {
    out[at] = 1;
    return { first: low, length: 1, droppedMass: 0 };
  }
  if (scratch.length < high - low + 1) scratch = new Float64Array(2 * (high - low + 1));
  let mode = Math.floor(((draws + 1) * (successes + 1)) / (population + 2));
  mode = Math.min(high, Math.max(low, mode));
  // Terms relative to the mode (atMode = 1): the tail test and the sum need no exp.
  const cut = tailBound;
  let dropped = 0;
  let value = 1;
  let top = mode;
  scratch[mode - low] = 1;
  let total = 1;
  while (top < high) {
    const x = top;
    const ratio = ((successes - x) * (draws - x)) / ((x + 1) * (failures - draws + x + 1));
    const next = value * ratio;
    if (next <= cut && ratio < 1 && next / (1 - ratio) <= cut) {
      dropped += next / (1 - ratio);
      break;
    }
    value = next;
    top++;
    scratch[top - low] = value;
    total += value;
  }
  value = 1;
  let bottom = mode;
  while (bottom > low) {
    const x = bottom;
    const ratio = (x * (failures - draws + x)) / ((successes - x + 1) * (draws - x + 1));
    const next = value * ratio;
    if (next <= cut && ratio < 1 && next / (1 - ratio) <= cut) {
      dropped += next / (1 - ratio);
      break;
    }
    value = next;
    bottom--;
    scratch[bottom - low] = value;
    total += value;
  }
  const length = top - bottom + 1;
  const from = bottom - low;
  for (let i = 0; i < length; i++) out[at + i] = scratch[from + i] / total;
  // The law's total is total + (what was dropped) in the same units, so the dropped share
  // is at most dropped / total; each kept value is too large by at most that factor.
  return { first: bottom, length, droppedMass: dropped / total };
}

/**
 * hypergeometricWindow(population, successes, draws, tailBound) lists
 * the probabilities of X ~ Hypergeometric(population, successes, draws) outward from the
 * mode until what is left of each tail is provably at most `tailBound` times the mode's
 * probability (so at most `tailBound` of the law): the pmf is log-concave, so its ratios
 * p(x+1)/p(x) = (K−x)(n−x)/((x+1)(N−K−n+x+1)) only fall as x grows, and the tail beyond
 * x is at most p(x)·r/(1 − r) with r the next ratio (a geometric series). The window is
 * normalised to sum to 1, so no ln-factorial rounding enters; each kept probability is
 * too large by a factor of at most 1 + droppedMass. Inputs are trusted (integers, 0 ≤ successes, draws ≤ population).
 * O(standard
 * deviation · sqrt(ln(1/tailBound))).
 */
export function hypergeometricWindow(
  population: number,
  successes: number,
  draws: number,
  tailBound: number,
): HypergeometricWindow {
  const support = Math.min(draws, successes) - Math.max(0, draws - population + successes) + 1;
  const out = new Float64Array(support);
  const placement = fillHypergeometricWindow(population, successes, draws, tailBound, out, 0);
  return {
    first: placement.first,
    probabilities: out.slice(0, placement.length),
    length: placement.length,
    droppedMass: placement.droppedMass,
  };
}
