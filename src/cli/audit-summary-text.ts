import type { AuditPoolSummary } from '../audit/audit-pool.js';

/** A gap with its sign, b − a, to 4 decimals. */
function signed(gap: number): string {
  return `${gap >= 0 ? '+' : ''}${gap.toFixed(4)}`;
}

/** The oracle line: the pool's hard-decision gap (b − a) and its decision against δ. */
function oracleLine(summary: AuditPoolSummary): string {
  const proxy =
    summary.proxyGap === undefined ? '' : `; ${summary.access} mean gap (b − a) ${signed(summary.proxyGap)}`;
  return (
    `oracle:       hard-decision gap (b − a) ${signed(summary.oracleGap)} on the whole pool ` +
    `-> ${summary.oracleDecision} at tolerance ${summary.tolerance}${proxy}`
  );
}

/** The thresholds of a GLR test, if it has them. */
function thresholdsText(summary: AuditPoolSummary): string {
  if (summary.upperThreshold === undefined || summary.lowerThreshold === undefined) return '';
  return `; thresholds ${summary.upperThreshold.toFixed(4)} (reject), ${summary.lowerThreshold.toFixed(4)} (accept)`;
}

/** The evidence line of one audit: the betting test's e-value, the interval, or the GLR statistic. */
function evidenceLine(summary: Extract<AuditPoolSummary, { verdict: unknown }>): string {
  if (summary.logEValue !== undefined) {
    const value = typeof summary.logEValue === 'number' ? summary.logEValue.toFixed(4) : summary.logEValue;
    const level = Math.log(1 / summary.alpha).toFixed(4);
    return `evidence:     log e-value against H0 ${value} (rejects at log(1/alpha) = ${level})`;
  }
  if (summary.gapInterval !== undefined) {
    const [low, high] = summary.gapInterval;
    return (
      `evidence:     gap (b − a) in [${low.toFixed(4)}, ${high.toFixed(4)}] ` +
      `at ${1 - summary.alpha} confidence, valid at any stopping time`
    );
  }
  const statistic = typeof summary.statistic === 'number' ? summary.statistic.toFixed(4) : summary.statistic;
  return `evidence:     signed GLR ${statistic}${thresholdsText(summary)}`;
}

/**
 * auditSummaryText(poolName, summary) is `fairaudit audit`'s text output: the pool, the
 * verdict in words with H0 and its guarantee, its evidence, the oracle and the
 * fixed-sample decision (every gap b − a); with replicates, the verdict counts. O(1).
 * @param poolName the pool's name (its file, or "synthetic")
 * @param summary what auditPool returned
 * @returns the lines to print
 * @example auditSummaryText('pool.csv', await auditPool(pool, { seed: '1' }))
 */
export function auditSummaryText(poolName: string, summary: AuditPoolSummary): string {
  const head =
    `${poolName}: metric ${summary.metric} (${summary.poolSize} rows: ${summary.groupCounts.a} in ` +
    `group a, ${summary.groupCounts.b} in group b), ${summary.access} access`;
  if ('verdict' in summary) {
    return [
      head,
      `verdict:      ${summary.verdictText}`,
      evidenceLine(summary),
      oracleLine(summary),
      `fixed-sample: ${summary.fixedDecision} on ${summary.fixedSamples} rows (gap (b − ` +
        `a) ${signed(summary.fixedGap)})`,
      ...(summary.continuation === undefined ? [] : [`continue:     ${summary.continuation}`]),
      '',
    ].join('\n');
  }
  const d = summary.decisions;
  const absent = summary.fixedDecisions.inconclusive > 0;
  return [
    `${head}, ${summary.replicates} replicates`,
    `verdicts:     VIOLATION ${d.reject}, COMPLIANT ${d.accept}, ` +
      `INCONCLUSIVE ${d.inconclusive} of ${summary.replicates} audits of ${summary.hypothesis}; ` +
      `queries ${summary.meanQueries.toFixed(1)} ± ${summary.stdQueries.toFixed(1)}`,
    `guarantee:    ${summary.guarantee}${thresholdsText(summary)}`,
    `early:        reject ${summary.earlyDecisions.reject}, ` +
      `accept ${summary.earlyDecisions.accept} within ${summary.earlyDecisions.within} queries`,
    oracleLine(summary),
    `fixed-sample: reject ${summary.fixedDecisions.reject}, accept ${summary.fixedDecisions.accept}` +
      `${
        absent ? `, inconclusive ${summary.fixedDecisions.inconclusive} (a group ` + `absent)` : ''
      } on ${summary.fixedSamples} rows`,
    ...(summary.continuation === undefined ? [] : [`continue:     ${summary.continuation}`]),
    '',
  ].join('\n');
}
