import { type Random, shuffleInPlace } from '../../util/random.js';
import {
  addTreePredictions,
  type BinnedRows,
  createTreeWorkspace,
  growTree,
  type HistogramTree,
  rowMajorBins,
} from './histogram-tree.js';
import { applyBins, type BinThresholds, fitBinThresholds } from './quantile-binning.js';

/**
 * Settings of histogram gradient boosting for binary log-loss; the defaults are
 * scikit-learn 1.x's HistGradientBoostingClassifier's.
 */
export interface GradientBoostingSettings {
  readonly learningRate: number;
  readonly maxIterations: number;
  readonly maxLeafNodes: number;
  readonly minSamplesLeaf: number;
  readonly l2Regularization: number;
  readonly maxBins: number;
  /** 'auto' stops early when the fit has more than 10,000 rows (scikit-learn's rule). */
  readonly earlyStopping: boolean | 'auto';
  readonly validationFraction: number;
  readonly iterationsWithoutChange: number;
  readonly tolerance: number;
}

export const GRADIENT_BOOSTING_DEFAULTS: GradientBoostingSettings = {
  learningRate: 0.1,
  maxIterations: 100,
  maxLeafNodes: 31,
  minSamplesLeaf: 20,
  l2Regularization: 0,
  maxBins: 255,
  earlyStopping: 'auto',
  validationFraction: 0.1,
  iterationsWithoutChange: 10,
  tolerance: 1e-7,
};

/** A fitted boosted-trees classifier. */
export interface GradientBoostingModel {
  readonly binning: BinThresholds;
  /** log(p / (1 - p)) of the training positive rate: the raw prediction before any tree. */
  readonly baseline: number;
  readonly trees: HistogramTree[];
  /** Validation log-loss after 0, 1, ... trees when early stopping ran, else empty. */
  readonly validationLosses: number[];
}

/** The features a model reads: row-major, as in TabularData. */
export interface FeatureMatrix {
  readonly features: Float64Array;
  readonly columns: number;
}

function logLoss(raw: Float64Array, label: Uint8Array): number {
  let total = 0;
  for (let i = 0; i < raw.length; i++) {
    const z = raw[i];
    total += (z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z))) - label[i] * z;
  }
  return total / Math.max(1, raw.length);
}

/** Splits positions 0..n-1 into a validation part of about `fraction`, stratified by label. */
function stratifiedHoldout(label: Uint8Array, rows: Int32Array, fraction: number, random: Random) {
  const byClass: number[][] = [[], []];
  for (let i = 0; i < rows.length; i++) byClass[label[rows[i]]].push(rows[i]);
  const train: number[] = [];
  const validation: number[] = [];
  for (const members of byClass) {
    shuffleInPlace(random, members);
    const held = Math.round(members.length * fraction);
    validation.push(...members.slice(0, held));
    train.push(...members.slice(held));
  }
  train.sort((x, y) => x - y);
  validation.sort((x, y) => x - y);
  return { train: Int32Array.from(train), validation: Int32Array.from(validation) };
}

/**
 * fitGradientBoosting(data, label, rows, settings, random) fits boosted regression
 * trees to the binary log-loss on the listed rows of `data` (Friedman 2001; the
 * histogram method of LightGBM, Ke et al. 2017, as in scikit-learn's
 * HistGradientBoostingClassifier): bins each feature into at most maxBins quantile
 * bins learned from the training rows, starts from the log-odds of the positive
 * rate, then per iteration computes g = p - y and h = p (1 - p) and grows one tree
 * leaf-wise (growTree). With early stopping, a label-stratified validationFraction of
 * the rows is held out (drawn with `random`) and fitting stops once the validation
 * loss has not improved by `tolerance` over the last iterationsWithoutChange
 * iterations. O(iterations * rows * columns * depth).
 */
export function fitGradientBoosting(
  data: FeatureMatrix,
  label: Uint8Array,
  rows: Int32Array,
  settings: GradientBoostingSettings,
  random: Random,
): GradientBoostingModel {
  const early = settings.earlyStopping === 'auto' ? rows.length > 10_000 : settings.earlyStopping;
  const parts = early
    ? stratifiedHoldout(label, rows, settings.validationFraction, random)
    : { train: rows, validation: new Int32Array(0) };
  const binning = fitBinThresholds(data.features, data.columns, parts.train, settings.maxBins);
  const n = parts.train.length;
  const bins = applyBins(data.features, data.columns, parts.train, binning);
  const binned: BinnedRows = {
    rows: n,
    columns: data.columns,
    bins,
    rowBins: rowMajorBins(bins, n, data.columns),
    binCount: binning.binCount,
  };
  const trainLabel = Uint8Array.from(parts.train, (row) => label[row]);
  let positives = 0;
  for (let i = 0; i < n; i++) positives += trainLabel[i];
  const rate = Math.min(1 - 1e-12, Math.max(1e-12, positives / Math.max(1, n)));
  const baseline = Math.log(rate / (1 - rate));
  const raw = new Float64Array(n).fill(baseline);
  const gradient = new Float64Array(n);
  const hessian = new Float64Array(n);
  const workspace = createTreeWorkspace(binned);
  const treeSettings = {
    maxLeafNodes: settings.maxLeafNodes,
    minSamplesLeaf: settings.minSamplesLeaf,
    l2Regularization: settings.l2Regularization,
    learningRate: settings.learningRate,
  };
  const validationRows = parts.validation.length;
  const validationBins = applyBins(data.features, data.columns, parts.validation, binning);
  const validationLabel = Uint8Array.from(parts.validation, (row) => label[row]);
  const validationRaw = new Float64Array(validationRows).fill(baseline);
  const validationLosses: number[] = early ? [logLoss(validationRaw, validationLabel)] : [];
  const trees: HistogramTree[] = [];
  for (let iteration = 0; iteration < settings.maxIterations; iteration++) {
    for (let i = 0; i < n; i++) {
      const p = 1 / (1 + Math.exp(-raw[i]));
      gradient[i] = p - trainLabel[i];
      hessian[i] = p * (1 - p);
    }
    const tree = growTree(binned, gradient, hessian, treeSettings, workspace, raw);
    trees.push(tree);
    // A single-leaf tree: no split gains anything any more.
    if (tree.left[0] < 0) break;
    if (early) {
      addTreePredictions(tree, validationBins, validationRows, validationRaw);
      validationLosses.push(logLoss(validationRaw, validationLabel));
      const count = validationLosses.length;
      const patience = settings.iterationsWithoutChange;
      if (count > patience) {
        const reference = validationLosses[count - patience - 1];
        let improved = false;
        for (let k = count - patience; k < count; k++) {
          if (validationLosses[k] < reference - settings.tolerance) improved = true;
        }
        if (!improved) break;
      }
    }
  }
  return { binning, baseline, trees, validationLosses };
}

/**
 * boostedLogits(model, data, rows) returns the raw prediction (log-odds) of the model
 * for each listed row of `data`. O(rows * (columns log bins + trees * depth)).
 */
export function boostedLogits(model: GradientBoostingModel, data: FeatureMatrix, rows: Int32Array): Float64Array {
  const bins = applyBins(data.features, data.columns, rows, model.binning);
  const output = new Float64Array(rows.length).fill(model.baseline);
  for (const tree of model.trees) addTreePredictions(tree, bins, rows.length, output);
  return output;
}
