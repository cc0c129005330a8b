/**
 * Per-feature bin thresholds learned from training rows: a value x of feature f
 * falls in bin b = the number of thresholds[f] strictly below x, so bin b holds
 * thresholds[f][b - 1] < x <= thresholds[f][b]. At most maxBins bins per feature.
 */
export interface BinThresholds {
  readonly thresholds: readonly Float64Array[];
  /** Number of bins of each feature (thresholds + 1). */
  readonly binCount: Int32Array;
}

/**
 * fitBinThresholds(features, columns, rows, maxBins) chooses each feature's bin edges
 * from the listed rows, as scikit-learn's _BinMapper does: when a feature has at most
 * maxBins distinct values the edges are the midpoints between consecutive distinct
 * values; otherwise they are the midpoint-interpolated percentiles at 100 k / maxBins
 * (k = 1 .. maxBins - 1), with duplicates removed. maxBins must be in [2, 256].
 * O(columns * rows log rows).
 */
export function fitBinThresholds(
  features: Float64Array,
  columns: number,
  rows: Int32Array,
  maxBins: number,
): BinThresholds {
  const thresholds: Float64Array[] = [];
  const binCount = new Int32Array(columns);
  const values = new Float64Array(rows.length);
  for (let f = 0; f < columns; f++) {
    for (let i = 0; i < rows.length; i++) values[i] = features[rows[i] * columns + f];
    values.sort();
    const distinct: number[] = [];
    for (let i = 0; i < values.length; i++) if (i === 0 || values[i] !== values[i - 1]) distinct.push(values[i]);
    let edges: number[];
    if (distinct.length <= maxBins) {
      edges = [];
      for (let k = 1; k < distinct.length; k++) edges.push((distinct[k - 1] + distinct[k]) / 2);
    } else {
      edges = [];
      const n = values.length;
      for (let k = 1; k < maxBins; k++) {
        // numpy.percentile(values, q, method="midpoint"): average of the two order
        // statistics around position q / 100 * (n - 1).
        const position = (k / maxBins) * (n - 1);
        const edge = (values[Math.floor(position)] + values[Math.ceil(position)]) / 2;
        if (edges.length === 0 || edge > edges[edges.length - 1]) edges.push(edge);
      }
    }
    thresholds.push(Float64Array.from(edges));
    binCount[f] = edges.length + 1;
  }
  return { thresholds, binCount };
}

/**
 * applyBins(features, columns, rows, binning) maps the listed rows to their bins,
 * column-major (bins[f * rows.length + i] is row rows[i]'s bin of feature f), the
 * layout histogram building reads fastest. NaN goes to the last bin.
 * O(columns * rows * log maxBins).
 */
export function applyBins(
  features: Float64Array,
  columns: number,
  rows: Int32Array,
  binning: BinThresholds,
): Uint8Array {
  const n = rows.length;
  const bins = new Uint8Array(columns * n);
  for (let f = 0; f < columns; f++) {
    const edges = binning.thresholds[f];
    for (let i = 0; i < n; i++) {
      const x = features[rows[i] * columns + f];
      let low = 0;
      let high = edges.length;
      if (Number.isNaN(x)) low = edges.length;
      else {
        while (low < high) {
          const middle = (low + high) >> 1;
          if (edges[middle] < x) low = middle + 1;
          else high = middle;
        }
      }
      bins[f * n + i] = low;
    }
  }
  return bins;
}
