/** Settings of one regression tree grown on gradients. */
export interface TreeSettings {
  /** Grow leaf-wise (best gain first) until this many leaves. */
  readonly maxLeafNodes: number;
  /** Every leaf keeps at least this many rows. */
  readonly minSamplesLeaf: number;
  /** L2 penalty on leaf values (lambda in G^2 / (H + lambda)). */
  readonly l2Regularization: number;
  /** Shrinkage applied to leaf values. */
  readonly learningRate: number;
}

/** A fitted tree in flat arrays. Node 0 is the root; a leaf has left = -1. */
export interface HistogramTree {
  readonly feature: Int32Array;
  /** Rows with bin <= splitBin go left. */
  readonly splitBin: Int32Array;
  readonly left: Int32Array;
  readonly right: Int32Array;
  /** Leaf value (already multiplied by the learning rate); 0 for inner nodes. */
  readonly value: Float64Array;
}

/**
 * The binned training rows a tree is grown on: column-major bins (see applyBins; the
 * partition reads one feature's column) and the same bins row-major (rowBins[i * columns
 * + f]; histograms read a row's bins together: rowMajorBins).
 */
export interface BinnedRows {
  readonly rows: number;
  readonly columns: number;
  readonly bins: Uint8Array;
  readonly rowBins: Uint8Array;
  readonly binCount: Int32Array;
}

/** rowMajorBins(bins, rows, columns) transposes column-major bins (bins[f * rows + i]) to row-major (out[i * columns +
 * f]). O(rows * columns). */
export function rowMajorBins(bins: Uint8Array, rows: number, columns: number): Uint8Array {
  const out = new Uint8Array(bins.length);
  for (let f = 0; f < columns; f++) {
    const base = f * rows;
    for (let i = 0; i < rows; i++) out[i * columns + f] = bins[base + i];
  }
  return out;
}

/** Reusable buffers for growing trees on the same binned rows. */
export interface TreeWorkspace {
  readonly order: Int32Array;
  readonly scratch: Int32Array;
  /** Histogram pool: each histogram is columns * 256 * 3 numbers (gradient, hessian, count). */
  readonly histograms: Float64Array[];
}

const MAX_BINS = 256;
const MIN_HESSIAN_TO_SPLIT = 1e-3;

/** createTreeWorkspace(binned) allocates the buffers for growing trees on `binned`. */
export function createTreeWorkspace(binned: BinnedRows): TreeWorkspace {
  return {
    order: new Int32Array(binned.rows),
    scratch: new Int32Array(binned.rows),
    histograms: [],
  };
}

interface Split {
  feature: number;
  bin: number;
  gain: number;
  leftGradient: number;
  leftHessian: number;
  leftCount: number;
}

interface GrowingNode {
  id: number;
  start: number;
  end: number;
  gradient: number;
  hessian: number;
  histogram: Float64Array;
  split: Split | null;
}

function takeHistogram(workspace: TreeWorkspace, size: number): Float64Array {
  return workspace.histograms.pop() ?? new Float64Array(size);
}

/** Zeroes the slots of the bins each feature uses (not all 256). */
function clearHistogram(binned: BinnedRows, histogram: Float64Array): void {
  for (let f = 0; f < binned.columns; f++) {
    const start = f * MAX_BINS * 3;
    histogram.fill(0, start, start + binned.binCount[f] * 3);
  }
}

/** parent -= child over the slots of the bins each feature uses. */
function subtractHistogram(binned: BinnedRows, parent: Float64Array, child: Float64Array): void {
  for (let f = 0; f < binned.columns; f++) {
    const start = f * MAX_BINS * 3;
    const end = start + binned.binCount[f] * 3;
    for (let k = start; k < end; k++) parent[k] -= child[k];
  }
}

/**
 * Sums gradient, hessian and count per (feature, bin) over order[start..end), a row at a
 * time over its row-major bins: each (feature, bin) slot still adds its rows in order
 * (the same sums as a feature-at-a-time pass, bit for bit), but successive additions go
 * to different features' slots, so a feature with few distinct values no longer chains
 * every addition on one slot, and a row's bins are read together. About 2x faster on
 * CCD-shaped data. O((end - start) * columns).
 */
