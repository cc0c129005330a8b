import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { AuditPool } from '../../src/audit/pool.js';
import { drawAuditPlan } from '../../src/pir/audit-plan.js';
import { type PoolProvider, startPoolProvider } from '../../src/pir/provider-from-pool.js';
import { fewestFlipsToGap } from '../../src/respir/adversary.js';
import { createPassProbabilityEvaluator } from '../../src/respir/exact-pass-probability.js';
import { createRandom } from '../../src/util/random.js';
import { runCliInProcess } from '../helpers/cli.js';
import { providerFileFor } from '../helpers/provider-file.js';

/**
 * The threat: a provider that has read the project's code. Until commit 81c6040, `pir
 * audit` drew S and the canaries from createRandom('pir-audit') by default. `--seed
 * pir-audit` replays a seeded draw today (drawAuditPlan on createRandom(`${seed}:plan`)),
 * so it stands for the old default: the provider reruns it to predict S and the canaries.
 */
const OLD_DEFAULT_SEED = 'pir-audit';
const CANDIDATES = 13_500;
const CANARIES = 10;
const TOLERANCE = 0.05;

/** A CCD-sized candidate set with d_C ≈ 0.12: decision-1 rate 0.25 in group a, 0.37 in group b (40 % of C). */
function honestCandidates(): { groups: Uint8Array; decisions: Uint8Array } {
  const random = createRandom('issue-12-threat');
  const groups = new Uint8Array(CANDIDATES);
  const decisions = new Uint8Array(CANDIDATES);
  for (let i = 0; i < CANDIDATES; i++) {
    groups[i] = random() < 0.4 ? 1 : 0;
    decisions[i] = random() < (groups[i] === 1 ? 0.37 : 0.25) ? 1 : 0;
  }
  return { groups, decisions };
}

/**
 * cheatingTable(groups, decisions, seed, auditSetSize) is what the provider serves: it
 * reruns the auditor's seeded calls to predict the canaries and S, and flips the fewest
 * labels inside S (never a canary) that bring S's gap within ε (fewestFlipsToGap: group
 * b's 1s lowered, group a's 0s raised). Returns the table and the flips it made.
 */
function cheatingTable(groups: Uint8Array, decisions: Uint8Array, seed: string, auditSetSize: number) {
  const drawn = drawAuditPlan(
    { groups, knownLabels: decisions, auditSetSize, canaryCount: CANARIES, design: 'uniform' },
    createRandom(`${seed}:plan`),
  );
  const canaries = new Set(drawn.canaries.map((canary) => canary.index));
  const predicted = drawn.auditSet;
  const sizes: [number, number] = [0, 0];
  const positives: [number, number] = [0, 0];
  for (const i of predicted) {
    sizes[groups[i]]++;
    positives[groups[i]] += decisions[i];
  }
  const plan = fewestFlipsToGap({ sizes, positives }, TOLERANCE);
  if (plan === null) throw new Error('no flips reach the tolerance');
  const table = decisions.slice();
  let lower = plan.groupOneLowered;
  let raise = plan.groupZeroRaised;
  for (const i of predicted) {
    if (lower > 0 && groups[i] === 1 && table[i] === 1) {
      table[i] = 0;
      lower--;
    } else if (raise > 0 && groups[i] === 0 && table[i] === 0) {
      table[i] = 1;
      raise--;
    }
  }
  return { table, flips: plan.flips, canaries };
}

/** positivesOf(groups, table) is [P₀, P₁], the decision-1 count of each group. */
function positivesOf(groups: Uint8Array, table: Uint8Array): [number, number] {
  const positives: [number, number] = [0, 0];
  for (let i = 0; i < groups.length; i++) positives[groups[i]] += table[i];
  return positives;
}

