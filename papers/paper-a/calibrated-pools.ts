import type { AuditPool } from '../../src/audit/pool.js';
import { inputError } from '../../src/util/errors.js';
import { createRandom, deriveSeed, type Random, shuffleInPlace, standardNormal } from '../../src/util/random.js';

/**
 * Calibrated synthetic audit pools: paper A's embedded default when no dataset is
 * available. Each pool has the published test-pool size, the dataset's sex x label
 * composition, and per-group decision counts chosen so that its hard-decision SP and
 * EO gaps equal the model's published Table 1 values up to one row. Scores and logits
 * come from a seeded generative model consistent with the decisions.
 *
 * THIS IS CALIBRATED SYNTHETIC DATA, NOT A REPRODUCTION: the pools are built FROM the
 * published gaps, so their oracle gaps agree with Table 1 by construction. What they
 * can show is how the audit behaves on pools like the paper's.
 */

/** Paper A's two datasets (§4.1). */
export const PAPER_A_DATASETS = ['acs', 'adult'] as const;
export type PaperADataset = (typeof PAPER_A_DATASETS)[number];

/** Paper A's four audited models (§4.2), in Table 1's row order. */
export const PAPER_A_MODELS = ['robust-dp', 'unstable-dp', 'robust-base', 'unstable-base'] as const;
export type PaperAModel = (typeof PAPER_A_MODELS)[number];

/** The label that every output of this mode carries. */
export const CALIBRATED_SYNTHETIC_NOTICE =
  'CALIBRATED SYNTHETIC DATA, NOT A REPRODUCTION: pools generated from paper A Table 1 ' +
  '(pool sizes, group shares, base rates and per-group decision rates chosen to give the published SP and EO gaps).';

/**
 * The composition of a dataset's held-out test pool. Counts of the full dataset by
 * sex and label are facts of the data; the pool is 30% of it (paper A §4.1, 70/30
 * split), apportioned with the full data's proportions.
 */
export interface DatasetComposition {
  readonly dataset: PaperADataset;
  readonly displayName: string;
  /** Rows in the held-out test pool (the SP audit pool). */
  readonly poolSize: number;
  /** Rows with label 1 in the test pool (the EO audit pool). */
  readonly positives: number;
  /** Full-dataset counts [label 1, label 0] for group a (male) and group b (female). */
  readonly fullCounts: { readonly a: readonly [number, number]; readonly b: readonly [number, number] };
  /** Where the numbers come from, in words. */
  readonly source: string;
}

/**
 * Adult: adult.data + adult.test (UCI), rows with any "?" dropped, gives 45,222 rows
 * (paper A §4.1 and the data issue). Counted with Python's csv module on the mirrored
 * files in shared/datasets/adult: male 30,527 (>50K: 9,539), female 14,695 (>50K:
 * 1,669); overall positive rate 11,208 / 45,222 = 0.24784. Pool: ceil(0.3 * 45,222) =
 * 13,567 rows, of which 3,362 have label 1 (paper A Table 4 caption).
 */
const ADULT: DatasetComposition = {
  dataset: 'adult',
  displayName: 'Adult',
  poolSize: 13_567,
  positives: 3_362,
  fullCounts: { a: [9_539, 20_988], b: [1_669, 13_026] },
  source:
    'shared/datasets/adult (adult.data + adult.test, rows with "?" dropped: 45,222); 30% test pool = 13,567 ' +
    'rows; EO pool 3,362 (paper A Table 4 caption)',
};

/**
 * ACS Income, California 2018: 195,665 rows. Counted from the mirrored
 * acsincome_ca_labels.csv and acsincome_ca_group_Sex.csv (shared/datasets/
 * acs_income_ca_2018): SEX=1 (male) 103,311 (label True 48,097), SEX=2 (female)
 * 92,354 (label True 32,238); positive rate 80,335 / 195,665 = 0.41057. Pool:
 * ceil(0.3 * 195,665) = 58,700 rows; label 1 = round(58,700 * 0.41057) = 24,101.
 */
const ACS: DatasetComposition = {
  dataset: 'acs',
  displayName: 'ACS',
  poolSize: 58_700,
  positives: 24_101,
  fullCounts: { a: [48_097, 55_214], b: [32_238, 60_116] },
  source:
    'shared/datasets/acs_income_ca_2018 (labels + SEX of all 195,665 rows); 30% test pool = 58,700 rows; label-1 ' +
    'share 0.41057',
};

export const DATASET_COMPOSITIONS: Readonly<Record<PaperADataset, DatasetComposition>> = {
  acs: ACS,
  adult: ADULT,
};

