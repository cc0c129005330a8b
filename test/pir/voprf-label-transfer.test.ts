import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { AuditPool } from '../../src/audit/pool.js';
import { drawAuditPlan } from '../../src/pir/audit-plan.js';
import { candidateListDigest } from '../../src/pir/candidate-digest.js';
import type { LabelTransport } from '../../src/pir/label-transport.js';
import { runObliviousAudit } from '../../src/pir/oblivious-audit.js';
import { PirVerificationError } from '../../src/pir/pir-verification-error.js';
import { ProviderConnection } from '../../src/pir/provider-connection.js';
import { type PoolProvider, startPoolProvider } from '../../src/pir/provider-from-pool.js';
import { type ProviderService, startProviderService } from '../../src/pir/provider-service.js';
import { VoprfConnection } from '../../src/pir/voprf-connection.js';
import { createVoprfLabelTable } from '../../src/pir/voprf-label-table.js';
import { VoprfLabelProvider, type VoprfTamperMode } from '../../src/pir/voprf-provider.js';
import { labelInput, REFERENCE_VOPRF, VOPRF } from '../../src/pir/voprf-suite.js';
import { verifyVoprfTranscript } from '../../src/pir/voprf-transcript.js';
import { createCryptoRandom } from '../../src/util/crypto-random.js';
import { createRandom } from '../../src/util/random.js';
import { runCliInProcess } from '../helpers/cli.js';
import { providerFileFor } from '../helpers/provider-file.js';

/** A candidate pool of `size` rows (ids 0..N-1, 40 % in group b) with decision rates rateA and rateB. */
function poolOf(size: number, rateA: number, rateB: number, seed: string): AuditPool {
  const random = createRandom(seed);
  const group = new Uint8Array(size);
  const decision = new Uint8Array(size);
  for (let i = 0; i < size; i++) {
    group[i] = random() < 0.4 ? 1 : 0;
    decision[i] = random() < (group[i] === 1 ? rateB : rateA) ? 1 : 0;
  }
  const id = Int32Array.from({ length: size }, (_, i) => i);
  return { group, label: decision, decision, score: null, logit: null, id, size, source: seed };
}

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((service) => service.close()));
});

async function serve(pool: AuditPool, options: { tamper?: VoprfTamperMode; maxEvaluationsPerAudit?: number } = {}) {
  const provider: PoolProvider = await startPoolProvider(pool, { idleTimeoutMs: 60_000, ...options });
  running.push(provider.service);
  return provider;
}

const agreed = (pool: AuditPool) => ({
  entryCount: pool.size,
  entryBits: 1,
  digest: candidateListDigest(pool.id, pool.group),
});

/** One audit of `pool` through `transport`: S of n, k canaries, both procedures. */
function auditThrough(transport: LabelTransport, pool: AuditPool, auditSetSize: number, canaryCount: number) {
  const plan = drawAuditPlan(
    { groups: pool.group, knownLabels: pool.decision, auditSetSize, canaryCount, design: 'uniform' },
    createCryptoRandom(),
  );
  return runObliviousAudit(transport, {
    groups: pool.group,
    plan,
    batchSize: 16,
    procedures: ['fixed', 'sequential'],
    tolerance: 0.05,
    alpha: 0.05,
    beta: 0.2,
  });
}

