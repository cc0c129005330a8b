import { type Infer, schema } from '../util/schema.js';

/**
 * Which columns of a pool file hold what, and which group is group a: the keys a pool
 * file may carry in YAML (`pool: {file, groupColumn, groupA, …}`) and the flags of
 * `fairaudit audit` (--group-column, --group-a, …), so a user's own file audits without
 * renaming. Absent keys mean the canonical column names (id, group, label, decision,
 * score, logit) and groups coded 0 (a) and 1 (b).
 */
export const poolColumnsProperties = {
  groupColumn: schema.optional(
    schema.string({ description: 'The column of the protected attribute (default "group").' }),
  ),
  groupA: schema.optional(
    schema.string({
      description:
        'The value of the group column that is group a (e.g. Female); the one other value is group b. Without it ' +
        'a column of 0 (a) and 1 (b) is a two-group pool, and a column of other integers or names one group per value.',
    }),
  ),
  groups: schema.optional(
    schema.string({
      pattern: /^[^,]+(,[^,]+)*$/,
      patternText: 'column names separated by commas',
      description:
        'Intersectional groups: the columns whose value combinations are the groups (e.g. "sex,race"; instead of ' +
        'groupColumn and groupA).',
    }),
  ),
  minGroupSize: schema.optional(
    schema.integer({
      minimum: 1,
      description:
        'Exclude a group with fewer rows than this from the pool (as NYC Local Law 144 audits may); the output ' +
        'names the groups excluded.',
    }),
  ),
  minGroupShare: schema.optional(
    schema.number({
      minimum: 0,
      maximum: 1,
      exclusiveMaximum: true,
      description:
        "Exclude a group holding less than this share of the pool's rows (Local Law 144's rule is 0.02); the " +
        'output names the groups excluded.',
    }),
  ),
  labelColumn: schema.optional(
    schema.string({ description: 'The column of the true label, 0 or 1 (default "label").' }),
  ),
  decisionColumn: schema.optional(
    schema.string({ description: 'The column of the hard decision, 0 or 1 (default "decision").' }),
  ),
  scoreColumn: schema.optional(
    schema.string({ description: 'The column of the score in [0, 1], for score access (default "score").' }),
  ),
  logitColumn: schema.optional(
    schema.string({ description: 'The column of the logit, for logit access (default "logit").' }),
  ),
};

/** The column mapping of a pool file, as a schema. */
export const poolColumnsSchema = schema.object(poolColumnsProperties, {
  description: 'The column mapping of a pool file.',
});

/** A pool file's column mapping (every key optional). */
export type PoolColumnMapping = Infer<typeof poolColumnsSchema>;

/** The mapping's key of each pool column that can be renamed. */
export const MAPPING_KEY_OF = {
  group: 'groupColumn',
  label: 'labelColumn',
  decision: 'decisionColumn',
  score: 'scoreColumn',
  logit: 'logitColumn',
} as const;
