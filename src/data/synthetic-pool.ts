import type { AuditPool } from '../audit/pool.js';
import { inputError } from '../util/errors.js';
import { createRandom, shuffleInPlace, standardNormal } from '../util/random.js';
import { schema } from '../util/schema.js';
import { MAX_POOL_ROWS } from '../util/size-limits.js';

/**
 * The recipe of a synthetic audit pool. Rates are given per group as [group a, group b].
 * - size: number of rows; groupShare: the fraction of rows in group b
 * - labelRate: P(label = 1) in each group
 * - decisionRate: P(decision = 1) in each group (sets the SP gap)
 * - truePositiveRate: P(decision = 1 | label = 1) in each group (sets the EO gap);
 *   when absent, decisions are independent of labels within a group
 * - logitScale: the typical size of |logit| (scores are the sigmoid of the logits)
 * - seed: the generator's seed, so the same recipe always gives the same pool
 */
/**
 * The most rows a synthetic pool may have (50 million: ~650 MB of columns with scores
 * and logits). A larger size is refused with a message, not a RangeError from the
 * typed arrays (`audit --synthetic` with size 1e12 once ended in an internal error).
 */
export const MAX_SYNTHETIC_POOL_SIZE = MAX_POOL_ROWS;

export interface SyntheticPoolSpec {
  size: number;
  groupShare: number;
  labelRate: number[];
  decisionRate: number[];
  truePositiveRate?: number[];
  logitScale: number;
  seed: string;
}

interface GroupCounts {
  rows: number;
  positives: number;
  decidedPositiveAmongPositives: number;
  decidedPositiveAmongNegatives: number;
}

function groupCounts(spec: SyntheticPoolSpec, group: 0 | 1): GroupCounts {
  const rowsB = Math.round(spec.size * spec.groupShare);
  const rows = group === 1 ? rowsB : spec.size - rowsB;
  const positives = Math.round(rows * spec.labelRate[group]);
  const decidedPositive = Math.round(rows * spec.decisionRate[group]);
  const amongPositives =
    spec.truePositiveRate === undefined
      ? Math.round(positives * spec.decisionRate[group])
      : Math.round(positives * spec.truePositiveRate[group]);
  return {
    rows,
    positives,
    decidedPositiveAmongPositives: amongPositives,
    decidedPositiveAmongNegatives: decidedPositive - amongPositives,
  };
}

/**
 * syntheticPoolProblem(spec) says why a recipe cannot be realised (undefined when it
 * can): from 2 to MAX_SYNTHETIC_POOL_SIZE rows, each group at least one, and the decision rate, label rate and true
 * positive rate of a group must fit together (the positive decisions left for the
 * label-0 rows must be between 0 and their number). O(1).
 */
export function syntheticPoolProblem(
  spec: SyntheticPoolSpec,
): { key: string; expected: string; found: unknown } | undefined {
  if (!(Number.isSafeInteger(spec.size) && spec.size >= 2 && spec.size <= MAX_SYNTHETIC_POOL_SIZE)) {
    return { key: 'size', expected: `an integer from 2 to ${MAX_SYNTHETIC_POOL_SIZE}`, found: spec.size };
  }
  for (const group of [0, 1] as const) {
    const counts = groupCounts(spec, group);
    const name = group === 0 ? 'a' : 'b';
    if (counts.rows === 0) {
      return {
        key: 'groupShare',
        expected: `a share that leaves group ${name} at least one of the ${spec.size} rows`,
        found: spec.groupShare,
      };
    }
    const negatives = counts.rows - counts.positives;
    if (counts.decidedPositiveAmongNegatives < 0 || counts.decidedPositiveAmongNegatives > negatives) {
      return {
        key: 'decisionRate',
        expected:
          `a decision rate for group ${name} that fits its label rate ${spec.labelRate[group]} and true ` +
          `positive rate ${spec.truePositiveRate?.[group]} (the label-0 rows would ` +
          `need ${counts.decidedPositiveAmongNegatives} positive decisions out of ${negatives})`,
        found: spec.decisionRate,
      };
    }
  }
  return undefined;
}