describe('VoprfConnection: the k-out-of-N oblivious transfer of labels', () => {
  test(
    'an honest audit reads the committed labels, learns exactly |S| + k of them, and its transcript ' + 'verifies',
    async () => {
      const pool = poolOf(300, 0.3, 0.3, 'honest-voprf');
      const provider = await serve(pool);
      const connection = await VoprfConnection.connect(provider.service, agreed(pool), 42);
      const labels = await connection.retrieve([0, 7, 299]);
      expect(labels).toEqual([pool.decision[0], pool.decision[7], pool.decision[299]]);
      const run = await auditThrough(connection, pool, 30, 9);
      expect(run.results.map((result) => result.decision)).not.toContain('provider-rejected');
      expect(run.labelsRetrieved).toBe(39);
      expect(connection.labelsRevealed()).toBeLessThanOrEqual(42);
      const transcript = connection.transcript();
      expect(verifyVoprfTranscript(transcript, transcript.candidateDigest)).toEqual({
        verified: true,
        labelsChecked: 42,
      });
      // A transcript whose auditor lies about one label (or the table) no longer verifies.
      const lying = structuredClone(transcript);
      lying.batches[0].labels[0] ^= 1;
      expect(verifyVoprfTranscript(lying).failure).toMatch(/the committed label is/);
      const otherTable = { ...transcript, table: Buffer.from(new Uint8Array(38)).toString('base64') };
      expect(verifyVoprfTranscript(otherTable).failure).toMatch(/the commitment does not match/);
    },
  );

  test('the masked table unmasks under @noble/curves: T_i ⊕ pad(finalize(blind(x_i))) = label_i', async () => {
    const labels = Uint8Array.from({ length: 64 }, (_, i) => (i * 7) % 2);
    const digest = new Uint8Array(32).fill(3);
    const table = await createVoprfLabelTable(labels, { candidateDigest: digest });
    for (const index of [0, 13, 63]) {
      const input = labelInput(digest, table.tableId, index);
      const { blind, blinded } = REFERENCE_VOPRF.blind(input);
      const { evaluated, proof } = REFERENCE_VOPRF.blindEvaluate(table.secretKey, table.publicKey, blinded);
      const output = REFERENCE_VOPRF.finalize(input, blind, evaluated, blinded, table.publicKey, proof);
      expect(((table.table[index >>> 3] >>> (index & 7)) & 1) ^ (output[0] & 1)).toBe(labels[index]);
    }
  });
});

describe('the malicious auditor: more evaluations than agreed, points off the group', () => {
  test('is refused and counted, and learns no label beyond its budget', async () => {
    const pool = poolOf(200, 0.3, 0.3, 'malicious');
    const provider = await serve(pool, { maxEvaluationsPerAudit: 50 });
    const labelProvider = provider.labelProvider as VoprfLabelProvider;
    const headers = { authorization: `Bearer ${provider.service.token}` };
    const nonce = '11'.repeat(32);
    const post = (path: string, body: Uint8Array | string) =>
      fetch(`${provider.service.url}${path}`, { method: 'POST', headers, body });
    // A budget above the provider's cap is refused outright.
    expect((await post('/voprf/commit', JSON.stringify({ nonce: '22'.repeat(32), evaluations: 51 }))).status).toBe(403);
    expect((await post('/voprf/commit', JSON.stringify({ nonce, evaluations: 4 }))).status).toBe(200);
    const setup = (await (await fetch(`${provider.service.url}/setup`, { headers })).json()) as { tableId: string };
    const tableId = new Uint8Array(Buffer.from(setup.tableId, 'hex'));
    const digest = candidateListDigest(pool.id, pool.group);
    const blindedBatch = (indices: number[]) =>
      Buffer.concat(indices.map((index) => VOPRF.blind(labelInput(digest, tableId, index)).blinded));
    const evaluate = (body: Uint8Array) => post(`/voprf/evaluate?audit=${nonce}`, body);
    // Within the budget: two evaluations and one proof.
    const ok = await evaluate(blindedBatch([1, 2]));
    expect(ok.status).toBe(200);
    expect((await ok.arrayBuffer()).byteLength).toBe(2 * 32 + 64);
    // Off the group: an invalid encoding is 400, and charged to the budget (one remains).
    const offGroup = await evaluate(new Uint8Array(32).fill(0xff));
    expect(offGroup.status).toBe(400);
    expect(await offGroup.text()).toMatch(/not a ristretto255 element/);
    // Beyond the budget: the batch is refused whole (429), no evaluation returned, and charged.
    const tooMany = await evaluate(blindedBatch([3, 4]));
    expect(tooMany.status).toBe(429);
    expect(await tooMany.text()).toMatch(/budget is 4 evaluations; 1 remained, 2 asked/);
    expect((await evaluate(blindedBatch([3]))).status).toBe(429);
    // The identity element is refused too (RFC 9497 §3.3), in a second audit.
    const other = '44'.repeat(32);
    expect((await post('/voprf/commit', JSON.stringify({ nonce: other, evaluations: 1 }))).status).toBe(200);
    expect((await post(`/voprf/evaluate?audit=${other}`, new Uint8Array(32))).status).toBe(400);
    // An audit nobody opened gets nothing.
    expect((await post(`/voprf/evaluate?audit=${'33'.repeat(32)}`, blindedBatch([4]))).status).toBe(404);
    expect(labelProvider.counters).toEqual({ audits: 2, evaluations: 2, evaluationsRefused: 6 });
  });
});