/**
 * What a calibrated model must show: the published gaps (paper A Table 1), the
 * direction of each gap (not published; +1 = group a, male, has the higher rate),
 * and an operating point (pooled true- and false-positive rates, not published).
 */
export interface CalibrationTarget {
  readonly dataset: PaperADataset;
  readonly model: PaperAModel;
  readonly displayModel: string;
  /** Published hard-decision SP gap, paper A Table 1. */
  readonly statisticalParityGap: number;
  /** Published hard-decision EO gap, paper A Table 1. */
  readonly equalOpportunityGap: number;
  /** +1 when group a (male) has the higher positive rate, -1 otherwise (assumed). */
  readonly statisticalParitySign: 1 | -1;
  /** +1 when group a (male) has the higher true-positive rate, -1 otherwise (assumed). */
  readonly equalOpportunitySign: 1 | -1;
  /** Pooled true-positive rate over the label-1 rows (assumed operating point). */
  readonly truePositiveRate: number;
  /** Pooled false-positive rate over the label-0 rows (assumed operating point). */
  readonly falsePositiveRate: number;
  /** Spread of the logits around each (group, label) mean (assumed). */
  readonly logitSpread: number;
}

const DISPLAY_MODEL: Record<PaperAModel, string> = {
  'robust-dp': 'Robust-DP',
  'unstable-dp': 'Unstable-DP',
  'robust-base': 'Robust-Base',
  'unstable-base': 'Unstable-Base',
};

/** Paper A Table 1: [SP gap, EO gap] per dataset and model. */
const TABLE_1: Record<PaperADataset, Record<PaperAModel, readonly [number, number]>> = {
  acs: {
    'robust-dp': [0.0287, 0.0613],
    'unstable-dp': [0.0817, 0.0011],
    'robust-base': [0.0923, 0.0202],
    'unstable-base': [0.0894, 0.0085],
  },
  adult: {
    'robust-dp': [0.0043, 0.3233],
    'unstable-dp': [0.1424, 0.0211],
    'robust-base': [0.1716, 0.0753],
    'unstable-base': [0.1706, 0.0819],
  },
};

/**
 * Assumed operating points. Not published: typical of an MLP on these tasks (Adult:
 * accuracy about 0.85 with about 60% recall; ACS CA: accuracy about 0.80 with about
 * 72% recall). The demographic-parity models push group b's (female) true-positive
 * rate above group a's to close the SP gap, which the base-rate difference between
 * the sexes makes necessary (Adult Robust-DP: SP 0.0043 with EO 0.3233).
 */
const OPERATING_POINT: Record<PaperADataset, { truePositiveRate: number; falsePositiveRate: number }> = {
  acs: { truePositiveRate: 0.72, falsePositiveRate: 0.17 },
  adult: { truePositiveRate: 0.6, falsePositiveRate: 0.07 },
};

const EQUAL_OPPORTUNITY_SIGN: Record<PaperAModel, 1 | -1> = {
  'robust-dp': -1,
  'unstable-dp': -1,
  'robust-base': 1,
  'unstable-base': 1,
};

/** Logit spread: an assumption (the paper gives no logit distribution). */
const LOGIT_SPREAD = 2;

/** calibrationTarget(dataset, model) returns the published gaps and the assumed rest. */
export function calibrationTarget(dataset: PaperADataset, model: PaperAModel): CalibrationTarget {
  const gaps = TABLE_1[dataset]?.[model];
  if (!gaps) {
    throw inputError({
      where: 'calibratedPool',
      expected: `a dataset in ${PAPER_A_DATASETS.join(', ')} and a model in ${PAPER_A_MODELS.join(', ')}`,
      found: `${dataset}/${model}`,
    });
  }
  return {
    dataset,
    model,
    displayModel: DISPLAY_MODEL[model],
    statisticalParityGap: gaps[0],
    equalOpportunityGap: gaps[1],
    statisticalParitySign: 1,
    equalOpportunitySign: EQUAL_OPPORTUNITY_SIGN[model],
    ...OPERATING_POINT[dataset],
    logitSpread: LOGIT_SPREAD,
  };
}

/** Integer counts of one calibrated pool: rows and positive decisions per group and label. */
export interface CalibratedCounts {
  /** Rows per group with label 1 / label 0. */
  readonly positives: readonly [number, number];
  readonly negatives: readonly [number, number];
  /** Positive decisions per group among label-1 rows (true positives) and label-0 rows. */
  readonly truePositives: readonly [number, number];
  readonly falsePositives: readonly [number, number];
  /** The gaps these counts give (what the audit's oracle will compute). */
  readonly statisticalParityGap: number;
  readonly equalOpportunityGap: number;
}

