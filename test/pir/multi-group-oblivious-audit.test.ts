import { afterEach, describe, expect, test } from 'vitest';
import { multiGroupAuditSizes } from '../../src/audit/multi-group-audit-sizes.js';
import { drawAuditPlan } from '../../src/pir/audit-plan.js';
import { candidateListDigest } from '../../src/pir/candidate-digest.js';
import { runObliviousAudit } from '../../src/pir/oblivious-audit.js';
import { choosePirParameters } from '../../src/pir/parameters.js';
import { PirServer } from '../../src/pir/pir-server.js';
import { ProviderConnection } from '../../src/pir/provider-connection.js';
import { type ProviderService, startProviderService } from '../../src/pir/provider-service.js';
import { countGapExceedsTolerance } from '../../src/stats/count-gap-comparison.js';
import { InputError } from '../../src/util/errors.js';
import { createRandom } from '../../src/util/random.js';

/** K = 3 candidates: group shares 50/30/20 %, label-1 rate `rates[g]` in group g. */
function candidateSet(size: number, rates: readonly number[], seed: string) {
  const random = createRandom(seed);
  const groups = new Uint8Array(size);
  const labels = new Uint8Array(size);
  for (let i = 0; i < size; i++) {
    const u = random();
    groups[i] = u < 0.5 ? 0 : u < 0.8 ? 1 : 2;
    labels[i] = random() < rates[groups[i]] ? 1 : 0;
  }
  return { groups, labels };
}

const running: ProviderService[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((service) => service.close()));
});

async function connect(labels: Uint8Array, groups: Uint8Array) {
  const parameters = choosePirParameters({ entryCount: labels.length, entryBits: 1 });
  const server = await PirServer.create(labels, parameters);
  const candidateDigest = candidateListDigest(null, groups);
  const service = await startProviderService({ server, answerFrom: server, candidateDigest, idleTimeoutMs: 20_000 });
  running.push(service);
  return ProviderConnection.connect(service, { entryCount: labels.length, entryBits: 1, digest: candidateDigest });
}

/** The max-gap decision on S computed directly from the candidates' labels. */
function expectedDecision(auditSet: readonly number[], groups: Uint8Array, labels: Uint8Array, tolerance: number) {
  const counts = [
    [0, 0],
    [0, 0],
    [0, 0],
  ];
  for (const index of auditSet) {
    counts[groups[index]][0]++;
    counts[groups[index]][1] += labels[index];
  }
  for (let i = 0; i < 3; i++) {
    for (let j = i + 1; j < 3; j++) {
      if (countGapExceedsTolerance(counts[i][0], counts[i][1], counts[j][0], counts[j][1], tolerance)) return 'reject';
    }
  }
  return 'accept';
}

