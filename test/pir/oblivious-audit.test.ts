import { afterEach, describe, expect, test } from 'vitest';
import type { AuditDesign } from '../../src/audit/audit-design.js';
import { drawAuditSet } from '../../src/pir/audit-plan.js';
import { candidateListDigest } from '../../src/pir/candidate-digest.js';
import type { LabelTransport } from '../../src/pir/label-transport.js';
import { type ObliviousProcedure, runObliviousAudit } from '../../src/pir/oblivious-audit.js';
import { choosePirParameters } from '../../src/pir/parameters.js';
import { PirServer } from '../../src/pir/pir-server.js';
import { PirVerificationError } from '../../src/pir/pir-verification-error.js';
import { ProviderConnection } from '../../src/pir/provider-connection.js';
import { type ProviderService, startProviderService } from '../../src/pir/provider-service.js';
import { tamperMatrix } from '../../src/pir/tamper.js';
import { encodeMessage } from '../../src/pir/wire-format.js';
import { drawObliviousAudit, prepareObliviousAudit } from '../../src/respir/oblivious-audit-simulation.js';
import { InputError } from '../../src/util/errors.js';
import { createRandom, type Random } from '../../src/util/random.js';

/** A candidate set with a known demographic-parity gap: P(1 | a) = rateA, P(1 | b) = rateB. */
function candidateSet(size: number, rateA: number, rateB: number, seed: string) {
  const random = createRandom(seed);
  const groups = new Uint8Array(size);
  const labels = new Uint8Array(size);
  for (let i = 0; i < size; i++) {
    groups[i] = random() < 0.4 ? 1 : 0;
    labels[i] = random() < (groups[i] === 1 ? rateB : rateA) ? 1 : 0;
  }
  return { groups, labels };
}

const running: ProviderService[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((service) => service.close()));
});

/** A provider of these labels for a candidate list of these groups (row numbers as ids), honest or cheating. */
async function provide(labels: Uint8Array, groups: Uint8Array, cheat?: 'flip-label' | 'second-database') {
  const parameters = choosePirParameters({ entryCount: labels.length, entryBits: 1 });
  const server = await PirServer.create(labels, parameters);
  const answerFrom = cheat
    ? await PirServer.fromMatrix(
        tamperMatrix(server.matrix(), parameters, cheat, createRandom('cheat')),
        parameters,
        server.seed,
      )
    : server;
  const service = await startProviderService({
    server,
    answerFrom,
    candidateDigest: candidateListDigest(null, groups),
    idleTimeoutMs: 20_000,
  });
  running.push(service);
  return service;
}

/** The auditor's connection: the same candidate list (row numbers, groups), a fresh nonce. */
function connectTo(service: ProviderService, groups: Uint8Array, options: { secretChallenge?: boolean } = {}) {
  return ProviderConnection.connect(
    service,
    { entryCount: groups.length, entryBits: 1, digest: candidateListDigest(null, groups) },
    options,
  );
}

const auditSettings = {
  auditSetSize: 1500,
  design: 'uniform' as AuditDesign,
  batchSize: 50,
  tolerance: 0.05,
  alpha: 0.05,
  beta: 0.2,
};

/**
 * audit(connection, options, random) runs one procedure on a plan of S (drawAuditSet) with
 * the given canaries (outside S) at random positions, as drawAuditPlan orders them.
 */
async function audit(
  connection: LabelTransport,
  options: typeof auditSettings & {
    groups: Uint8Array;
    canaries: Array<{ index: number; label: number }>;
    test: ObliviousProcedure;
  },
  random: Random,
) {
  const canaryIndices = new Set(options.canaries.map((canary) => canary.index));
  const auditSet = drawAuditSet(options.groups, options.auditSetSize, options.design, random).filter(
    (index) => !canaryIndices.has(index),
  );
  const order = auditSet.map((index) => ({ index, canary: false }));
  for (const canary of options.canaries) {
    order.splice(Math.floor(random() * (order.length + 1)), 0, { index: canary.index, canary: true });
  }
  const run = await runObliviousAudit(connection, {
    ...options,
    plan: { auditSet, canaries: options.canaries, order },
    procedures: [options.test],
  });
  return { ...run, ...run.results[0] };
}

