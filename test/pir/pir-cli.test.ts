import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { readPoolFile } from '../../src/audit/pool-io.js';
import { type PoolProvider, startPoolProvider } from '../../src/pir/provider-from-pool.js';
import { createRandom } from '../../src/util/random.js';
import { runCliInProcess } from '../helpers/cli.js';
import { providerFileFor } from '../helpers/provider-file.js';

function writePool(size: number, rateA: number, rateB: number): string {
  const random = createRandom(`cli-pool-${size}-${rateB}`);
  const lines = ['id,group,label,decision'];
  for (let i = 0; i < size; i++) {
    const group = random() < 0.4 ? 1 : 0;
    const decision = random() < (group ? rateB : rateA) ? 1 : 0;
    lines.push(`${i},${group},${decision},${decision}`);
  }
  const path = join(mkdtempSync(join(tmpdir(), 'fairaudit-pir-')), 'pool.csv');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

const providers: PoolProvider[] = [];
afterEach(async () => {
  await Promise.all(providers.splice(0).map((provider) => provider.service.close()));
});

/** Runs fn with FAIRAUDIT_PIR_TOKEN set (pir audit --provider URL reads the token there), restoring it afterwards. */
async function withToken<T>(token: string, fn: () => Promise<T>): Promise<T> {
  const before = process.env.FAIRAUDIT_PIR_TOKEN;
  process.env.FAIRAUDIT_PIR_TOKEN = token;
  try {
    return await fn();
  } finally {
    if (before === undefined) delete process.env.FAIRAUDIT_PIR_TOKEN;
    else process.env.FAIRAUDIT_PIR_TOKEN = before;
  }
}

const someToken = 'ab'.repeat(32);

/** A loopback port nobody listens on: one the system just handed out and we closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('fairaudit bench pir', () => {
  test('--log-n 10,12 --json prints one object per size with the documented fields, all correct', async () => {
    const { code, stdout: out } = await runCliInProcess([
      'bench',
      'pir',
      '--log-n',
      '10,12',
      '--repetitions',
      '3',
      '--json',
    ]);
    expect(code).toBe(0);
    const rows = out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(rows.map((row) => row.logN)).toEqual([10, 12]);
    for (const row of rows) {
      for (const field of [
        'hintMs',
        'hintBytes',
        'queryMs',
        'answerMs',
        'recoverMs',
        'queryBytes',
        'answerBytes',
        'answerGBps',
      ]) {
        expect(Number.isFinite(row[field])).toBe(true);
      }
      expect(row.correct).toBe(true);
      expect(row.queryBytes).toBe(16 + row.columns * 4);
      expect(row.answerBytes).toBe(16 + row.rows * 4);
    }
  });

  test('--out writes paper B Table 1 (Arrow, CSV, Markdown) and its chart', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'fairaudit-pir-table-'));
    const { code } = await runCliInProcess([
      'bench',
      'pir',
      '--log-n',
      '10',
      '--sizes',
      '2778',
      '--repetitions',
      '2',
      '--out',
      folder,
    ]);
    expect(code).toBe(0);
    const markdown = readFileSync(join(folder, 'paper-b-table-1.md'), 'utf8');
    expect(markdown).toContain('2,778 (COMPAS)');
    expect(markdown).toContain('2^10');
    expect(readFileSync(join(folder, 'charts', 'paper-b-table-1.svg'), 'utf8')).toContain('<svg');
  });

  test('a malformed --log-n exits 2 naming the flag', async () => {
    const { code, stderr: err } = await runCliInProcess(['bench', 'pir', '--log-n', '14..x']);
    expect(code).toBe(2);
    expect(err).toContain('--log-n: expected a range such as 14..24');
  });
});

describe('fairaudit pir audit', () => {
  test(
    '--transport simplepir audits an in-process provider and reports that the auditor can read every ' + 'label',
    async () => {
      const path = writePool(6000, 0.3, 0.5);
      const provider = await startPoolProvider(readPoolFile(path), { idleTimeoutMs: 30_000, transport: 'simplepir' });
      providers.push(provider);
      const { code, stdout: out } = await runCliInProcess([
        'pir',
        'audit',
        '--provider-file',
        providerFileFor(provider.service),
        '--pool',
        path,
        '--audit-set-size',
        '800',
        '--canaries',
        '5',
        '--transport',
        'simplepir',
        '--json',
      ]);
      expect(code).toBe(0);
      const report = JSON.parse(out);
      expect(report.transport).toBe('simplepir');
      expect(report.transportNote).toBe('not symmetric: the auditor can read every label');
      expect(report.secretChallenge).toBe(true);
      expect(report.results.map((result: { procedure: string }) => result.procedure)).toEqual(['fixed', 'sequential']);
      expect(report.results.map((result: { decision: string }) => result.decision)).toEqual(['reject', 'reject']);
      expect(report.canariesChecked).toBe(5);
      // What the auditor learned: the hint determines D (information-theoretically at every
      // size), and so do the secret challenge's hints H₂; 805 queries over the 32 columns of D
      // (6,000 labels, 24 rows × 8 per byte = 192 per column) decrypt every column too.
      expect([report.rows, report.columns]).toEqual([24, 32]);
      expect(report.labelsRevealed).toBe(6000);
      expect(report.labelsRevealedByHint).toBe(6000);
      expect(report.labelsRevealedByChallengeHints).toBe(6000);
      expect(report.labelsRevealedByAnswers).toBe(6000);
      expect(report.binding.candidateDigest).toMatch(/^[0-9a-f]{64}$/);
      expect(report.binding.auditorNonce).toMatch(/^[0-9a-f]{64}$/);
      expect(report.binding.providerShare).toMatch(/^[0-9a-f]{64}$/);
    },
  );

  test('a pool of 3 named groups: the fixed audit judges the max-gap of S, the sequential one is refused', async () => {
    const random = createRandom('cli-pool-three-groups');
    const names = ['north', 'south', 'east'];
    const rates = [0.6, 0.4, 0.2];
    const lines = ['id,group,label,decision'];
    for (let i = 0; i < 900; i++) {
      const group = Math.floor(random() * 3);
      lines.push(`${i},${names[group]},${random() < 0.5 ? 1 : 0},${random() < rates[group] ? 1 : 0}`);
    }
    const path = join(mkdtempSync(join(tmpdir(), 'fairaudit-pir-')), 'pool.csv');
    writeFileSync(path, `${lines.join('\n')}\n`);
    const pool = readPoolFile(path);
    expect(pool.groupNames?.length).toBe(3);
    const provider = await startPoolProvider(pool, { idleTimeoutMs: 30_000, transport: 'simplepir' });
    providers.push(provider);
    const common = ['pir', 'audit', '--provider-file', providerFileFor(provider.service), '--pool', path];
    const flags = ['--audit-set-size', '300', '--canaries', '5', '--transport', 'simplepir', '--seed', 'k3'];
    const { code, stdout: out } = await runCliInProcess([
      ...common,
      ...flags,
      '--design',
      'proportional',
      '--procedure',
      'fixed',
      '--json',
    ]);
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report.groupNames).toEqual(pool.groupNames);
    expect(report.results).toHaveLength(1);
    expect(report.results[0].decision).toBe('reject'); // rates 0.6 / 0.4 / 0.2: a max-gap near 0.4 ≫ 0.05
    expect(report.results[0].gap).toBeGreaterThan(0.25);
    expect(report.canariesChecked).toBe(5);
    const refused = await runCliInProcess([...common, ...flags, '--procedure', 'sequential']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/fixed for a candidate set of 3 groups/);
  });

  test(
    '--audit-set-size above the pool size exits 2 naming it, before contacting the provider (it was silently ' +
      'lowered)',
    async () => {
      const path = writePool(3000, 0.3, 0.3);
      const { code, stderr } = await runCliInProcess([
        'pir',
        'audit',
        '--provider',
        'http://127.0.0.1:9',
        '--pool',
        path,
        '--audit-set-size',
        '100000',
      ]);
      expect(stderr).toBe(
        'fairaudit: --audit-set-size: expected at most the 3000 candidates of the pool, found 100000\n',
      );
      expect(code).toBe(2);
    },
  );

  test(
    'a cheating provider (pir serve --tamper second-database) is reported as provider-rejected ' + 'offline',
    async () => {
      const path = writePool(3000, 0.3, 0.3);
      const provider = await startPoolProvider(readPoolFile(path), {
        idleTimeoutMs: 30_000,
        tamper: 'second-database',
        transport: 'simplepir',
      });
      providers.push(provider);
      const { code, stdout: out } = await runCliInProcess([
        'pir',
        'audit',
        '--provider-file',
        providerFileFor(provider.service),
        '--pool',
        path,
        '--audit-set-size',
        '300',
        '--procedure',
        'fixed',
        '--transport',
        'simplepir',
        '--json',
      ]);
      expect(code).toBe(3);
      expect(JSON.parse(out).decision).toBe('provider-rejected');
    },
  );

  test('with --no-secret-challenge the same cheat is caught online, answer by answer', async () => {
    const path = writePool(3000, 0.3, 0.3);
    const provider = await startPoolProvider(readPoolFile(path), {
      idleTimeoutMs: 30_000,
      tamper: 'flip-label',
      transport: 'simplepir',
    });
    providers.push(provider);
    const { code, stdout: out } = await runCliInProcess([
      'pir',
      'audit',
      '--provider-file',
      providerFileFor(provider.service),
      '--pool',
      path,
      '--audit-set-size',
      '300',
      '--procedure',
      'fixed',
      '--no-secret-challenge',
      '--transport',
      'simplepir',
      '--json',
    ]);
    expect(code).toBe(3);
    const report = JSON.parse(out);
    expect(report.secretChallenge).toBe(false);
    expect(report.results[0].decision).toBe('provider-rejected');
  });

  test(
    "pir serve --tamper replay: the second audit gets the first audit's transcript and rejects the provider " +
      'offline',
    async () => {
      const path = writePool(3000, 0.3, 0.3);
      const provider = await startPoolProvider(readPoolFile(path), {
        idleTimeoutMs: 30_000,
        tamper: 'replay',
        transport: 'simplepir',
      });
      providers.push(provider);
      const audit = () =>
        runCliInProcess([
          'pir',
          'audit',
          '--provider-file',
          providerFileFor(provider.service),
          '--pool',
          path,
          '--audit-set-size',
          '300',
          '--procedure',
          'fixed',
          '--transport',
          'simplepir',
          '--json',
        ]);
      const first = JSON.parse((await audit()).stdout);
      expect(first.results[0].decision).not.toBe('provider-rejected');
      const second = await audit();
      expect(second.code).toBe(3);
      expect(JSON.parse(second.stdout).decision).toBe('provider-rejected');
      expect(JSON.parse(second.stdout).reason).toMatch(/^commitment: Z·A ≠ C·H/);
    },
  );

  test(
    'a provider whose pool lists the candidates in another order is rejected: the candidate lists ' + 'differ',
    async () => {
      const path = writePool(3000, 0.3, 0.3);
      const pool = readPoolFile(path);
      const order = Array.from({ length: pool.size }, (_, i) => pool.size - 1 - i);
      const reversed = {
        ...pool,
        group: Uint8Array.from(order, (i) => pool.group[i]),
        label: Uint8Array.from(order, (i) => pool.label[i]),
        decision: Uint8Array.from(order, (i) => pool.decision[i]),
        id: pool.id === null ? null : Int32Array.from(order, (i) => (pool.id as Int32Array)[i]),
      };
      const provider = await startPoolProvider(reversed, { idleTimeoutMs: 30_000 });
      providers.push(provider);
      const run = await runCliInProcess([
        'pir',
        'audit',
        '--provider-file',
        providerFileFor(provider.service),
        '--pool',
        path,
        '--procedure',
        'fixed',
        '--json',
      ]);
      expect(run.code).toBe(3);
      expect(JSON.parse(run.stdout).decision).toBe('provider-rejected');
      expect(JSON.parse(run.stdout).reason).toMatch(/^candidate list: the provider commits to a list with digest/);
    },
  );

  test(
    'the provider must be named once: --provider-file or --provider with FAIRAUDIT_PIR_TOKEN; a wrong token ' +
      'exits 2',
    async () => {
      const path = writePool(200, 0.3, 0.3);
      const neither = await runCliInProcess(['pir', 'audit', '--pool', path]);
      expect(neither.code).toBe(2);
      expect(neither.stderr).toContain('--provider-file/--provider: expected exactly one of --provider-file FILE');
      const before = process.env.FAIRAUDIT_PIR_TOKEN;
      delete process.env.FAIRAUDIT_PIR_TOKEN;
      const noToken = await runCliInProcess(['pir', 'audit', '--provider', 'http://127.0.0.1:9', '--pool', path]);
      if (before !== undefined) process.env.FAIRAUDIT_PIR_TOKEN = before;
      expect(noToken.code).toBe(2);
      expect(noToken.stderr).toContain("FAIRAUDIT_PIR_TOKEN: expected the provider's bearer token");
      const provider = await startPoolProvider(readPoolFile(path), { idleTimeoutMs: 30_000 });
      providers.push(provider);
      const wrong = await runCliInProcess([
        'pir',
        'audit',
        '--provider-file',
        providerFileFor({ url: provider.service.url, token: 'c'.repeat(64) }),
        '--pool',
        path,
        '--audit-set-size',
        '50',
      ]);
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toMatch(
        /\/setup: expected the URL and bearer token that 'pir serve' wrote to its --url-file .*HTTP 401/,
      );
      expect(provider.service.counters.refused).toBe(1);
    },
  );

  test('a loopback URL where no provider listens exits 2 naming --provider', async () => {
    // Before: fetch's TypeError ("fetch failed") surfaced as an internal error, exit 1.
    const path = writePool(100, 0.3, 0.3);
    const port = await closedPort();
    const { code, stderr: err } = await withToken(someToken, () =>
      runCliInProcess([
        'pir',
        'audit',
        '--provider',
        `http://127.0.0.1:${port}`,
        '--pool',
        path,
        '--audit-set-size',
        '50',
      ]),
    );
    expect(code).toBe(2);
    expect(err).toContain(
      `--provider: expected the URL of a running "fairaudit pir serve", found ` +
        `"http://127.0.0.1:${port} (ECONNREFUSED)"`,
    );
  });

  test(
    'bad --alpha, --beta or --audit-set-size exit 2 before contacting the provider; --sample-size and --test ' +
      'were renamed',
    async () => {
      const path = writePool(100, 0.3, 0.3);
      for (const [flag, value, expected] of [
        ['--alpha', '2', /--alpha: expected a number in \(0, 1\), found 2/],
        ['--beta', '0', /--beta: expected a number in \(0, 1\), found 0/],
        ['--audit-set-size', '1.5', /--audit-set-size: expected an integer ≥ 2, found 1\.5/],
        ['--sample-size', '40', /--sample-size: expected --audit-set-size N .*: the flag was renamed, found 40/],
        ['--test', 'fixed', /--test: expected --procedure fixed, sequential or both .*: the flag was renamed/],
      ] as const) {
        const { code, stderr: err } = await runCliInProcess([
          'pir',
          'audit',
          '--provider',
          'http://127.0.0.1:1',
          '--pool',
          path,
          flag,
          value,
        ]);
        expect(code).toBe(2);
        expect(err).toMatch(expected);
      }
    },
  );

  test(
    'a pool of one group exits 2 naming the pool and the missing group, before contacting the provider (as ' +
      'audit does)',
    async () => {
      const folder = mkdtempSync(join(tmpdir(), 'fairaudit-pir-one-group-'));
      const path = join(folder, 'pool.csv');
      writeFileSync(
        path,
        `id,group,label,decision\n${Array.from({ length: 50 }, (_, i) => `${i},0,${i % 2},${i % 2}`).join('\n')}\n`,
      );
      const port = await closedPort();
      const { code, stderr: err } = await runCliInProcess([
        'pir',
        'audit',
        '--provider',
        `http://127.0.0.1:${port}`,
        '--pool',
        path,
      ]);
      expect(code).toBe(2);
      expect(err).toContain(
        `${path}: column group: expected candidates of both groups (group = 0 and group = 1), found "no row of ` +
          `group b (group = 1) among 50 candidates"`,
      );
    },
  );

  test('a provider URL off loopback exits 2', async () => {
    const path = writePool(100, 0.3, 0.3);
    const { code, stderr: err } = await withToken(someToken, () =>
      runCliInProcess(['pir', 'audit', '--provider', 'http://192.0.2.1:80', '--pool', path]),
    );
    expect(code).toBe(2);
    expect(err).toContain('loopback only');
  });
});

describe('fairaudit pir serve --port PORT on a busy port', () => {
  test('exits 2 naming --port and the port (an EADDRINUSE stack, exit 1, before)', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const { code, stderr } = await runCliInProcess([
        'pir',
        'serve',
        '--pool',
        writePool(64, 0.5, 0.4),
        '--port',
        String(port),
      ]);
      expect(code).toBe(2);
      expect(stderr).toBe(
        `fairaudit: --port: expected a free TCP port on 127.0.0.1 (or 0: any free port), found ` +
          `"${port} (EADDRINUSE)"\n`,
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