/**
 * generateSyntheticPool(spec, source) builds a pool whose per-group row counts, label
 * counts and decision counts match the recipe exactly (up to rounding to whole rows),
 * so its oracle SP and EO gaps are known in advance. Logits are drawn from a seeded
 * generator with sign fixed by the decision (|logit| = scale·(0.05 + |N(0,1)|),
 * larger by half when the decision agrees with the label), and score = sigmoid(logit),
 * so decision = 1 exactly when score > 0.5 and logit > 0. Rows come in a seeded random
 * order. Throws InputError when the recipe cannot be realised. O(size).
 */
export function generateSyntheticPool(spec: SyntheticPoolSpec, source = 'synthetic'): AuditPool {
  const problem = syntheticPoolProblem(spec);
  if (problem)
    throw inputError({ where: `${source}: ${problem.key}`, expected: problem.expected, found: problem.found });
  const random = createRandom(`synthetic-pool:${spec.seed}`);
  const size = spec.size;
  const group = new Uint8Array(size);
  const label = new Uint8Array(size);
  const decision = new Uint8Array(size);
  let row = 0;
  for (const g of [0, 1] as const) {
    const counts = groupCounts(spec, g);
    for (let i = 0; i < counts.rows; i++, row++) {
      group[row] = g;
      const positive = i < counts.positives;
      label[row] = positive ? 1 : 0;
      decision[row] = positive
        ? i < counts.decidedPositiveAmongPositives
          ? 1
          : 0
        : i - counts.positives < counts.decidedPositiveAmongNegatives
          ? 1
          : 0;
    }
  }
  const order = new Int32Array(size);
  for (let i = 0; i < size; i++) order[i] = i;
  shuffleInPlace(random, order);
  const pool = {
    size,
    group: new Uint8Array(size),
    label: new Uint8Array(size),
    decision: new Uint8Array(size),
    score: new Float64Array(size),
    logit: new Float64Array(size),
    id: new Int32Array(size),
    source,
  };
  for (let i = 0; i < size; i++) {
    const from = order[i];
    pool.group[i] = group[from];
    pool.label[i] = label[from];
    pool.decision[i] = decision[from];
    pool.id[i] = i;
    const agrees = label[from] === decision[from];
    const magnitude = spec.logitScale * (0.05 + Math.abs(standardNormal(random))) * (agrees ? 1.5 : 1);
    const logit = decision[from] === 1 ? magnitude : -magnitude;
    pool.logit[i] = logit;
    pool.score[i] = 1 / (1 + Math.exp(-logit));
  }
  return pool;
}

const perGroupRates = (description: string, defaultValue?: number[]) =>
  schema.array(schema.number({ minimum: 0, maximum: 1, description: 'a rate' }), {
    minItems: 2,
    maxItems: 2,
    description,
    ...(defaultValue ? { default: defaultValue } : {}),
  });

/**
 * The schema of a synthetic pool's recipe (SyntheticPoolSpec): the single source of its
 * validation and defaults for configs (a sequential-audit cell's pool.synthetic) and
 * for `fairaudit audit --synthetic`.
 */
export const syntheticPoolSchema = schema.object(
  {
    size: schema.integer({
      minimum: 2,
      maximum: 50_000_000,
      default: 20_000,
      description: 'Number of rows in the pool.',
    }),
    groupShare: schema.number({
      minimum: 0,
      maximum: 1,
      exclusiveMinimum: true,
      exclusiveMaximum: true,
      default: 0.5,
      description: 'Fraction of the rows in group b (group = 1).',
    }),
    labelRate: perGroupRates('P(label = 1) in group a and in group b.', [0.4, 0.4]),
    decisionRate: perGroupRates('P(decision = 1) in group a and in group b; their difference is the oracle SP gap.'),
    truePositiveRate: schema.optional(
      perGroupRates(
        'P(decision = 1 | label = 1) in group a and in group b; their difference is the oracle EO gap. When ' +
          'absent, decisions are independent of labels within a group.',
      ),
    ),
    logitScale: schema.number({
      minimum: 0,
      exclusiveMinimum: true,
      default: 2,
      description: 'Typical size of |logit|; scores are sigmoid(logit), on the side of 0.5 the decision says.',
    }),
    seed: schema.seed({
      default: '1',
      description: 'Seed of the pool generator: the same recipe always gives the same pool.',
    }),
  },
  {
    description: 'A pool generated from a recipe (no download needed); counts match the rates exactly up to rounding.',
    check: (value) => syntheticPoolProblem(value as unknown as SyntheticPoolSpec),
  },
);
