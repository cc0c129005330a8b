// Random K-group cases with fairaudit's constrained maximum likelihood under the K-group null, one JSON
// object per line, for scripts/multi-group-mle-scipy.py to check against a generic optimiser.
//   node scripts/multi-group-mle-cases.mjs [CASES] [SEED]      (needs a build: npm run build)
// CASES (default 1000) Bernoulli cases (half difference, half ratio) plus CASES / 2 Gaussian proxy cases.
// Each case is drawn to violate its null half the time, so the clip is active; K is 2..10.
import { bernoulliConstrainedRates } from '../dist/src/stats/multi-group/multi-group-bernoulli-glr.js';
import { gaussianConstrainedCost } from '../dist/src/stats/multi-group/multi-group-gaussian-glr.js';
import { createRandom, randomInt } from '../dist/src/util/random.js';

const cases = Number(process.argv[2] ?? 1000);
const random = createRandom(process.argv[3] ?? 'multi-group mle cross-check');
const lines = [];
for (let index = 0; index < cases + cases / 2; index++) {
  const family = index < cases ? 'bernoulli' : 'gaussian';
  const aggregation = index % 2 === 0 ? 'difference' : 'ratio';
  const groupCount = 2 + randomInt(random, 9);
  const bound =
    aggregation === 'difference' ? [0.02, 0.05, 0.1, 0.2][randomInt(random, 4)] : [0.5, 0.8, 0.9][randomInt(random, 3)];
  const scale = aggregation === 'difference' ? 1 : 1 / bound;
  const shift = aggregation === 'difference' ? bound : 0;
  const spread = random() < 0.5 ? 0.05 : 0.5;
  const centre = 0.1 + 0.8 * random();
  const counts = Float64Array.from({ length: groupCount }, () => 1 + randomInt(random, random() < 0.3 ? 20 : 1000));
  const out = new Float64Array(groupCount);
  if (family === 'bernoulli') {
    const positives = counts.map((n) => {
      const rate = Math.min(1, Math.max(0, centre + spread * (random() - 0.5)));
      return Math.round(rate * n);
    });
    const logLikelihood = bernoulliConstrainedRates(counts, positives, groupCount, scale, shift, out);
    lines.push({
      family,
      aggregation,
      bound,
      counts: [...counts],
      positives: [...positives],
      logLikelihood,
      rates: [...out],
    });
  } else {
    const means = counts.map(() => centre + spread * (random() - 0.5));
    const residualSumOfSquares = counts.reduce((sum, n) => sum + n * 0.04, 0);
    const cost = gaussianConstrainedCost(counts, means, groupCount, scale, shift, out);
    const total = counts.reduce((sum, n) => sum + n, 0);
    // The profiled log-likelihood -(n/2) log((W + Q)/n) - n/2 at the constrained means.
    const logLikelihood = -0.5 * total * Math.log((residualSumOfSquares + cost) / total) - 0.5 * total;
    lines.push({
      family,
      aggregation,
      bound,
      counts: [...counts],
      means: [...means],
      residualSumOfSquares,
      logLikelihood,
    });
  }
}
process.stdout.write(`${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
