import type { MultiGroupAuditSummary } from '../audit/audit-multi-group-pool.js';
import { textTable } from './text-table.js';

/** Each rate's label in the oracle lines. */
const RATE_LABELS = {
  sp: 'SP (selection rate)',
  eo: 'EO (true-positive rate)',
  pe: 'PE (false-positive rate)',
} as const;

const fixed = (value: number | null, digits = 4) =>
  value === null || Number.isNaN(value) ? '-' : value.toFixed(digits);

/**
 * multiGroupSummaryText(poolName, summary) is `fairaudit audit`'s text output for a pool of
 * named groups: the verdict in words with H0 and its guarantee (or the replicates' counts),
 * the oracle's decision and, for each rate (eodds: TPR and FPR), its difference, ratio and
 * groups below the four-fifths rule, each group's rows, rate and impact ratio, and the groups
 * a minimum-size rule excluded. O(K).
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
  const rates = [oracle, ...(summary.falsePositiveOracle === undefined ? [] : [summary.falsePositiveOracle])];
  const against = summary.aggregation === 'ratio' ? `ratio ${summary.ratio}` : `tolerance ${summary.tolerance}`;
  lines.push(`oracle:       ${summary.oracleDecision} at ${against} (${summary.metric}, ${summary.aggregation})`);
  for (const one of rates) {
    const below = one.belowFourFifths.length === 0 ? 'none' : one.belowFourFifths.join(', ');
    lines.push(
      `  ${RATE_LABELS[one.rate]}: max − min ${fixed(one.difference)}; min / max ${fixed(one.ratio)} on the ` +
        `whole pool; below four-fifths: ${below}`,
    );
  }
  if (summary.groupSizeRule !== undefined) {
    const excluded = summary.groupSizeRule.excluded;
    const excludedText = excluded.length === 0 ? 'none' : excluded.map((g) => `${g.name} (${g.rows} rows)`).join(', ');
    lines.push(`excluded:     ${summary.groupSizeRule.rule}: ${excludedText}`);
  }
  for (const one of rates) {
    const rows = one.groups.map((g) => [
      g.name,
      String(g.rows),
      String(g.positives),
      fixed(g.rate),
      fixed(g.impactRatio),
    ]);
    const title = rates.length > 1 ? [`${RATE_LABELS[one.rate]}:`] : [];
    lines.push('', ...title, ...textTable(['group', 'rows', 'decision 1', 'rate', 'impact ratio'], rows));
  }
  return `${lines.join('\n')}\n`;
}
