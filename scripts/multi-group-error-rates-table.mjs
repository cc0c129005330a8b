// Prints the markdown table of docs/error-control.md "K groups" from the records that
// scripts/multi-group-error-rates.mjs wrote (docs/benchmarks/multi-group-error-rates-k{3,5,10}.json).
//   node scripts/multi-group-error-rates-table.mjs
import { existsSync, readFileSync } from 'node:fs';

const percent = (r) => `${(100 * r.rate).toFixed(2)}% ± ${(100 * r.standardError).toFixed(2)}`;
const lines = [
  '| K (sizes) | worst compliant layout found (gap) | test | P(false violation) ± SE | α + 3 SE | P(false ' +
'compliance) just beyond (gap) | P(reject), queries: worst layout at 2δ | P(reject), queries: largest group 2δ apart |',
  '|---|---|---|---|---|---|---|---|',
];
for (const k of [3, 5, 10]) {
  const record = JSON.parse(readFileSync(`docs/benchmarks/multi-group-error-rates-k${k}.json`, 'utf8'));
  // calibrated-glr, when measured (a run with --tests calibrated-glr at the same worst layout).
  const calibratedFile = `docs/benchmarks/multi-group-error-rates-k${k}-calibrated.json`;
  const calibrated = existsSync(calibratedFile) ? JSON.parse(readFileSync(calibratedFile, 'utf8')) : null;
  const tests = calibrated === null ? ['betting', 'wald-glr'] : ['betting', 'wald-glr', 'calibrated-glr'];
  for (const test of tests) {
    const m = test === 'calibrated-glr' ? calibrated.measured[test] : record.measured[test];
    const n = m.worstCompliant.paths;
    const bar = 0.05 + 3 * Math.sqrt((0.05 * 0.95) / n);
    const first = test === 'betting';
    const worst = record.worstCompliant;
    const largest = m.clearViolationLargest;
    const sizeCell = first ? `${k} (${record.sizes.join(', ')})` : '';
    const layoutCell = first ? `${worst.layout}, c ${worst.bottom} (${worst.gap.toFixed(4)})` : '';
    const testCell =
      test === 'calibrated-glr'
        ? `calibrated-glr (${calibrated.calibration.upper}, ${calibrated.calibration.lower}; ` +
          `${calibrated.calibration.paths} paths per configuration)`
        : test;
    lines.push(
      `| ${sizeCell} | ${layoutCell} | ${testCell} | ` +
        `${m.worstCompliant.reject}/${n} = ${percent(m.worstCompliant.rejectRate)} | ${(100 * bar).toFixed(2)}% ` +
        `| ${percent(m.justBeyond.acceptRate)} (${record.justBeyond.gap.toFixed(4)}) ` +
        `| ${(100 * m.clearViolation.rejectRate.rate).toFixed(1)}%, ${m.clearViolation.queries.toFixed(0)} ` +
        `| ${(100 * largest.rejectRate.rate).toFixed(1)}%, ${largest.queries.toFixed(0)} |`,
    );
  }
}
const any = JSON.parse(readFileSync('docs/benchmarks/multi-group-error-rates-k3.json', 'utf8'));
lines.push('', `Pool ${any.sizes.reduce((a, b) => a + b, 0)} rows, δ = ${any.tolerance}, α = ${any.alpha}, β ` +
`= ${any.beta}, budget ${any.budget}; commit ${any.commit}, ${any.machine}.`);
process.stdout.write(`${lines.join('\n')}\n`);