function buildHistogram(
  binned: BinnedRows,
  gradient: Float64Array,
  hessian: Float64Array,
  workspace: TreeWorkspace,
  start: number,
  end: number,
  histogram: Float64Array,
): void {
  clearHistogram(binned, histogram);
  const order = workspace.order;
  const columns = binned.columns;
  const rowBins = binned.rowBins;
  const stride = MAX_BINS * 3;
  for (let i = start; i < end; i++) {
    const row = order[i];
    const g = gradient[row];
    const h = hessian[row];
    const base = row * columns;
    for (let f = 0; f < columns; f++) {
      const slot = f * stride + rowBins[base + f] * 3;
      histogram[slot] += g;
      histogram[slot + 1] += h;
      histogram[slot + 2] += 1;
    }
  }
}

/**
 * The best split of a node from its histogram: for every feature and bin b, left =
 * bins <= b, gain = GL^2 / (HL + l2) + GR^2 / (HR + l2) - G^2 / (H + l2) (the
 * second-order gain of scikit-learn's splitter, without the constant 1/2), subject to
 * minSamplesLeaf rows and a hessian of at least 1e-3 on each side. Null when no split
 * has positive gain. O(columns * bins).
 */
function bestSplit(
  binned: BinnedRows,
  histogram: Float64Array,
  gradient: number,
  hessian: number,
  count: number,
  settings: TreeSettings,
): Split | null {
  const l2 = settings.l2Regularization;
  const parentScore = (gradient * gradient) / (hessian + l2);
  let best: Split | null = null;
  for (let f = 0; f < binned.columns; f++) {
    const base = f * MAX_BINS * 3;
    let leftGradient = 0;
    let leftHessian = 0;
    let leftCount = 0;
    const lastBin = binned.binCount[f] - 1;
    for (let b = 0; b < lastBin; b++) {
      const slot = base + b * 3;
      leftGradient += histogram[slot];
      leftHessian += histogram[slot + 1];
      leftCount += histogram[slot + 2];
      const rightCount = count - leftCount;
      if (leftCount < settings.minSamplesLeaf) continue;
      if (rightCount < settings.minSamplesLeaf) break;
      const rightHessian = hessian - leftHessian;
      if (leftHessian < MIN_HESSIAN_TO_SPLIT || rightHessian < MIN_HESSIAN_TO_SPLIT) continue;
      const rightGradient = gradient - leftGradient;
      const gain =
        (leftGradient * leftGradient) / (leftHessian + l2) +
        (rightGradient * rightGradient) / (rightHessian + l2) -
        parentScore;
      if (gain > 0 && (best === null || gain > best.gain)) {
        best = { feature: f, bin: b, gain, leftGradient, leftHessian, leftCount };
      }
    }
  }
  return best;
}

/**
 * growTree(binned, gradient, hessian, settings, workspace, rowValue) grows one
 * regression tree on the first-order and second-order loss derivatives, leaf-wise:
 * the leaf whose best split gains most is split next, until maxLeafNodes leaves or no
 * split gains. Each child's histogram comes from a pass over the smaller child, the
 * larger one's by subtracting it from the parent's (the histogram subtraction trick).
 * Leaf values are -learningRate * G / (H + l2). Adds each training row's leaf value
 * to rowValue (the raw predictions being boosted). O(rows * columns * depth +
 * leaves * columns * bins).
 */
