import { type SeedPair, type SeedPairModels, seedAxisOf } from './train-seed-grid.js';

/** The distribution of one figure over seeds. */
export interface Spread {
  readonly count: number;
  readonly min: number;
  readonly median: number;
  readonly max: number;
  readonly mean: number;
  /** Sample standard deviation (n - 1 in the denominator); 0 for one value. */
  readonly sd: number;
  readonly values: readonly number[];
}

/**
 * spreadOf(values) summarises figures over seeds: min, median (mean of the middle two
 * for an even count), max, mean and sample standard deviation. Throws RangeError for no
 * values. O(n log n).
 */
export function spreadOf(values: readonly number[]): Spread {
  if (values.length === 0) throw new RangeError('spreadOf: no values');
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const median = n % 2 === 1 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  const mean = values.reduce((sum, value) => sum + value, 0) / n;
  const squares = values.reduce((sum, value) => sum + (value - mean) ** 2, 0);
  return {
    count: n,
    min: sorted[0],
    median,
    max: sorted[n - 1],
    mean,
    sd: n > 1 ? Math.sqrt(squares / (n - 1)) : 0,
    values,
  };
}

/** A model's figures over one axis of training variability. */
export interface ModelSpreads {
  readonly accuracy: Spread;
  readonly statisticalParityGap: Spread;
  readonly equalOpportunityGap: Spread;
}

/** One model's variability: over model seeds (split fixed) and over split seeds (model seed fixed); null when an axis
 * has only the base pair. */
export interface ModelVariability {
  readonly model: string;
  readonly modelSeeds: ModelSpreads | null;
  readonly splitSeeds: ModelSpreads | null;
}

/**
 * seedVariability(grid, base) summarises the cards of trainModelsOverSeeds' result per
 * model and per axis (seedAxisOf: the base pair counts on both axes): accuracy, SP gap
 * and EO gap on the pool (paper A: the test part; paper B: the candidate set).
 * O(pairs × models).
 */
export function seedVariability(grid: readonly SeedPairModels[], base: SeedPair): ModelVariability[] {
  const names = grid[0]?.models.map((model) => model.name) ?? [];
  return names.map((name, index) => {
    const spreads = (axis: 'model' | 'split'): ModelSpreads | null => {
      const entries = grid.filter((entry) => {
        const on = seedAxisOf(base, entry);
        return on === 'base' || on === axis;
      });
      if (entries.length < 2) return null;
      const cards = entries.map((entry) => entry.models[index].card);
      return {
        accuracy: spreadOf(cards.map((card) => card.accuracy)),
        statisticalParityGap: spreadOf(cards.map((card) => card.statisticalParityGap)),
        equalOpportunityGap: spreadOf(cards.map((card) => card.equalOpportunityGap)),
      };
    };
    return { model: name, modelSeeds: spreads('model'), splitSeeds: spreads('split') };
  });
}
