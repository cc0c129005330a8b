import { createMultiGroupTest } from '../../src/audit/create-multi-group-test.js';
import { groupMetricOracle, groupRateOracle } from '../../src/audit/group-oracle.js';
import { applyGroupSizeRule } from '../../src/audit/group-size-rule.js';
import { GROUP_METRICS, type GroupRate } from '../../src/audit/metric.js';
import { multiGroupRows, runMultiGroupAudit } from '../../src/audit/multi-group-audit.js';
import type { AuditPool } from '../../src/audit/pool.js';
import { multiGroupCountsFromColumns } from '../../src/respir/multi-group/multi-group-counts.js';
import { multiGroupManipulationBounds } from '../../src/respir/multi-group/multi-group-manipulation-bounds.js';
import { createRandom, deriveSeed } from '../../src/util/random.js';
import type { IntersectionPool } from './intersection-pools.js';
import type { ImpactRatioRow, OracleRow } from './multi-group-tables.js';

/** The settings of the reproduction's audits (paper A's δ, α, β, budget; paper B's 1 − δ and hidden fraction). */
export const MULTI_GROUP_SETTINGS = {
  tolerance: 0.05,
  alpha: 0.05,
  beta: 0.2,
  budget: 4000,
  replicates: 20,
  seed: 'multi-group-2026',
  /** Local Law 144: a category under 2% of the rows may be excluded. */
  minGroupShare: 0.02,
  passProbability: 0.8,
  hideFraction: 0.5,
  fourFifths: 0.8,
} as const;

const RATES: readonly GroupRate[] = ['sp', 'eo', 'pe'];

/** The oracle of every metric on every pool, over all its groups. O(pools × rows). */
export function oracleRows(pools: readonly IntersectionPool[]): OracleRow[] {
  return pools.flatMap((entry) =>
    GROUP_METRICS.map((metric) => {
      const oracle = groupMetricOracle(entry.pool, metric);
      return {
        pool: entry.label,
        metric,
        groups: entry.pool.groupNames?.length ?? 2,
        difference: oracle.difference,
        ratio: oracle.ratio,
        rates: oracle.rates,
      };
    }),
  );
}

/** The pool after the Local Law 144 rule (categories under 2% of the rows excluded). */
export function ruledPool(pool: AuditPool): AuditPool {
  return applyGroupSizeRule(pool, { minGroupShare: MULTI_GROUP_SETTINGS.minGroupShare });
}

/** The impact-ratio table's rows: selection rates after the 2% rule. */
export function impactRatioRows(pools: readonly IntersectionPool[]): ImpactRatioRow[] {
  return pools.map((entry) => {
    const ruled = ruledPool(entry.pool);
    return {
      pool: entry.label,
      oracle: groupRateOracle(ruled, 'sp'),
      rule: ruled.groupSizeRule?.rule ?? '',
      excluded: ruled.groupSizeRule?.excluded ?? [],
    };
  });
}

/** One pool × rate's sequential audits: counts of decisions and queries. */
export interface SequentialRow {
  readonly pool: string;
  readonly rate: GroupRate;
  readonly groups: number;
  readonly oracleDifference: number;
  readonly reject: number;
  readonly accept: number;
  readonly inconclusive: number;
  readonly meanQueries: number;
  readonly guarantee: string;
}

/**
 * sequentialRows(pools) runs the anytime-valid K-group betting test (createMultiGroupTest)
 * `replicates` times on each pool (after the 2% rule) for each rate, replicate r's
 * random order from deriveSeed(seed, pool, rate, r). O(pools × rates × replicates × budget × K).
 */
export function sequentialRows(pools: readonly IntersectionPool[]): SequentialRow[] {
  const s = MULTI_GROUP_SETTINGS;
  const out: SequentialRow[] = [];
  for (const entry of pools) {
    const pool = ruledPool(entry.pool);
    for (const rate of RATES) {
      const rows = multiGroupRows(pool, rate, pool.decision);
      const { test, guarantee } = createMultiGroupTest({
        groupSizes: rows.groupSizes,
        test: 'betting',
        access: 'decision',
        aggregation: 'difference',
        tolerance: s.tolerance,
        alpha: s.alpha,
        beta: s.beta,
      });
      const counts = { reject: 0, accept: 0, inconclusive: 0 };
      let queries = 0;
      for (let r = 0; r < s.replicates; r++) {
        const random = createRandom(deriveSeed(s.seed, entry.id, rate, r));
        const result = runMultiGroupAudit(rows, test, s.budget, random);
        counts[result.decision]++;
        queries += result.queries;
      }
      out.push({
        pool: entry.label,
        rate,
        groups: rows.groupSizes.length,
        oracleDifference: groupRateOracle(pool, rate).difference,
        ...counts,
        meanQueries: queries / s.replicates,
        guarantee,
      });
    }
  }
  return out;
}

/** One pool × rate × form's paper B counts for K groups. */
export interface BoundRow {
  readonly pool: string;
  readonly rate: GroupRate;
  readonly form: string;
  readonly candidateGap: number;
  readonly candidateRatio: number;
  readonly tolerance: number;
  readonly vanilla: number;
  readonly exactVanilla: number;
  readonly theorem1: number;
  readonly theorem4: number;
  readonly exactTheorem4: number | null;
}

/**
 * boundRows(pools) computes paper B's flip counts for K groups (multiGroupManipulationBounds:
 * Proposition 1 and its exact minimum, Theorems 1 and 4 and the exact fewest flips reaching
 * Theorem 4's target) on each pool after the 2% rule as the candidate set C, with S of
 * half of each group's metric rows (paper B's audit fraction 0.5, stratified), ε = (1 −
 * hidden fraction)·max-gap of C, for the max-gap and for the impact ratio at 0.8. O(K·Σ N_g).
 */
export function boundRows(pools: readonly IntersectionPool[]): BoundRow[] {
  const s = MULTI_GROUP_SETTINGS;
  const out: BoundRow[] = [];
  for (const entry of pools) {
    const pool = ruledPool(entry.pool);
    const groups = pool.groupNames?.length ?? 2;
    for (const rate of RATES) {
      const candidateCounts = multiGroupCountsFromColumns(pool.group, pool.label, pool.decision, rate, groups);
      const auditGroupSizes = candidateCounts.sizes.map((size) => Math.max(1, Math.round(size / 2)));
      const base = { candidateCounts, auditGroupSizes, passProbability: s.passProbability };
      const forms = [
        { name: 'max − min', form: { kind: 'difference' as const } },
        { name: `min / max ≥ ${s.fourFifths}`, form: { kind: 'ratio' as const, ratio: s.fourFifths } },
      ];
      for (const { name, form } of forms) {
        const first = multiGroupManipulationBounds({ ...base, form, tolerance: 0 });
        const tolerance = (1 - s.hideFraction) * first.candidateGap;
        const bounds = multiGroupManipulationBounds({ ...base, form, tolerance });
        out.push({
          pool: entry.label,
          rate,
          form: name,
          candidateGap: bounds.candidateGap,
          candidateRatio: bounds.candidateRatio,
          tolerance: form.kind === 'difference' ? tolerance : s.fourFifths,
          vanilla: bounds.vanilla.flips,
          exactVanilla: bounds.vanilla.exactFlips,
          theorem1: bounds.theorem1.flips,
          theorem4: bounds.theorem4.flips,
          exactTheorem4: bounds.theorem4.exactFlips,
        });
      }
    }
  }
  return out;
}