describe('attacks on the label transfer end provider-rejected', () => {
  const pool = poolOf(240, 0.3, 0.3, 'attacks');

  test('T changed after the commitment (flip-label, swap-rows) is caught before any evaluation', async () => {
    for (const tamper of ['flip-label', 'swap-rows'] as const) {
      const provider = await serve(pool, { tamper });
      const attempt = VoprfConnection.connect(provider.service, agreed(pool), 20);
      await expect(attempt).rejects.toThrow(PirVerificationError);
      await expect(attempt).rejects.toThrow(/^commitment: /);
      expect(provider.labelProvider?.counters.evaluations).toBe(0);
    }
  });

  test('an evaluation under another key fails the DLEQ proof: the audit is provider-rejected', async () => {
    const provider = await serve(pool, { tamper: 'second-database' });
    const connection = await VoprfConnection.connect(provider.service, agreed(pool), 20);
    const run = await auditThrough(connection, pool, 15, 5);
    expect(run.results.map((result) => result.decision)).toEqual(['provider-rejected', 'provider-rejected']);
    expect(run.results[0].reason).toMatch(/DLEQ proof does not verify against pk/);
    expect(run.labelsRetrieved).toBe(16); // the first batch only: nothing more is asked
  });

  test(
    "an old commitment replayed under a new nonce (pir serve --tamper replay) is caught at the second audit's " +
      'connect',
    async () => {
      const provider = await serve(pool, { tamper: 'replay' });
      await VoprfConnection.connect(provider.service, agreed(pool), 20);
      await expect(VoprfConnection.connect(provider.service, agreed(pool), 20)).rejects.toThrow(/^commitment: /);
    },
  );

  test('old evaluations and proof replayed to a new audit fail its verification', async () => {
    const table = await createVoprfLabelTable(pool.decision, { candidateDigest: agreed(pool).digest });
    class ReplayingProvider extends VoprfLabelProvider {
      private first?: Uint8Array;
      override evaluate(nonce: string, body: Uint8Array): Uint8Array {
        const out = super.evaluate(nonce, body);
        this.first ??= out;
        return this.first;
      }
    }
    const service: ProviderService = await startProviderService({
      labelProvider: new ReplayingProvider(table, 100),
      candidateDigest: agreed(pool).digest,
      idleTimeoutMs: 60_000,
    });
    running.push(service);
    const first = await VoprfConnection.connect(service, agreed(pool), 20);
    await first.retrieve([5, 6]);
    const second = await VoprfConnection.connect(service, agreed(pool), 20);
    await expect(second.retrieve([5, 6])).rejects.toThrow(/DLEQ proof does not verify/);
  });

  test('a reordered candidate list is caught at setup: the candidate digests differ', async () => {
    const order = Array.from({ length: pool.size }, (_, i) => pool.size - 1 - i);
    const reordered: AuditPool = {
      ...pool,
      group: Uint8Array.from(order, (i) => pool.group[i]),
      decision: Uint8Array.from(order, (i) => pool.decision[i]),
      label: Uint8Array.from(order, (i) => pool.decision[i]),
      id: Int32Array.from(order, (i) => (pool.id as Int32Array)[i]),
    };
    const provider = await serve(reordered);
    await expect(VoprfConnection.connect(provider.service, agreed(pool), 20)).rejects.toThrow(/^candidate list: /);
  });

  test(
    'pir audit exits 3 with provider-rejected against pir serve --tamper flip-label; pir verify checks a ' +
      'transcript',
    async () => {
      const folder = mkdtempSync(join(tmpdir(), 'fairaudit-voprf-cli-'));
      const path = join(folder, 'pool.csv');
      const rows = Array.from(
        { length: pool.size },
        (_, i) => `${i},${pool.group[i]},${pool.decision[i]},${pool.decision[i]}`,
      );
      writeFileSync(path, `id,group,label,decision\n${rows.join('\n')}\n`);
      const args = (provider: PoolProvider, extra: string[]) => [
        'pir',
        'audit',
        '--provider-file',
        providerFileFor(provider.service),
        '--pool',
        path,
        '--audit-set-size',
        '40',
        '--canaries',
        '4',
        '--json',
        ...extra,
      ];
      const cheat = await runCliInProcess(args(await serve(pool, { tamper: 'flip-label' }), []));
      expect(cheat.code).toBe(3);
      expect(JSON.parse(cheat.stdout)).toMatchObject({ transport: 'voprf', decision: 'provider-rejected' });
      const transcriptPath = join(folder, 'transcript.json');
      const honest = await runCliInProcess(
        args(await serve(pool), ['--transcript', transcriptPath, '--batch-size', '16']),
      );
      expect(honest.code).toBe(0);
      expect(JSON.parse(honest.stdout)).toMatchObject({ transport: 'voprf', labelsRevealed: 44, evaluationBudget: 44 });
      const verified = await runCliInProcess(['pir', 'verify', transcriptPath, '--pool', path, '--json']);
      expect(verified.code).toBe(0);
      expect(JSON.parse(verified.stdout)).toMatchObject({ verified: true, labelsChecked: 44 });
      const transcript = JSON.parse(readFileSync(transcriptPath, 'utf8'));
      transcript.batches[1].evaluated[0] = transcript.batches[1].evaluated[1];
      writeFileSync(transcriptPath, JSON.stringify(transcript));
      const broken = await runCliInProcess(['pir', 'verify', transcriptPath]);
      expect(broken.code).toBe(3);
      expect(broken.stdout).toMatch(/NOT verified after 16 labels: batch 1: the DLEQ proof does not verify/);
    },
  );
});