/** Largest-remainder apportionment of `total` in proportion to `weights`. */
function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (total * w) / sum);
  const counts = exact.map(Math.floor);
  const order = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((p, q) => q[0] - p[0] || p[1] - q[1]);
  let left = total - counts.reduce((a, b) => a + b, 0);
  for (const [, i] of order) {
    if (left-- <= 0) break;
    counts[i] += 1;
  }
  return counts;
}

/**
 * Chooses integer positive counts (xa of na, xb of nb) near rate targets whose rate
 * difference (xa/na - xb/nb) is as close as possible to `difference`: searches xa in a
 * window around its target and takes the best xb for each. O(window).
 */
function closestPair(
  na: number,
  nb: number,
  targetA: number,
  difference: number,
  offsetA: number,
  offsetB: number,
  denominatorA: number,
  denominatorB: number,
): [number, number] {
  // rate_a = (offsetA + xa) / denominatorA, rate_b = (offsetB + xb) / denominatorB
  const centre = Math.round(targetA * na);
  let best: [number, number] = [centre, 0];
  let bestError = Number.POSITIVE_INFINITY;
  for (let xa = Math.max(0, centre - 60); xa <= Math.min(na, centre + 60); xa++) {
    const rateA = (offsetA + xa) / denominatorA;
    const xb = Math.round((rateA - difference) * denominatorB - offsetB);
    if (xb < 0 || xb > nb) continue;
    const error = Math.abs(rateA - (offsetB + xb) / denominatorB - difference);
    if (
      error < bestError - 1e-15 ||
      (Math.abs(error - bestError) <= 1e-15 && Math.abs(xa - centre) < Math.abs(best[0] - centre))
    ) {
      best = [xa, xb];
      bestError = error;
    }
  }
  if (!Number.isFinite(bestError)) {
    throw new Error(`calibratedCounts: no integer counts give a rate difference of ${difference}`);
  }
  return best;
}

/**
 * calibratedCounts(composition, target) derives the integer counts of a calibrated
 * pool: rows per group and label by largest-remainder apportionment of the full
 * data's composition, then true positives per group so the EO gap is the published
 * one (closest integer pair), then false positives so the SP gap is the published
 * one. Group true- and false-positive rates spread around the pooled operating point
 * weighted by group size, so the pooled rates stay at the operating point. O(1).
 * Throws when the target is infeasible (a rate outside [0, 1]).
 */
export function calibratedCounts(composition: DatasetComposition, target: CalibrationTarget): CalibratedCounts {
  const [positivesA, positivesB] = apportion(composition.positives, [
    composition.fullCounts.a[0],
    composition.fullCounts.b[0],
  ]);
  const [negativesA, negativesB] = apportion(composition.poolSize - composition.positives, [
    composition.fullCounts.a[1],
    composition.fullCounts.b[1],
  ]);
  const sizeA = positivesA + negativesA;
  const sizeB = positivesB + negativesB;
  const eoDifference = target.equalOpportunitySign * target.equalOpportunityGap;
  const spDifference = target.statisticalParitySign * target.statisticalParityGap;
  const positivesTotal = positivesA + positivesB;
  // Group TPRs with the positive-weighted mean equal to the pooled TPR.
  const tprA = target.truePositiveRate + (eoDifference * positivesB) / positivesTotal;
  const [truePositivesA, truePositivesB] = closestPair(
    positivesA,
    positivesB,
    tprA,
    eoDifference,
    0,
    0,
    positivesA,
    positivesB,
  );
  // FPR split: fprA = f + shift * negativesB / negatives, fprB = f - shift * negativesA / negatives,
  // with the shift that makes the SP difference exact (linear in the shift).
  const negativesTotal = negativesA + negativesB;
  const f = target.falsePositiveRate;
  const truePart = truePositivesA / sizeA - truePositivesB / sizeB;
  const base = f * (negativesA / sizeA - negativesB / sizeB);
  const slope = (negativesA * negativesB) / negativesTotal / sizeA + (negativesB * negativesA) / negativesTotal / sizeB;
  const shift = (spDifference - truePart - base) / slope;
  const fprA = f + (shift * negativesB) / negativesTotal;
  const [falsePositivesA, falsePositivesB] = closestPair(
    negativesA,
    negativesB,
    fprA,
    spDifference,
    truePositivesA,
    truePositivesB,
    sizeA,
    sizeB,
  );
  const rates = [
    truePositivesA / positivesA,
    truePositivesB / positivesB,
    falsePositivesA / negativesA,
    falsePositivesB / negativesB,
  ];
  if (rates.some((rate) => !(rate >= 0 && rate <= 1))) {
    throw new Error(
      `calibratedCounts: ${target.dataset}/${target.model} needs a rate outside [0, 1]: ${rates.join(', ')}`,
    );
  }
  return {
    positives: [positivesA, positivesB],
    negatives: [negativesA, negativesB],
    truePositives: [truePositivesA, truePositivesB],
    falsePositives: [falsePositivesA, falsePositivesB],
    statisticalParityGap: Math.abs(
      (truePositivesA + falsePositivesA) / sizeA - (truePositivesB + falsePositivesB) / sizeB,
    ),
    equalOpportunityGap: Math.abs(truePositivesA / positivesA - truePositivesB / positivesB),
  };
}