export function growTree(
  binned: BinnedRows,
  gradient: Float64Array,
  hessian: Float64Array,
  settings: TreeSettings,
  workspace: TreeWorkspace,
  rowValue: Float64Array,
): HistogramTree {
  const histogramSize = binned.columns * MAX_BINS * 3;
  const order = workspace.order;
  for (let i = 0; i < binned.rows; i++) order[i] = i;
  const feature: number[] = [-1];
  const splitBin: number[] = [0];
  const left: number[] = [-1];
  const right: number[] = [-1];
  const value: number[] = [0];
  let totalGradient = 0;
  let totalHessian = 0;
  for (let i = 0; i < binned.rows; i++) {
    totalGradient += gradient[i];
    totalHessian += hessian[i];
  }
  const rootHistogram = takeHistogram(workspace, histogramSize);
  buildHistogram(binned, gradient, hessian, workspace, 0, binned.rows, rootHistogram);
  const root: GrowingNode = {
    id: 0,
    start: 0,
    end: binned.rows,
    gradient: totalGradient,
    hessian: totalHessian,
    histogram: rootHistogram,
    split: bestSplit(binned, rootHistogram, totalGradient, totalHessian, binned.rows, settings),
  };
  const leaves: GrowingNode[] = [root];
  while (leaves.length < settings.maxLeafNodes) {
    let chosen = -1;
    for (let k = 0; k < leaves.length; k++) {
      const split = leaves[k].split;
      if (split !== null && (chosen < 0 || split.gain > leaves[chosen].split!.gain)) chosen = k;
    }
    if (chosen < 0) break;
    const node = leaves[chosen];
    const split = node.split!;
    // Stable partition of order[start..end): rows with bin <= split.bin first.
    const columnBase = split.feature * binned.rows;
    let write = node.start;
    let spill = 0;
    for (let i = node.start; i < node.end; i++) {
      const row = order[i];
      if (binned.bins[columnBase + row] <= split.bin) order[write++] = row;
      else workspace.scratch[spill++] = row;
    }
    order.set(workspace.scratch.subarray(0, spill), write);
    const middle = write;
    const leftId = feature.length;
    const rightId = leftId + 1;
    feature.push(-1, -1);
    splitBin.push(0, 0);
    left.push(-1, -1);
    right.push(-1, -1);
    value.push(0, 0);
    feature[node.id] = split.feature;
    splitBin[node.id] = split.bin;
    left[node.id] = leftId;
    right[node.id] = rightId;
    const leftNode: GrowingNode = {
      id: leftId,
      start: node.start,
      end: middle,
      gradient: split.leftGradient,
      hessian: split.leftHessian,
      histogram: node.histogram,
      split: null,
    };
    const rightNode: GrowingNode = {
      id: rightId,
      start: middle,
      end: node.end,
      gradient: node.gradient - split.leftGradient,
      hessian: node.hessian - split.leftHessian,
      histogram: node.histogram,
      split: null,
    };
    const [small, large] = middle - node.start <= node.end - middle ? [leftNode, rightNode] : [rightNode, leftNode];
    const parentHistogram = node.histogram;
    small.histogram = takeHistogram(workspace, histogramSize);
    buildHistogram(binned, gradient, hessian, workspace, small.start, small.end, small.histogram);
    subtractHistogram(binned, parentHistogram, small.histogram);
    large.histogram = parentHistogram;
    for (const child of [leftNode, rightNode]) {
      child.split = bestSplit(
        binned,
        child.histogram,
        child.gradient,
        child.hessian,
        child.end - child.start,
        settings,
      );
    }
    leaves.splice(chosen, 1, leftNode, rightNode);
  }
  for (const leaf of leaves) {
    const leafValue = (-settings.learningRate * leaf.gradient) / (leaf.hessian + settings.l2Regularization);
    value[leaf.id] = leafValue;
    for (let i = leaf.start; i < leaf.end; i++) rowValue[order[i]] += leafValue;
    workspace.histograms.push(leaf.histogram);
  }
  return {
    feature: Int32Array.from(feature),
    splitBin: Int32Array.from(splitBin),
    left: Int32Array.from(left),
    right: Int32Array.from(right),
    value: Float64Array.from(value),
  };
}

/**
 * addTreePredictions(tree, bins, rows, output) adds the tree's leaf value for each of
 * `rows` binned rows (column-major, as applyBins lays them out) to output.
 * O(rows * depth).
 */
export function addTreePredictions(tree: HistogramTree, bins: Uint8Array, rows: number, output: Float64Array): void {
  for (let i = 0; i < rows; i++) {
    let node = 0;
    while (tree.left[node] >= 0) {
      node = bins[tree.feature[node] * rows + i] <= tree.splitBin[node] ? tree.left[node] : tree.right[node];
    }
    output[i] += tree.value[node];
  }
}
