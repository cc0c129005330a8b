import { isAbsolute, resolve } from 'node:path';
import { AUDIT_DESIGNS } from '../../audit/audit-design.js';
import { readPoolFile } from '../../audit/pool-io.js';
import type { SettingsOrigin } from '../../harness/kind-runner.js';
import {
  type CandidatePopulation,
  candidatePopulationFromColumns,
  syntheticCandidatePopulation,
} from '../../respir/candidate-population.js';
import { inputError } from '../../util/errors.js';
import { type Infer, schema } from '../../util/schema.js';

const rate = (description: string) => schema.number({ minimum: 0, maximum: 1, description });

/** The candidate set C: a pool file (group, label, decision) or a synthetic recipe. */
const candidatesSchema = schema.object(
  {
    name: schema.optional(
      schema.string({
        pattern: /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
        patternText: 'letters, digits, ".", "_" and "-"',
        description:
          'A short name for the candidate set, its label in results (the `candidates` column when the grid varies it).',
      }),
    ),
    file: schema.optional(
      schema.string({
        description:
          "An Arrow IPC or CSV pool file used whole as C; a relative path is resolved against the config file's " +
          'folder.',
      }),
    ),
    synthetic: schema.optional(
      schema.object(
        {
          size: schema.integer({ minimum: 4, maximum: 50_000_000, description: 'N = |C|.' }),
          minorityShare: schema.number({
            minimum: 0,
            maximum: 1,
            exclusiveMinimum: true,
            exclusiveMaximum: true,
            description: 'Share of C in group 1 (paper B Figure 1: 0.1 unbalanced, 0.5 balanced).',
          }),
          positiveRates: schema.array(rate('a rate'), {
            minItems: 2,
            maxItems: 2,
            description:
              'Decision-1 rate in group 0 and group 1 (true-positive rates for metric eo); their difference is ' +
              'd_C,true.',
          }),
          labelShare: schema.number({
            minimum: 0,
            maximum: 1,
            exclusiveMinimum: true,
            default: 0.5,
            description: 'Share of label = 1 rows per group (metric eo only).',
          }),
        },
        { description: 'A candidate set built from counts: only per-group counts matter to the audit.' },
      ),
    ),
  },
  { description: 'The candidate set C: exactly one of `file` or `synthetic`.', exactlyOneOf: ['file', 'synthetic'] },
);

/** Settings shared by the `respir` and `respir-minimal-flips` kinds: the schema is the single source. */
export const respirSettingsProperties = {
  candidates: candidatesSchema,
  metric: schema.enumOf(['sp', 'eo'], {
    default: 'sp',
    description: 'sp: demographic parity on all rows; eo: equal opportunity on label = 1 rows (paper B Appendix C).',
  }),
  auditSetSize: schema.optional(schema.integer({ minimum: 2, description: 'n = |S|. Give this or auditFraction.' })),
  auditFraction: schema.optional(
    schema.number({
      minimum: 0,
      maximum: 1,
      exclusiveMinimum: true,
      description: 'n = round(fraction·N) (paper B Table 2: 0.5). Give this or auditSetSize.',
    }),
  ),
  design: schema.enumOf(AUDIT_DESIGNS, {
    default: 'uniform',
    description:
      'How S is drawn from C: uniform (paper B §4.1), or stratified by group (§6.2): proportional or balanced.',
  }),
  sampler: schema.enumOf(['counts', 'indices'], {
    default: 'counts',
    description:
      "counts: multivariate hypergeometric stratum counts (fast); indices: partial Fisher-Yates over C's rows " +
      '(reference).',
  }),
  tolerance: schema.optional(
    schema.number({
      minimum: 0,
      maximum: 1,
      description:
        "ε: the tolerance on the audit set's gap, |d_S| ≤ ε passes (the δ of paper A). Give this or hideFraction.",
    }),
  ),
  hideFraction: schema.optional(
    schema.number({
      minimum: 0,
      maximum: 1,
      description: 'Share f of the true gap to hide: ε = (1 − f)·|d_C,true| (paper B §5: 0.5).',
    }),
  ),
  passProbability: schema.number({
    minimum: 0.5,
    maximum: 1,
    exclusiveMaximum: true,
    default: 0.95,
    description:
      "The pass probability the provider aims for (paper B's 1 − δ, where δ is a failure probability): 0.8 in " +
      '§5, 0.95 in Figure 1; at least 0.5, since Theorems 1 and 3 assume δ ≤ ½.',
  }),
  canaries: schema.integer({ minimum: 0, default: 5, description: 'k canaries planted among the rows of S.' }),
  canaryEffectiveness: schema.number({
    minimum: 0,
    maximum: 1,
    default: 0.8,
    description: 'q: the chance that a canary stays indistinguishable to the provider (paper B: 0.8).',
  }),
};