describe('runObliviousAudit(transport, options) over SimplePIR on loopback HTTP', () => {
  test('a fair provider is accepted and an unfair one rejected, by both tests, with canaries passing', async () => {
    for (const [rateB, expected] of [
      [0.3, 'accept'],
      [0.6, 'reject'],
    ] as const) {
      const { groups, labels } = candidateSet(13_500, 0.3, rateB, `pool-${rateB}`);
      const service = await provide(labels, groups);
      const connection = await connectTo(service, groups);
      const canaries = [11, 222, 3333, 4444, 5555].map((index) => ({ index, label: labels[index] }));
      for (const testKind of ['fixed', 'sequential'] as const) {
        const result = await audit(
          connection,
          { ...auditSettings, groups, canaries, test: testKind },
          createRandom(`audit-${rateB}-${testKind}`),
        );
        expect(result.decision).toBe(expected);
        if (testKind === 'fixed') expect(result.labelsUsed + result.canariesChecked).toBeGreaterThanOrEqual(1500);
        if (testKind === 'sequential') expect(result.labelsUsed).toBeLessThan(1500);
        expect(result.bytesSent).toBe(
          result.labelsRetrieved * connection.parameters.columns * 4 + 16 * Math.ceil(result.labelsRetrieved / 50),
        );
      }
    }
  });

  test('a provider answering from a tampered table is rejected (flip-label, second-database)', async () => {
    const { groups, labels } = candidateSet(5000, 0.3, 0.3, 'tampered');
    for (const cheat of ['flip-label', 'second-database'] as const) {
      const service = await provide(labels, groups, cheat);
      // Figure 3's public checks only: the tampering shows up online, answer by answer.
      const connection = await connectTo(service, groups, { secretChallenge: false });
      const result = await audit(
        connection,
        { ...auditSettings, auditSetSize: 400, groups, canaries: [], test: 'sequential' },
        createRandom(`tampered-${cheat}`),
      );
      expect(result.decision).toBe('provider-rejected');
      expect(result.reason).toMatch(/not computed from the committed database/);
    }
  });

  test('with the secret challenge (default), a tampered provider is rejected before any query', async () => {
    const { groups, labels } = candidateSet(5000, 0.3, 0.3, 'tampered-offline');
    for (const cheat of ['flip-label', 'second-database'] as const) {
      const service = await provide(labels, groups, cheat);
      await expect(connectTo(service, groups)).rejects.toThrow(PirVerificationError);
    }
  });

  test('a committed table that lies about a canary is rejected by the canary check', async () => {
    const { groups, labels } = candidateSet(5000, 0.3, 0.3, 'canary');
    const lying = labels.slice();
    lying[77] = 1 - lying[77];
    const service = await provide(lying, groups);
    const connection = await connectTo(service, groups);
    const result = await audit(
      connection,
      { ...auditSettings, auditSetSize: 400, groups, canaries: [{ index: 77, label: labels[77] }], test: 'fixed' },
      createRandom('canary-audit'),
    );
    expect(result.decision).toBe('provider-rejected');
    expect(result.reason).toMatch(/canary 77/);
  });

  test('the provider answers a malformed query with HTTP 400 and a clear message', async () => {
    const { groups, labels } = candidateSet(2000, 0.3, 0.3, 'malformed');
    const service = await provide(labels, groups);
    const parameters = choosePirParameters({ entryCount: 2000, entryBits: 1 });
    const headers = { authorization: `Bearer ${service.token}` };
    const shortQuery = encodeMessage('query', new Uint32Array(parameters.columns - 1), 1, parameters.columns - 1);
    const response = await fetch(`${service.url}/answer`, { method: 'POST', body: shortQuery, headers });
    expect(response.status).toBe(400);
    expect(await response.text()).toBe(
      `PIR query: expected vectors of ${parameters.columns} elements, found "${parameters.columns - 1} elements"`,
    );
    const wrongModulus = encodeMessage('query', new Uint32Array(parameters.columns), 1, parameters.columns);
    wrongModulus[6] = 64;
    const second = await fetch(`${service.url}/answer`, { method: 'POST', body: wrongModulus, headers });
    expect(second.status).toBe(400);
    expect(await second.text()).toMatch(/expected modulus q = 2\^32, found "q = 2\^64"/);
  });

  test(
    'S without a label of one group is inconclusive with the reason, in the fixed and the sequential test, ' +
      'never accept',
    async () => {
      // 3 of 3,000 candidates in group b and a proportional S of 100: group a gets
      // round(100 · 2997/3000) = 100 rows (groupAuditSizes), group b none. The labels are
      // fair (rate 0.3 in both groups), so an accept would have been "no violation seen".
      const groups = new Uint8Array(3000);
      groups[5] = groups[1500] = groups[2999] = 1;
      const labels = new Uint8Array(3000).map((_, i) => (i % 10 < 3 ? 1 : 0));
      const service = await provide(labels, groups);
      const connection = await connectTo(service, groups);
      for (const testKind of ['fixed', 'sequential'] as const) {
        const result = await audit(
          connection,
          { ...auditSettings, auditSetSize: 100, design: 'proportional', groups, canaries: [], test: testKind },
          createRandom(`one-group-${testKind}`),
        );
        expect(result.decision).toBe('inconclusive');
        expect(result.reason).toBe(
          'no label of group b (group = 1) in S: the gap d_S is undefined, and no verdict is given without evidence',
        );
        expect(result.labelsUsed).toBe(100);
      }
      // The respir simulation of the same design counts every such draw as a failure to pass.
      const simulation = prepareObliviousAudit({
        population: { groupSizes: [2997, 3], eligibleSizes: [2997, 3], eligiblePositives: [899, 1] },
        auditSetSize: 100,
        design: 'proportional',
        sampler: 'counts',
        tolerance: 0.05,
        canaries: 0,
        canaryEffectiveness: 0.8,
        manipulation: { groupOneLowered: 0, groupZeroRaised: 0, flips: 0, gap: 0 },
      });
      const outcome = drawObliviousAudit(simulation, createRandom('one-group-simulation'));
      expect(outcome.respirPassed).toBe(false);
      expect(outcome.respirGap).toBeNaN();
    },
  );

  test('a candidate set of one group is refused (InputError naming the missing group) before any query', async () => {
    const labels = new Uint8Array(500).fill(1);
    const groups = new Uint8Array(500);
    const service = await provide(labels, groups);
    const connection = await connectTo(service, groups);
    const attempt = audit(
      connection,
      { ...auditSettings, auditSetSize: 50, groups, canaries: [], test: 'fixed' },
      createRandom('one-group-set'),
    );
    await expect(attempt).rejects.toThrow(InputError);
    await expect(attempt).rejects.toThrow(
      'candidate set: expected candidates of both groups (group = 0 and group = 1), found "no row of group b ' +
        '(group = 1) among 500 candidates"',
    );
    expect(service.counters.queries).toBe(0);
  });

  test('the provider stops by itself after its idle timeout', async () => {
    const parameters = choosePirParameters({ entryCount: 100, entryBits: 1 });
    const server = await PirServer.create(new Array(100).fill(1), parameters);
    const service = await startProviderService({
      server,
      candidateDigest: candidateListDigest(null, new Uint8Array(100)),
      idleTimeoutMs: 200,
    });
    const started = Date.now();
    await service.stopped;
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test('ProviderConnection.connect refuses a provider that is not on 127.0.0.1', async () => {
    const candidates = { entryCount: 10, entryBits: 1, digest: new Uint8Array(32) };
    await expect(
      ProviderConnection.connect({ url: 'http://example.org:80', token: '0'.repeat(64) }, candidates),
    ).rejects.toThrow(/loopback only/);
  });
});

describe('drawAuditSet(groups, size, design, random)', () => {
  test('draws distinct candidates; the stratified designs take the sizes of groupAuditSizes', () => {
    const groups = new Uint8Array(1000).map((_, i) => (i % 10 < 3 ? 1 : 0));
    for (const design of ['uniform', 'proportional', 'balanced'] as const) {
      const sample = drawAuditSet(groups, 200, design, createRandom(design));
      expect(new Set(sample).size).toBe(200);
      const inB = sample.filter((i) => groups[i] === 1).length;
      if (design === 'proportional') expect(inB).toBe(60);
      if (design === 'balanced') expect(inB).toBe(100);
    }
  });

  test('rounds a tie as the respir simulation does: group a gets round(n·N_a/N)', () => {
    // N_a = N_b = 5, n = 3: n·N_a/N = 1.5 rounds up to 2 for group a (pir used to give the remainder to a: 1).
    const groups = Uint8Array.from([0, 0, 0, 0, 0, 1, 1, 1, 1, 1]);
    const sample = drawAuditSet(groups, 3, 'proportional', createRandom('tie'));
    expect(sample.filter((i) => groups[i] === 0).length).toBe(2);
  });
});
