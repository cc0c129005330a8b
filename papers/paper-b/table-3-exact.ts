import type { AuditPool } from '../../src/audit/pool.js';
import type { SummaryColumn, SummaryTable, SummaryValue } from '../../src/report/summary-table.js';
import { candidatePopulationFromColumns } from '../../src/respir/candidate-population.js';
import { detectionProbability } from '../../src/respir/detection-probability.js';
import { exactMinimalFlipsWithEvaluator } from '../../src/respir/exact-minimal-flips.js';
import { createPassProbabilityEvaluator } from '../../src/respir/exact-pass-probability.js';
import { exactVanillaFlips } from '../../src/respir/exact-vanilla-flips.js';
import type { GroupCounts } from '../../src/respir/group-counts.js';
import { manipulationBounds } from '../../src/respir/manipulation-bounds.js';
import type { DatasetCharacteristics } from './dataset-characteristics.js';
import type { Table3Options } from './table-3.js';

/** A candidate set as the exact table needs it: its Table 2 row, the per-group counts of C and the group sizes of S
 * (group 0, group 1). */
export interface ExactMinimumInput {
  characteristics: DatasetCharacteristics;
  candidate: GroupCounts;
  auditSizes: readonly [number, number];
}

/**
 * One row of the table "detection with the exact minimum": what our model's candidate
 * set costs the strongest provider, beside Table 3's sufficient counts. Plain JSON (it is
 * recorded in results/paper-b/report-layout.json); null where nothing was computed.
 */
export interface ExactMinimumRow {
  dataset: string;
  datasetLabel: string;
  attribute: string;
  /** false for a Table 2 row whose group rates are unknown here (HateDay). */
  computed: boolean;
  /** Why the row stands out: not computed, or ε below sampling noise. Empty otherwise. */
  note: string;
  tolerance: number | null;
  /** Proposition 1 and Theorem 1 (Table 3's counts, sufficient conditions) on the same row. */
  proposition1Flips: number | null;
  theorem1Flips: number | null;
  /** The fewest flips on S after which |d_S| ≤ ε (exactVanillaFlips on our S's group sizes at C's rates: d_S = d_C, as
   * Proposition 1 assumes). */
  exactVanillaFlips: number | null;
  /** The fewest flips on C passing with probability ≥ 1 − δ (exactMinimalFlips, uniform S); the certified upper end
   * when not certified. */
  exactRespirFlips: number | null;
  certified: boolean | null;
  /** The exact pass probability at the minimum, without manipulation, and with C's gap removed at the same pooled rate.
   * */
  passAtMinimum: number | null;
  honestPass: number | null;
  zeroGapPass: number | null;
  /** Net flips (positives after minus before) in the smaller and the larger group. */
  changeSmaller: number | null;
  changeLarger: number | null;
  /** Eq. 3 per k: respir with the exact minimum over N, vanilla with the exact vanilla flips over n. */
  respirDetection: Record<string, number> | null;
  vanillaDetection: Record<string, number> | null;
}

/** countsOfPool(pool) is the per-group size and decision-1 count of a pool (group 0, group 1). O(rows). */
export function countsOfPool(pool: AuditPool): GroupCounts {
  const population = candidatePopulationFromColumns(pool.group, pool.label, pool.decision, 'sp', pool.source);
  return { sizes: population.groupSizes, positives: population.eligiblePositives };
}

/**
 * exactMinimumRow(input, options) computes one row: ε = (1 − hideFraction)·|d_C| from C's
 * counts, the exact minimum of the strongest respir provider (exactMinimalFlips with a
 * uniform S of n, 1 − δ = options.passProbability), the exact vanilla flips on S (our S's
 * group sizes with C's rates, positives rounded: the d_S = d_C of Proposition 1), Eq. 3's
 * detection of each over N and n, and whether ε is below sampling noise: a C without gap
 * at the same pooled rate (positives split in proportion to the groups) passes with
 * probability below 1 − δ, so the minimum thins positives rather than closing the gap.
 * Between a fraction of a second and a few seconds at paper B's sizes.
 */