/** The cross-key rule of both kinds: exactly one of each pair, and n ≤ N where N is known. */
export function respirSettingsProblem(value: Record<string, unknown>) {
  if ((value.auditSetSize === undefined) === (value.auditFraction === undefined)) {
    return {
      key: 'auditSetSize',
      expected: 'exactly one of auditSetSize or auditFraction',
      found: value.auditSetSize === undefined ? 'neither' : 'both',
    };
  }
  if ((value.tolerance === undefined) === (value.hideFraction === undefined)) {
    return {
      key: 'tolerance',
      expected: 'exactly one of tolerance or hideFraction',
      found: value.tolerance === undefined ? 'neither' : 'both',
    };
  }
  const synthetic = (value.candidates as { synthetic?: { size: number } } | undefined)?.synthetic;
  if (synthetic && typeof value.auditSetSize === 'number' && value.auditSetSize > synthetic.size) {
    return {
      key: 'auditSetSize',
      expected: `at most the candidate set size ${synthetic.size}`,
      found: value.auditSetSize,
    };
  }
  return undefined;
}

export const respirSettingsSchema = schema.object(
  {
    ...respirSettingsProperties,
    manipulation: schema.enumOf(['none', 'theorem-1', 'theorem-4', 'best-effort', 'flips'], {
      default: 'theorem-1',
      description:
        "The provider's flips on C: none; theorem-1 / theorem-4: the fewest flips reaching Theorem 2's (or " +
        "Theorem 4's) sufficient gap ε − γ, best effort when that is below 0; best-effort: the lowest reachable gap; " +
        'flips: the `flips` flips that bring the gap lowest.',
    }),
    flips: schema.integer({ minimum: 0, default: 0, description: 'The flip budget for manipulation: flips.' }),
  },
  {
    description: 'Settings of a respir cell (paper B): one replicate is one audit-set draw.',
    check: respirSettingsProblem,
  },
);

export type RespirSettings = Infer<typeof respirSettingsSchema>;

/** The settings both kinds read (the minimal-flips kind has no manipulation of its own). */
export type RespirCommonSettings = Pick<RespirSettings, keyof typeof respirSettingsProperties>;

/**
 * loadCandidatePopulation(settings, origin) reads or builds C's counts. Throws
 * InputError for a missing or malformed pool file or an empty group.
 */
export function loadCandidatePopulation(settings: RespirCommonSettings, origin: SettingsOrigin): CandidatePopulation {
  const where = `${origin.configFile}: settings.candidates`;
  if (settings.candidates.synthetic) {
    const spec = settings.candidates.synthetic;
    return syntheticCandidatePopulation(
      {
        size: spec.size,
        minorityShare: spec.minorityShare,
        positiveRates: [spec.positiveRates[0], spec.positiveRates[1]],
        labelShare: spec.labelShare,
      },
      settings.metric,
      `${where}.synthetic`,
    );
  }
  const file = settings.candidates.file as string;
  const path = isAbsolute(file) ? file : resolve(origin.baseDirectory, file);
  const pool = readPoolFile(path);
  return candidatePopulationFromColumns(pool.group, pool.label, pool.decision, settings.metric, path);
}

/**
 * resolvedAuditSetSize(settings, population, where) is n from auditSetSize or
 * round(auditFraction·N), at least 2. Throws InputError when n exceeds N.
 */
export function resolvedAuditSetSize(
  settings: RespirCommonSettings,
  population: CandidatePopulation,
  where: string,
): number {
  const total = population.groupSizes[0] + population.groupSizes[1];
  const size = Math.max(2, settings.auditSetSize ?? Math.round((settings.auditFraction as number) * total));
  if (size > total)
    throw inputError({
      where: `${where}: settings.auditSetSize`,
      expected: `at most the candidate set size ${total}`,
      found: size,
    });
  return size;
}

/** resolvedTolerance(settings, trueGap) is ε from tolerance or (1 − hideFraction)·|d_C,true|. */
export function resolvedTolerance(settings: RespirCommonSettings, trueGap: number): number {
  return settings.tolerance ?? (1 - (settings.hideFraction as number)) * Math.abs(trueGap);
}