/**
 * Inverse of the standard normal CDF (Acklam's rational approximation, relative error
 * below 1.2e-9), for p in (0, 1). Used only to place each cell's logit mean.
 */
function normalQuantile(p: number): number {
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239,
  ];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (
      (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
      ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
    );
  }
  if (p > 1 - low) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) /
    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
  );
}

/**
 * A logit from N(mean, spread^2) conditioned on its side of the decision threshold
 * (logit >= 0 for a positive decision), by rejection. The expected number of draws
 * over a cell is about twice its size whatever the decision rate.
 */
function logitOnSide(random: Random, mean: number, spread: number, positive: boolean): number {
  for (;;) {
    const z = mean + spread * standardNormal(random);
    if (positive ? z >= 0 : z < -1e-9) return z;
  }
}

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/** The default seed of every calibrated pool (the embedded default never changes). */
export function calibratedPoolSeed(dataset: PaperADataset, model: PaperAModel): string {
  return deriveSeed('paper-a-calibrated-pool', dataset, model);
}

/**
 * calibratedPool(dataset, model, random?) builds the calibrated synthetic audit pool
 * of one paper A model. Within each (group, label) cell, decisions follow the
 * calibrated counts; each row's logit is drawn from N(mu, spread^2) truncated to its
 * decision's side of 0, with mu = spread * PhiInverse(cell decision rate), so the
 * cell's logits are exactly a N(mu, spread^2) sample thresholded at 0; the score is
 * sigmoid(logit), so decision = (score >= 0.5). Rows are shuffled. O(pool size).
 * `source` starts with "synthetic:calibrated/". Throws InputError for an unknown
 * dataset or model.
 */
export function calibratedPool(dataset: PaperADataset, model: PaperAModel, random?: Random): AuditPool {
  const target = calibrationTarget(dataset, model);
  const composition = DATASET_COMPOSITIONS[dataset];
  const counts = calibratedCounts(composition, target);
  const generator = random ?? createRandom(calibratedPoolSeed(dataset, model));
  const size = composition.poolSize;
  const group = new Uint8Array(size);
  const label = new Uint8Array(size);
  const decision = new Uint8Array(size);
  const score = new Float64Array(size);
  const logit = new Float64Array(size);
  const order = new Int32Array(size);
  for (let i = 0; i < size; i++) order[i] = i;
  shuffleInPlace(generator, order);
  let next = 0;
  const cells: Array<[number, number, number, number]> = [
    [0, 1, counts.positives[0], counts.truePositives[0]],
    [1, 1, counts.positives[1], counts.truePositives[1]],
    [0, 0, counts.negatives[0], counts.falsePositives[0]],
    [1, 0, counts.negatives[1], counts.falsePositives[1]],
  ];
  for (const [g, y, rows, positiveDecisions] of cells) {
    const rate = Math.min(Math.max(positiveDecisions / rows, 0.5 / rows), 1 - 0.5 / rows);
    const mean = target.logitSpread * normalQuantile(rate);
    for (let k = 0; k < rows; k++) {
      const row = order[next++];
      const positive = k < positiveDecisions;
      group[row] = g;
      label[row] = y;
      decision[row] = positive ? 1 : 0;
      const z = logitOnSide(generator, mean, target.logitSpread, positive);
      logit[row] = z;
      score[row] = sigmoid(z);
    }
  }
  const id = new Int32Array(size);
  for (let i = 0; i < size; i++) id[i] = i;
  return { size, group, label, decision, score, logit, id, source: `synthetic:calibrated/${dataset}/${model}` };
}