export function exactMinimumRow(input: ExactMinimumInput, options: Table3Options): ExactMinimumRow {
  const { characteristics, candidate, auditSizes } = input;
  const [size0, size1] = candidate.sizes;
  const [positives0, positives1] = candidate.positives;
  const gap = positives1 / size1 - positives0 / size0;
  const tolerance = (1 - options.hideFraction) * Math.abs(gap);
  const evaluator = createPassProbabilityEvaluator({
    population: { groupSizes: candidate.sizes, eligibleSizes: candidate.sizes, eligiblePositives: candidate.positives },
    auditSetSize: characteristics.auditSetSize,
    design: 'uniform',
    tolerance,
  });
  const exact = exactMinimalFlipsWithEvaluator(evaluator, [positives0, positives1], options.passProbability);
  const fair0 = Math.round(((positives0 + positives1) * size0) / (size0 + size1));
  const zeroGapPass = evaluator.outcomes(fair0, positives0 + positives1 - fair0).pass.value;
  const audit: GroupCounts = {
    sizes: auditSizes,
    positives: [Math.round((positives0 / size0) * auditSizes[0]), Math.round((positives1 / size1) * auditSizes[1])],
  };
  const vanilla = exactVanillaFlips(audit, tolerance);
  const bounds = manipulationBounds({
    candidateSetSize: characteristics.candidateSetSize,
    auditSetSize: characteristics.auditSetSize,
    candidateMinoritySize: characteristics.candidateMinoritySize,
    auditMinoritySize: characteristics.auditMinoritySize,
    gap,
    tolerance,
    passProbability: options.passProbability,
    canaryEffectiveness: options.canaryEffectiveness,
    canaryCounts: options.canaryCounts,
  });
  const respirFlips = exact.reachable ? (exact.flips ?? exact.upperBound) : null;
  const vanillaFlips = vanilla === null ? null : vanilla.flips;
  const detection = (flips: number | null, setSize: number) =>
    flips === null
      ? null
      : Object.fromEntries(
          options.canaryCounts.map((k) => [
            String(k),
            detectionProbability(flips, setSize, options.canaryEffectiveness, k),
          ]),
        );
  const smaller = size1 <= size0 ? 1 : 0;
  const noiseDominated = zeroGapPass < options.passProbability;
  return {
    dataset: characteristics.dataset,
    datasetLabel: characteristics.datasetLabel,
    attribute: characteristics.attribute,
    computed: true,
    note: noiseDominated
      ? `ε below sampling noise: a C without gap passes with ` +
        `probability ${zeroGapPass.toFixed(3)} < ${options.passProbability}; the minimum thins positives`
      : '',
    tolerance,
    proposition1Flips: bounds.vanilla.flips,
    theorem1Flips: bounds.respir.flips,
    exactVanillaFlips: vanillaFlips,
    exactRespirFlips: respirFlips,
    certified: exact.reachable ? exact.exact : null,
    passAtMinimum: exact.reachable ? exact.passProbability.value : null,
    honestPass: exact.honestPassProbability.value,
    zeroGapPass,
    changeSmaller: exact.changes[smaller],
    changeLarger: exact.changes[1 - smaller],
    respirDetection: detection(respirFlips, characteristics.candidateSetSize),
    vanillaDetection: detection(vanillaFlips, characteristics.auditSetSize),
  };
}

/** notComputedRow(characteristics, reason, options) is a row that says why it holds no numbers (HateDay: its group
 * rates are unknown here). */
export function notComputedRow(
  characteristics: DatasetCharacteristics,
  reason: string,
  options: Table3Options,
): ExactMinimumRow {
  return {
    dataset: characteristics.dataset,
    datasetLabel: characteristics.datasetLabel,
    attribute: characteristics.attribute,
    computed: false,
    note: reason,
    tolerance: (1 - options.hideFraction) * Math.abs(characteristics.gap),
    proposition1Flips: null,
    theorem1Flips: null,
    exactVanillaFlips: null,
    exactRespirFlips: null,
    certified: null,
    passAtMinimum: null,
    honestPass: null,
    zeroGapPass: null,
    changeSmaller: null,
    changeLarger: null,
    respirDetection: null,
    vanillaDetection: null,
  };
}

/** Why HateDay's row of the exact table is empty. */
export const HATEDAY_NOT_COMPUTED =
  'not computed: no model of ours (HateDay is gated) and Table 2 prints no group rates, so the counts the exact ' +
  'minimum needs are unknown here';

const EXACT_MINIMUM_TITLE =
  'Table 3 with the exact minimum: detection when the provider flips the fewest outputs that pass (our ' +
  'candidate sets)';

/** The caption of "Table 3 with the exact minimum": the setting, and why its detection is lower. */
function exactMinimumCaption(options: Table3Options): string {
  return (
    `ε = |d_C|/2, 1 − δ = ${options.passProbability}, q = ${options.canaryEffectiveness}, uniform S ` +
    `(paper B §5). Theorems 1-4 give flip counts that suffice; the exact minimum is what the strongest provider ` +
    `needs (any split over both groups, either direction; exact hypergeometric pass probability), so detection ` +
    `drops. Paper B's own numbers are unchanged (Table 3 analytic above).`
  );
}

