#!/usr/bin/env node
// The Monte Carlo check of paper B's bounds for K groups (docs/respir.md, "K groups"): for each
// case of src/respir/multi-group/multi-group-bound-check-cases.ts, the provider makes the exact
// fewest flips reaching the sufficient condition, DRAWS audit sets are drawn with a seeded
// generator, and the pass rate over the draws where the condition holds is reported beside
// 1 − δ. Prints one JSON line per case after a line naming the machine, commit and date; with
// --out FILE writes the same lines to FILE (through a temporary name). Needs dist (npm run build).
//   node scripts/respir-multi-group-check.mjs [--draws 20000] [--out FILE]
import { execFileSync } from 'node:child_process';
import { renameSync, writeFileSync } from 'node:fs';
import { cpus, hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { draws: { type: 'string', default: '20000' }, out: { type: 'string' } } });
const draws = Number(values.draws);
if (!Number.isInteger(draws) || draws < 1) {
  process.stderr.write(`--draws: expected a positive integer, found ${values.draws}\n`);
  process.exit(2);
}
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { checkMultiGroupBound } = await import(join(root, 'dist/src/respir/multi-group/multi-group-bound-check.js'));
const { MULTI_GROUP_BOUND_CHECK_CASES, boundCheckSetting } = await import(
  join(root, 'dist/src/respir/multi-group/multi-group-bound-check-cases.js')
);
const { createRandom } = await import(join(root, 'dist/src/util/random.js'));

const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
const lines = [
  JSON.stringify({ machine: `${hostname()} (${cpus()[0]?.model ?? 'unknown ' +
'cpu'})`, commit, date: new Date().toISOString(), draws }),
];
for (const checkCase of MULTI_GROUP_BOUND_CHECK_CASES) {
  const result = checkMultiGroupBound(boundCheckSetting(checkCase, draws), createRandom(checkCase.name));
  const rate = result.conditionPasses / result.conditionDraws;
  lines.push(
    JSON.stringify({
      case: checkCase.name,
      passProbability: checkCase.passProbability,
      flips: result.flips,
      target: Number(result.target.toFixed(6)),
      conditionDraws: result.conditionDraws,
      passRateWhereConditionHolds: Number(rate.toFixed(5)),
      standardError: Number(Math.sqrt((rate * (1 - rate)) / result.conditionDraws).toFixed(5)),
      passRateAllDraws: Number((result.passes / draws).toFixed(5)),
      atLeastPassProbability: rate >= checkCase.passProbability,
    }),
  );
}
const text = `${lines.join('\n')}\n`;
if (values.out !== undefined) {
  const temporary = `${values.out}.tmp-${process.pid}`;
  writeFileSync(temporary, text);
  renameSync(temporary, values.out);
}
process.stdout.write(text);
