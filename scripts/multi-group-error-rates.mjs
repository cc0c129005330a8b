// Operating characteristics of the K-group tests (docs/error-control.md, "K groups"): for one K, unequal
// group sizes with the smallest at 2%, a search for the worst compliant configuration of the anytime-valid
// betting test, then >= 4000 replicates there of P(false violation) for betting and wald-glr, P(false
// compliance) just beyond the tolerance at the same layout, and power and queries at two clear violations (2 tolerance:
// the worst layout's top groups raised, and the largest group alone above the rest).
// Writes one JSON record (with machine, commit, date) to OUT through a temporary file.
//   nice -n 10 node scripts/multi-group-error-rates.mjs --groups K [--replicates 4000] [--screen 300]
//     [--size 5000] [--budget 5000] [--tolerance 0.1] [--out FILE] [--tests betting,wald-glr,calibrated-glr]
//     [--worst LAYOUT:BOTTOM] [--calibration-paths 1000]              (needs a build: npm run build)
// The search (--screen replicates per candidate): window [c, c + tolerance] with c at 0.5 - tolerance/2
// (rates near 1/2, the largest variance), near 0 and near 1; layouts: smallest group at the bottom and
// the largest at the top with the rest spread evenly between, the reverse, groups alternating between the
// two ends, the smallest alone at one end and every other group at the other (both ways), and the two
// smallest at the two ends with the rest in the middle. The worst is the one with most false violations,
// ties broken by the largest mean peak log e-value (sampled every 25 queries).
import { execSync } from 'node:child_process';
import { renameSync, writeFileSync } from 'node:fs';
import { hostname, cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { calibrateMultiGroupThresholds } from '../dist/src/audit/calibration/multi-group-calibration.js';
import { layoutPositions, MULTI_GROUP_LAYOUTS } from '../dist/src/audit/calibration/multi-group-configurations.js';
import { createMultiGroupTest } from '../dist/src/audit/create-multi-group-test.js';
import { compareCountDifference } from '../dist/src/stats/count-gap-comparison.js';
import { createRandom, deriveSeed } from '../dist/src/util/random.js';

const { values } = parseArgs({
  options: {
    groups: { type: 'string' },
    replicates: { type: 'string', default: '4000' },
    screen: { type: 'string', default: '300' },
    size: { type: 'string', default: '5000' },
    budget: { type: 'string', default: '5000' },
    tolerance: { type: 'string', default: '0.1' },
    out: { type: 'string' },
    tests: { type: 'string', default: 'betting,wald-glr' },
    worst: { type: 'string' },
    'calibration-paths': { type: 'string', default: '1000' },
  },
});
const K = Number(values.groups);
const SHARES = {
  3: [0.02, 0.33, 0.65],
  5: [0.02, 0.08, 0.15, 0.3, 0.45],
  10: [0.02, 0.04, 0.06, 0.08, 0.1, 0.1, 0.12, 0.14, 0.16, 0.18],
};
if (!SHARES[K]) {
  process.stderr.write(`multi-group-error-rates: --groups: expected 3, 5 or 10, found ${values.groups}\n`);
  process.exit(2);
}
const replicates = Number(values.replicates);
const size = Number(values.size);
const budget = Number(values.budget);
const tolerance = Number(values.tolerance);
const alpha = 0.05;
const beta = 0.2;
const sizes = SHARES[K].map((share) => Math.round(share * size));
const out = values.out ?? `docs/benchmarks/multi-group-error-rates-k${K}.json`;

/** Group order by size: index 0 the smallest. */
const bySize = sizes.map((n, g) => [n, g]).sort((a, b) => a[0] - b[0]).map((entry) => entry[1]);

/** Positions in [0, 1] of each group inside the window (0 bottom, 1 top) for each layout. */
const layout = (name) => layoutPositions(sizes, name);
const LAYOUTS = MULTI_GROUP_LAYOUTS;
const BOTTOMS = { centre: 0.5 - tolerance / 2, low: 0.02, high: 0.98 - tolerance };

/**
 * Positive counts per group for a layout: compliant (bottom rounded up, top down, so the gap is at most
 * the tolerance) or just beyond (top groups one positive above the window's top, bottom ones at most c).
 */
function configuration(name, bottom, beyond) {
  const position = layout(name);
  return sizes.map((n, g) => {
    const rate = bottom + position[g] * tolerance;
    if (!beyond) return Math.min(n, Math.max(Math.ceil(bottom * n), Math.floor(rate * n)));
    if (position[g] === 1) return Math.min(n, Math.floor((bottom + tolerance) * n) + 1);
    if (position[g] === 0) return Math.floor(bottom * n);
    return Math.round(rate * n);
  });
}

/** The exact largest gap of a configuration, and whether it exceeds the tolerance. */
function gapOf(positives) {
  let low = 0;
  let high = 0;
  for (let g = 1; g < K; g++) {
    if (positives[g] * sizes[low] < positives[low] * sizes[g]) low = g;
    if (positives[g] * sizes[high] > positives[high] * sizes[g]) high = g;
  }
  return {
    gap: positives[high] / sizes[high] - positives[low] / sizes[low],
    violates: compareCountDifference(sizes[low], positives[low], sizes[high], positives[high], tolerance) > 0,
  };
}

/** Simulates `paths` audits of a count configuration (random order) with a test; counts outcomes. */
let thresholds;
function simulate(testName, positives, paths, seed, trackEvidence) {
  const { test } = createMultiGroupTest({
    groupSizes: sizes,
    test: testName,
    access: 'decision',
    aggregation: 'difference',
    tolerance,
    alpha,
    beta,
    thresholds,
  });
  const random = createRandom(seed);
  const left = new Float64Array(K);
  const ones = new Float64Array(K);
  const outcome = { paths, reject: 0, accept: 0, inconclusive: 0, queries: 0, meanPeakLogEvidence: 0 };
  const cap = Math.min(budget, size);
  for (let path = 0; path < paths; path++) {
    test.reset();
    for (let g = 0; g < K; g++) {
      left[g] = sizes[g];
      ones[g] = positives[g];
    }
    let remaining = size;
    let peak = 0;
    let t = 0;
    for (; t < cap && test.verdict === 0; t++) {
      let pick = random() * remaining;
      let g = 0;
      while (g < K - 1 && pick >= left[g]) pick -= left[g++];
      const value = random() * left[g] < ones[g] ? 1 : 0;
      left[g]--;
      ones[g] -= value;
      remaining--;
      test.add(g, value);
      if (trackEvidence && t % 25 === 24) peak = Math.max(peak, test.logEvidence);
    }
    if (test.verdict === 1) outcome.reject++;
    else if (test.verdict === -1) outcome.accept++;
    else outcome.inconclusive++;
    outcome.queries += t;
    outcome.meanPeakLogEvidence += peak / paths;
  }
  outcome.queries /= paths;
  const rate = (count) => ({
    rate: count / paths,
    standardError: Math.sqrt(((count / paths) * (1 - count / paths)) / paths),
  });
  return { ...outcome, rejectRate: rate(outcome.reject), acceptRate: rate(outcome.accept) };
}

const started = Date.now();
const screening = [];
// --worst LAYOUT:BOTTOM skips the search (e.g. to add calibrated-glr at the worst layout found before).
const given = values.worst?.split(':');
for (const [where, bottom] of given ? [[given[1], BOTTOMS[given[1]]]] : Object.entries(BOTTOMS)) {
  for (const name of given ? [given[0]] : LAYOUTS) {
    const positives = configuration(name, bottom, false);
    const { gap, violates } = gapOf(positives);
    if (violates) throw new Error(`compliant configuration ${name} ${where} violates: gap ${gap}`);
    const result = simulate('betting', positives, Number(values.screen), deriveSeed('screen', K, where, name), true);
    screening.push({
      layout: name,
      bottom: where,
      positives,
      gap,
      reject: result.reject,
      meanPeakLogEvidence: result.meanPeakLogEvidence,
      queries: result.queries,
    });
  }
}
screening.sort((a, b) => b.reject - a.reject || b.meanPeakLogEvidence - a.meanPeakLogEvidence);
const worst = screening[0];
const bottom = BOTTOMS[worst.bottom];
const beyond = configuration(worst.layout, bottom, true);
const clear = sizes.map((n, g) => Math.round((layout(worst.layout)[g] === 1 ? bottom + 2 * tolerance : bottom) * n));
// A violation the large groups carry: the largest group 2 tolerance above every other group.
const clearLarge = sizes.map((n, g) => Math.round((g === bySize[K - 1] ? 0.5 + tolerance : 0.5 - tolerance) * n));
const tests = values.tests.split(',');
let calibration;
if (tests.includes('calibrated-glr')) {
  const setting = { groupSizes: sizes, tolerance, budget, minimumPerGroup: 1, alpha, beta };
  const result = calibrateMultiGroupThresholds(setting, { seed: `error ` +
`rates ${K}`, paths: Number(values['calibration-paths']) });
  thresholds = { upper: result.upper, lower: result.lower };
  const worstOf = (error) =>
    result.certification.errors.filter((e) => e.error === error).sort((a, b) => b.upperBound - a.upperBound)[0];
  calibration = {
    ...thresholds,
    certified: result.certified,
    paths: Number(values['calibration-paths']),
    configurations: result.configurations.length,
    worstReject: worstOf('reject'),
    worstAccept: worstOf('accept'),
  };
}
const measured = {};
for (const testName of tests) {
  measured[testName] = {
    worstCompliant: simulate(testName, worst.positives, replicates, deriveSeed('compliant', K, testName), false),
    justBeyond: simulate(testName, beyond, replicates, deriveSeed('beyond', K, testName), false),
    clearViolation: simulate(testName, clear, Math.min(replicates, 1000), deriveSeed('clear', K, testName), false),
    clearViolationLargest: simulate(
      testName,
      clearLarge,
      Math.min(replicates, 1000),
      deriveSeed('large', K, testName),
      false,
    ),
  };
}
const commit = execSync('git rev-parse --short HEAD').toString().trim();
const record = {
  command:
    `nice -n 10 node scripts/multi-group-error-rates.mjs ` +
    `--groups ${K} --replicates ${replicates} --screen ${values.screen} --size ${size} --budget ${budget} ` +
    `--tolerance ${tolerance}${values.worst ? ` --worst ${values.worst}` : ''} --tests ${values.tests}` +
    `${calibration ? ` --calibration-paths ${calibration.paths}` : ''}`,
  machine: `${hostname()} (${cpus().length} cpus)`,
  commit,
  date: new Date().toISOString(),
  seconds: (Date.now() - started) / 1000,
  groups: K,
  sizes,
  tolerance,
  alpha,
  beta,
  budget,
  screening,
  calibration,
  worstCompliant: { layout: worst.layout, bottom: worst.bottom, positives: worst.positives, gap: worst.gap },
  justBeyond: { positives: beyond, gap: gapOf(beyond).gap },
  clearViolation: { positives: clear, gap: gapOf(clear).gap },
  clearViolationLargest: { positives: clearLarge, gap: gapOf(clearLarge).gap },
  measured,
};
writeFileSync(`${out}.tmp`, `${JSON.stringify(record, null, 1)}\n`);
renameSync(`${out}.tmp`, out);
process.stdout.write(`${out}: ` +
`worst ${worst.layout} ${worst.bottom}, ${tests.map((t) => `${t} false ` +
`violations ${measured[t].worstCompliant.reject}/${replicates}`).join(', ')}\n`);
