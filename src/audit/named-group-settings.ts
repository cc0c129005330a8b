import { inputError } from '../util/errors.js';
import type { FairnessMetric, GroupMetric } from './metric.js';

/** What only the K-group audit of named groups runs (the pe and eodds metrics, the ratio aggregation), in words. */
const NAMED_GROUPS = 'pools of named groups (a group column of names, or --groups for intersections), not a 0/1 pool';

/**
 * twoGroupMetricOf(settings, name) is the metric of an audit of a two-group 0/1 pool (sp or
 * eo, paper A's), after refusing what only the K-group audit of named groups runs: metric pe
 * or eodds, aggregation ratio. Absent keys pass (their defaults are sp and difference).
 * Throws InputError naming the setting (name(key): a flag on the CLI). O(1).
 * @param settings the audit's settings, as given or validated
 * @param name turns a settings key into the words of a message
 * @returns the metric, sp when absent
 * @example twoGroupMetricOf({ metric: 'pe' }, (key) => `--${key}`) // throws: "--metric (a 0/1 pool): expected ..."
 */
export function twoGroupMetricOf(
  settings: { readonly metric?: GroupMetric; readonly aggregation?: string },
  name: (key: string) => string,
): FairnessMetric {
  const metric = settings.metric ?? 'sp';
  if (metric === 'pe' || metric === 'eodds') {
    throw inputError({
      where: `${name('metric')} (a 0/1 pool)`,
      expected: `sp or eo (pe and eodds audit ${NAMED_GROUPS})`,
      found: metric,
    });
  }
  if (settings.aggregation !== undefined && settings.aggregation !== 'difference') {
    throw inputError({
      where: `${name('aggregation')} (a 0/1 pool)`,
      expected: `difference (ratio audits ${NAMED_GROUPS})`,
      found: settings.aggregation,
    });
  }
  return metric;
}