describe('50 concurrent auditors against one honest provider', () => {
  test('voprf: every verdict is the honest provider’s; no audit is disturbed by another’s /commit', async () => {
    const pool = poolOf(400, 0.3, 0.3, 'concurrent-voprf');
    const provider = await serve(pool);
    const runs = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const connection = await VoprfConnection.connect(provider.service, agreed(pool), 22);
        const run = await auditThrough(connection, pool, 20, 2);
        return { run, revealed: connection.labelsRevealed() };
      }),
    );
    for (const { run, revealed } of runs) {
      expect(run.results.map((result) => result.decision)).not.toContain('provider-rejected');
      expect(revealed).toBe(run.labelsRetrieved);
    }
    expect(provider.labelProvider?.counters.audits).toBe(50);
  }, 300_000);

  test('simplepir: every verdict is the honest provider’s (commitments kept per nonce)', async () => {
    const pool = poolOf(2000, 0.3, 0.3, 'concurrent-simplepir');
    const provider = await startPoolProvider(pool, { idleTimeoutMs: 60_000, transport: 'simplepir' });
    running.push(provider.service);
    const runs = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const connection = await ProviderConnection.connect(provider.service, agreed(pool));
        const run = await auditThrough(connection, pool, 40, 2);
        await connection.close();
        return run;
      }),
    );
    for (const run of runs) expect(run.results.map((result) => result.decision)).not.toContain('provider-rejected');
    expect(provider.service.counters.commitments).toBe(50);
  }, 300_000);
});
