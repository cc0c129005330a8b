import type { MultiGroupAuditSummary } from '../audit/audit-multi-group-pool.js';
import { textTable } from './text-table.js';

const fixed = (value: number | null, digits = 4) =>
  value === null || Number.isNaN(value) ? '-' : value.toFixed(digits);

/**
 * multiGroupSummaryText(poolName, summary) is `fairaudit audit`'s text output for a pool of
 * named groups: the verdict in words with H0 and its guarantee (or the replicates' counts),
 * the oracle over all groups (difference, ratio, groups below the four-fifths rule), each
 * group's rows, rate and impact ratio, and the groups a minimum-size rule excluded. O(K).
 * @param poolName the pool's name (its file)
 * @param summary what auditMultiGroupPool returned
 * @returns the text, ending in a newline
 * @example process.stdout.write(multiGroupSummaryText('pool.csv', summary))
 */
export function multiGroupSummaryText(poolName: string, summary: MultiGroupAuditSummary): string {
  const { oracle } = summary;
  const lines = [`pool:         ${poolName}: ${summary.poolSize} rows of the metric in ${summary.groups} groups`];
  if (summary.verdictText !== undefined) lines.push(`verdict:      ${summary.verdictText}`);
  else {
    const d = summary.decisions as NonNullable<MultiGroupAuditSummary['decisions']>;
    lines.push(
      `verdicts:     ${summary.replicates} audits: ${d.reject} violation, ${d.accept} compliant, ` +
        `${d.inconclusive} inconclusive; mean queries ${summary.meanQueries}`,
      `hypothesis:   ${summary.hypothesis}`,
      `guarantee:    ${summary.guarantee}`,
    );
  }
  const below = oracle.belowFourFifths.length === 0 ? 'none' : oracle.belowFourFifths.join(', ');
  lines.push(
    `oracle:       max − min ${fixed(oracle.difference)} on the whole pool -> ${summary.oracleDecision} at ` +
      `tolerance ${summary.tolerance}; min / max ${fixed(oracle.ratio)}; below four-fifths: ${below}`,
  );
  if (summary.groupSizeRule !== undefined) {
    const excluded = summary.groupSizeRule.excluded;
    const excludedText = excluded.length === 0 ? 'none' : excluded.map((g) => `${g.name} (${g.rows} rows)`).join(', ');
    lines.push(`excluded:     ${summary.groupSizeRule.rule}: ${excludedText}`);
  }
  const rows = oracle.groups.map((g) => [
    g.name,
    String(g.rows),
    String(g.positives),
    fixed(g.rate),
    fixed(g.impactRatio),
  ]);
  lines.push('', ...textTable(['group', 'rows', 'decision 1', 'rate', 'impact ratio'], rows));
  return `${lines.join('\n')}\n`;
}
