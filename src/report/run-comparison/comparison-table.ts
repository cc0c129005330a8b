import type { SummaryTable } from '../summary-table.js';
import type { RunComparison } from './compare-runs.js';

/**
 * comparisonTable(comparison) is the table of a run-vs-run comparison: one row per
 * tested statistic (run, cell, statistic, test, base and head values, the difference and
 * its simultaneous interval, raw and Holm-adjusted p-values, and the verdict), for
 * Arrow, CSV and Markdown. O(statistics).
 */
export function comparisonTable(comparison: RunComparison): SummaryTable {
  const level = `${(100 * (1 - comparison.alpha)).toFixed(0)}%`;
  return {
    id: 'run-comparison',
    title: 'Run against run: every summary statistic of the shared cells',
    caption: comparison.summary,
    columns: [
      { name: 'run', label: 'Run', type: 'string' },
      { name: 'cell', label: 'Cell', type: 'string' },
      { name: 'statistic', label: 'Statistic', type: 'string' },
      { name: 'test', label: 'Test', type: 'string' },
      { name: 'base', label: 'Base', type: 'number', digits: 4 },
      { name: 'head', label: 'Head', type: 'number', digits: 4 },
      { name: 'difference', label: 'Head − base', type: 'number', digits: 4 },
      {
        name: 'low',
        label: 'Low',
        type: 'number',
        digits: 4,
        description: `Simultaneous ${level} interval of the difference (Bonferroni over the comparison).`,
      },
      { name: 'high', label: 'High', type: 'number', digits: 4 },
      { name: 'p_value', label: 'p', type: 'number', digits: 4 },
      {
        name: 'adjusted_p_value',
        label: 'Holm p',
        type: 'number',
        digits: 4,
        description: 'Holm-adjusted over every test of the comparison.',
      },
      { name: 'equivalence_p_value', label: 'TOST Holm p', type: 'number', digits: 4 },
      { name: 'verdict', label: 'Verdict', type: 'string' },
    ],
    rows: comparison.statistics.map((s) => ({
      run: s.run,
      cell: s.cell,
      statistic: s.statistic,
      test: s.result.test,
      base: s.base,
      head: s.head,
      difference: s.result.difference,
      low: s.low,
      high: s.high,
      p_value: s.result.pValue,
      adjusted_p_value: s.adjustedPValue,
      equivalence_p_value: s.equivalenceAdjustedPValue,
      verdict: s.changed
        ? 'changed'
        : s.equivalent === true
          ? 'unchanged (within margin)'
          : s.equivalent === false
            ? 'not shown within margin'
            : 'no change detected',
    })),
  };
}