/**
 * exactMinimumTable(rows, options) lays out "Table 3 with the exact minimum" as a
 * SummaryTable (paper-b-table-3-exact): per row ε, Table 3's sufficient counts, the exact
 * vanilla and respir minima, whether certified, the pass probabilities at the minimum and
 * without manipulation, the net flips per group, Eq. 3's detection for each k, the
 * respir-to-vanilla detection ratio at the middle k, and the note. O(rows × k).
 */
export function exactMinimumTable(rows: readonly ExactMinimumRow[], options: Table3Options): SummaryTable {
  const ratioK = options.canaryCounts.includes(20) ? 20 : options.canaryCounts[0];
  const columns: SummaryColumn[] = [
    { name: 'dataset', label: 'Dataset', type: 'string' },
    { name: 'attribute', label: 'Attribute', type: 'string' },
    { name: 'tolerance', label: 'ε', type: 'number', digits: 4, description: 'ε = |d_C|/2 on our candidate set' },
    {
      name: 'proposition1_flips',
      label: 'Prop. 1 flips',
      type: 'number',
      description: 'Table 3 vanilla count (Proposition 1 on n_min)',
    },
    {
      name: 'theorem1_flips',
      label: 'Thm. 1 flips (sufficient)',
      type: 'number',
      description: 'Table 3 respir count: sufficient, best effort when ε < γ',
    },
    {
      name: 'exact_vanilla_flips',
      label: 'Exact vanilla',
      type: 'number',
      description: "fewest flips on S (our S's group sizes at C's rates) after which |d_S| ≤ ε",
    },
    {
      name: 'exact_respir_flips',
      label: 'Exact respir',
      type: 'number',
      description: 'fewest flips on C passing with probability ≥ 1 − δ (strongest adversary, uniform S)',
    },
    {
      name: 'certified',
      label: 'Certified',
      type: 'string',
      description: 'yes: proven minimum; no: upper end of a certified bracket',
    },
    {
      name: 'pass_at_minimum',
      label: 'π at min',
      type: 'number',
      digits: 4,
      description: 'exact pass probability after the minimal flips',
    },
    {
      name: 'honest_pass',
      label: 'π honest',
      type: 'number',
      digits: 4,
      description: 'exact pass probability without manipulation',
    },
    {
      name: 'change_smaller',
      label: 'Δ smaller',
      type: 'number',
      description: 'net flips in the smaller group (positives after − before)',
    },
    { name: 'change_larger', label: 'Δ larger', type: 'number', description: 'net flips in the larger group' },
  ];
  for (const k of options.canaryCounts) {
    columns.push({
      name: `respir_detection_k${k}`,
      label: `respir P(detect) k=${k}`,
      type: 'number',
      digits: 3,
      description: 'Eq. 3 with the exact minimum over N',
    });
  }
  columns.push(
    {
      name: `vanilla_detection_k${ratioK}`,
      label: `Vanilla P(detect) k=${ratioK}`,
      type: 'number',
      digits: 3,
      description: 'Eq. 3 with the exact vanilla flips over n',
    },
    {
      name: `detection_ratio_k${ratioK}`,
      label: `respir / vanilla k=${ratioK}`,
      type: 'number',
      digits: 2,
      description: 'the detection gain of hiding S, against the exact minima',
    },
    { name: 'note', label: 'Note', type: 'string', wrap: true },
  );
  const records = rows.map((row) => {
    const record: Record<string, SummaryValue> = {
      dataset: row.datasetLabel,
      attribute: row.attribute,
      tolerance: row.tolerance,
      proposition1_flips: row.proposition1Flips,
      theorem1_flips: row.theorem1Flips,
      exact_vanilla_flips: row.exactVanillaFlips,
      exact_respir_flips: row.exactRespirFlips,
      certified: row.certified === null ? null : row.certified ? 'yes' : 'no',
      pass_at_minimum: row.passAtMinimum,
      honest_pass: row.honestPass,
      change_smaller: row.changeSmaller,
      change_larger: row.changeLarger,
    };
    for (const k of options.canaryCounts) record[`respir_detection_k${k}`] = row.respirDetection?.[String(k)] ?? null;
    const respir = row.respirDetection?.[String(ratioK)];
    const vanilla = row.vanillaDetection?.[String(ratioK)];
    record[`vanilla_detection_k${ratioK}`] = vanilla ?? null;
    record[`detection_ratio_k${ratioK}`] =
      respir === undefined || vanilla === undefined || vanilla === 0 ? null : respir / vanilla;
    record.note = row.note;
    return record;
  });
  return {
    id: 'paper-b-table-3-exact',
    title: EXACT_MINIMUM_TITLE,
    caption: exactMinimumCaption(options),
    columns,
    rows: records,
  };
}
