import type { TabularData } from '../data/tabular.js';
import { type Random, standardNormal } from '../util/random.js';

/** The shape of a synthetic dataset: how many rows, numeric and one-hot columns. */
export interface SyntheticTabularShape {
  readonly rows: number;
  /** Standard-normal numeric features. */
  readonly numericColumns: number;
  /** Number of levels of each categorical feature (each becomes that many one-hot columns). */
  readonly categoricalLevels: readonly number[];
  /** How strongly the label depends on the group beyond the features (0 = not at all). */
  readonly groupEffect: number;
}

/** An Adult-shaped default: 6 numeric and 8 categorical features, 104 columns after one-hot. */
export const ADULT_LIKE_SHAPE: SyntheticTabularShape = {
  rows: 31_655,
  numericColumns: 6,
  categoricalLevels: [9, 16, 7, 15, 6, 5, 2, 38],
  groupEffect: 1,
};

/**
 * syntheticTabularData(shape, random) draws a biased binary classification dataset
 * for developing and testing models without real data: group ~ Bernoulli(0.4);
 * numeric features N(0, 1) with the first shifted by +0.7 in group 1; categorical
 * levels uniform, except the first feature's level, which is 0 with probability 0.5
 * in group 1; label ~ Bernoulli(sigmoid(1.5 x1 + x2 - 0.5 x3 + (level of the first
 * categorical is 0 ? 0.8 : 0) + groupEffect * (group - 0.5) - 0.5)). The group itself
 * is not a feature, so a model can only pick it up through correlated features.
 * O(rows * columns).
 */
export function syntheticTabularData(shape: SyntheticTabularShape, random: Random): TabularData {
  const { rows, numericColumns, categoricalLevels, groupEffect } = shape;
  const columns = numericColumns + categoricalLevels.reduce((sum, levels) => sum + levels, 0);
  const features = new Float64Array(rows * columns);
  const label = new Uint8Array(rows);
  const group = new Uint8Array(rows);
  const rowIndex = new Int32Array(rows);
  const featureNames: string[] = [];
  for (let c = 0; c < numericColumns; c++) featureNames.push(`x${c + 1}`);
  categoricalLevels.forEach((levels, f) => {
    for (let level = 0; level < levels; level++) featureNames.push(`c${f + 1}=${level}`);
  });
  const numeric = new Float64Array(Math.max(3, numericColumns));
  for (let r = 0; r < rows; r++) {
    const g = random() < 0.4 ? 1 : 0;
    group[r] = g;
    rowIndex[r] = r;
    const base = r * columns;
    numeric.fill(0);
    for (let c = 0; c < numericColumns; c++) {
      numeric[c] = standardNormal(random) + (c === 0 && g === 1 ? 0.7 : 0);
      features[base + c] = numeric[c];
    }
    let offset = numericColumns;
    let firstLevel = -1;
    categoricalLevels.forEach((levels, f) => {
      let level = Math.floor(random() * levels);
      if (f === 0 && g === 1 && random() < 0.5) level = 0;
      if (f === 0) firstLevel = level;
      features[base + offset + level] = 1;
      offset += levels;
    });
    const linear =
      1.5 * numeric[0] + numeric[1] - 0.5 * numeric[2] + (firstLevel === 0 ? 0.8 : 0) + groupEffect * (g - 0.5) - 0.5;
    label[r] = random() < 1 / (1 + Math.exp(-linear)) ? 1 : 0;
  }
  return { features, rows, columns, featureNames, label, group, rowIndex };
}