function poolFile(groups: Uint8Array, decisions: Uint8Array): string {
  const lines = ['id,group,label,decision'];
  for (let i = 0; i < groups.length; i++) lines.push(`${i},${groups[i]},${decisions[i]},${decisions[i]}`);
  const path = join(mkdtempSync(join(tmpdir(), 'fairaudit-threat-')), 'pool.csv');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

function poolOf(groups: Uint8Array, decisions: Uint8Array): AuditPool {
  return {
    group: groups,
    label: decisions,
    decision: decisions,
    score: null,
    logit: null,
    id: Int32Array.from({ length: groups.length }, (_, i) => i),
    size: groups.length,
    source: 'cheating provider',
  };
}

const providers: PoolProvider[] = [];
afterEach(async () => {
  await Promise.all(providers.splice(0).map((provider) => provider.service.close()));
});

describe('a provider that predicts S from the project code (an S the provider can predict)', () => {
  const { groups, decisions } = honestCandidates();
  const inB = groups.reduce((sum, group) => sum + group, 0);
  const sizes: [number, number] = [CANDIDATES - inB, inB];
  const honest = positivesOf(groups, decisions);
  const auditorPool = poolFile(groups, decisions);

  /** Exact P(pass) of a uniform S of n from a table with these positives (hypergeometric law, integer comparison as pir
   * audit makes it). */
  const passProbability = (auditSetSize: number, positives: [number, number]) =>
    createPassProbabilityEvaluator({
      population: { groupSizes: sizes, eligibleSizes: sizes, eligiblePositives: positives },
      auditSetSize,
      design: 'uniform',
      tolerance: TOLERANCE,
    }).outcomes(positives[0], positives[1]).pass;

  async function serve(table: Uint8Array) {
    const provider = await startPoolProvider(poolOf(groups, table), { idleTimeoutMs: 120_000, transport: 'simplepir' });
    providers.push(provider);
    return (auditSetSize: number, extra: string[]) =>
      runCliInProcess([
        'pir',
        'audit',
        '--provider-file',
        providerFileFor(provider.service),
        '--pool',
        auditorPool,
        '--audit-set-size',
        String(auditSetSize),
        '--canaries',
        String(CANARIES),
        '--tolerance',
        String(TOLERANCE),
        '--procedure',
        'fixed',
        '--transport',
        'simplepir',
        '--json',
        ...extra,
      ]);
  }

  test('the table: 13,500 candidates, d_C ≈ 0.12, a few dozen flips inside the predicted S, none on a canary', () => {
    const trueGap = honest[1] / sizes[1] - honest[0] / sizes[0];
    expect(trueGap).toBeGreaterThan(0.11);
    expect(trueGap).toBeLessThan(0.13);
    for (const auditSetSize of [1000, 3000]) {
      const cheat = cheatingTable(groups, decisions, OLD_DEFAULT_SEED, auditSetSize);
      expect(cheat.flips).toBeGreaterThan(0);
      expect(cheat.flips).toBeLessThan(120); // under 0.9 % of C: C's gap stays far above ε
      for (const canary of cheat.canaries) expect(cheat.table[canary]).toBe(decisions[canary]);
    }
  });

  test("|S| = 1000 (the issue's audit): the old default seed accepts the cheat; a default S passes it hardly " +
    'more often than the honest table', async () => {
    const cheat = cheatingTable(groups, decisions, OLD_DEFAULT_SEED, 1000);
    const audit = await serve(cheat.table);
    const seeded = await audit(1000, ['--seed', OLD_DEFAULT_SEED]);
    expect(seeded.code).toBe(0);
    const report = JSON.parse(seeded.stdout);
    expect(report.results[0].decision).toBe('accept');
    expect(report.canariesChecked).toBe(CANARIES);
    // With S from node:crypto the flips are blind: what counts is C's counts alone. The
    // fixed-size test of 1,000 labels lets this unfair model pass about 0.6 % of the time
    // even when honest (its own sampling error); the cheat adds a fraction of that.
    const honestPass = passProbability(1000, honest).value;
    const cheatPass = passProbability(1000, positivesOf(groups, cheat.table)).value;
    expect(honestPass).toBeLessThan(0.01);
    // (For the S that drawAuditPlan draws from seed pir-audit the cheat makes 1.5 %.)
    expect(cheatPass).toBeLessThan(0.02);
    expect(cheatPass - honestPass).toBeLessThan(0.01);
  }, 120_000);

  test('|S| = 3000: the cheat passes the old default seed, and default audits reject it (exact pass probability ' +
    'below 5e-4)', async () => {
    const cheat = cheatingTable(groups, decisions, OLD_DEFAULT_SEED, 3000);
    const audit = await serve(cheat.table);
    const seeded = await audit(3000, ['--seed', OLD_DEFAULT_SEED]);
    expect(JSON.parse(seeded.stdout).results[0].decision).toBe('accept');
    // Each default audit accepts with probability below 5e-4 (exact, below): the gap of a
    // node:crypto S rejects the table, or one of the 10 canaries falls on a flipped label
    // (probability 1 − (1 − 65/13,500)^10 ≈ 0.05) and the provider is rejected outright.
    for (let run = 0; run < 2; run++) {
      const fresh = await audit(3000, []);
      const decision = JSON.parse(fresh.stdout).results[0].decision;
      expect(['reject', 'provider-rejected']).toContain(decision);
      expect(fresh.code).toBe(decision === 'provider-rejected' ? 3 : 0);
    }
    expect(passProbability(3000, positivesOf(groups, cheat.table)).upper).toBeLessThan(5e-4);
  }, 120_000);

  test('two default audits draw different S; the same --seed draws the same S (auditSetDigest in pir audit ' +
    '--json)', async () => {
    const audit = await serve(decisions);
    const digests: string[] = [];
    for (const extra of [[], [], ['--seed', 'replay'], ['--seed', 'replay']]) {
      const run = await audit(200, extra);
      expect(run.code).toBe(0);
      digests.push(JSON.parse(run.stdout).auditSetDigest);
    }
    for (const digest of digests) expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(digests[0]).not.toBe(digests[1]);
    expect(digests[2]).toBe(digests[3]);
    expect(digests[2]).not.toBe(digests[0]);
  }, 120_000);
});