describe('runObliviousAudit(transport, options) with K = 3 groups', () => {
  for (const [name, rates, design] of [
    ['a fair model, uniform S', [0.4, 0.4, 0.4], 'uniform'],
    ['a max-gap of 0.4, proportional S', [0.6, 0.4, 0.2], 'proportional'],
    ['a max-gap of 0.06, balanced S', [0.43, 0.4, 0.37], 'balanced'],
  ] as const) {
    test(`${name}: the fixed audit judges S's max-gap exactly as computed from the labels`, async () => {
      const { groups, labels } = candidateSet(3000, rates, name);
      const connection = await connect(labels, groups);
      const plan = drawAuditPlan(
        { groups, knownLabels: labels, auditSetSize: 900, canaryCount: 5, design, groupCount: 3 },
        createRandom(`${name}:plan`),
      );
      const run = await runObliviousAudit(connection, {
        groups,
        plan,
        batchSize: 64,
        procedures: ['fixed'],
        tolerance: 0.05,
        alpha: 0.05,
        beta: 0.2,
        groupCount: 3,
      });
      await connection.close();
      const [result] = run.results;
      expect(run.canariesChecked).toBe(5);
      expect(result.labelsUsed).toBe(900);
      expect(result.decision).toBe(expectedDecision(plan.auditSet, groups, labels, 0.05));
      if (rates[0] === 0.6) expect(result.decision).toBe('reject');
      const inS = [0, 0, 0];
      for (const index of plan.auditSet) inS[groups[index]]++;
      const groupSizes = [0, 0, 0];
      for (const group of groups) groupSizes[group]++;
      if (design !== 'uniform') expect(inS).toEqual(multiGroupAuditSizes(design, groupSizes, 900));
      expect(result.gap).toBeCloseTo(Math.max(...ratesOf(plan.auditSet)) - Math.min(...ratesOf(plan.auditSet)), 12);

      function ratesOf(set: readonly number[]): number[] {
        const rows = [0, 0, 0];
        const ones = [0, 0, 0];
        for (const index of set) {
          rows[groups[index]]++;
          ones[groups[index]] += labels[index];
        }
        return rows.map((count, g) => ones[g] / count);
      }
    });
  }

  test('refuses the sequential GLR and a candidate set missing a group, naming what to do', async () => {
    const { groups, labels } = candidateSet(400, [0.4, 0.4, 0.4], 'refusals');
    const connection = await connect(labels, groups);
    const plan = drawAuditPlan(
      { groups, knownLabels: labels, auditSetSize: 100, canaryCount: 0, design: 'uniform', groupCount: 3 },
      createRandom('refusals:plan'),
    );
    const options = { groups, plan, batchSize: 64, tolerance: 0.05, alpha: 0.05, beta: 0.2, groupCount: 3 };
    await expect(runObliviousAudit(connection, { ...options, procedures: ['fixed', 'sequential'] })).rejects.toThrow(
      /fixed for a candidate set of 3 groups/,
    );
    await expect(runObliviousAudit(connection, { ...options, procedures: ['fixed'], groupCount: 4 })).rejects.toThrow(
      InputError,
    );
    await connection.close();
  });
});

describe('multiGroupAuditSizes(design, groupSizes, auditSetSize)', () => {
  test('sums to n with n_g ≤ N_g: proportional by largest remainder, balanced level by level', () => {
    expect(multiGroupAuditSizes('uniform', [10, 20, 30], 6)).toBeNull();
    expect(multiGroupAuditSizes('balanced', [5000, 300, 100], 900)).toEqual([500, 300, 100]);
    expect(multiGroupAuditSizes('balanced', [5000, 3000, 1000], 900)).toEqual([300, 300, 300]);
    expect(multiGroupAuditSizes('balanced', [50, 50, 50], 100)).toEqual([34, 33, 33]);
    // 100·(1/3) each: floors 33, 33, 33 and the one left to the lowest code (equal remainders)
    expect(multiGroupAuditSizes('proportional', [30, 30, 30], 100 - 10)).toEqual([30, 30, 30]);
    expect(multiGroupAuditSizes('proportional', [1, 1, 1], 2)).toEqual([1, 1, 0]);
    expect(multiGroupAuditSizes('proportional', [600, 300, 100], 45)).toEqual([27, 14, 4]); // 27, 13.5, 4.5
    const random = createRandom('multi-group-audit-sizes');
    for (let trial = 0; trial < 500; trial++) {
      const sizes = Array.from({ length: 3 + Math.floor(random() * 8) }, () => 1 + Math.floor(random() * 500));
      const total = sizes.reduce((sum, size) => sum + size, 0);
      const n = 1 + Math.floor(random() * total);
      for (const design of ['proportional', 'balanced'] as const) {
        const result = multiGroupAuditSizes(design, sizes, n) as number[];
        expect(result.reduce((sum, size) => sum + size, 0)).toBe(n);
        result.forEach((size, g) => {
          expect(size).toBeLessThanOrEqual(sizes[g]);
          expect(size).toBeGreaterThanOrEqual(0);
        });
      }
    }
  });
});
