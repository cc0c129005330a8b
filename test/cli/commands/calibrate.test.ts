import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCliSync } from '../../helpers/cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'fairaudit-calibrate-cli-'));
/** A small decision setting (300 and 200 rows, B = 300, δ = 0.1): calibrates in a second or two. */
const setting = (alpha = '0.1', paths = '600', tolerance = '0.1') => [
  '--groups',
  '300,200',
  '--budget',
  '300',
  '--tolerance',
  tolerance,
  '--alpha',
  alpha,
  '--calibration-paths',
  paths,
  '--calibration-base-rates',
  '0,0.5,1',
  '--threads',
  '2',
];
const small = setting();

describe('fairaudit calibrate (spawned)', () => {
  it(
    'prints the thresholds with their Monte Carlo interval, the certificate and the price, saves them, and ' +
      'reads them back from the cache',
    () => {
      const cache = join(scratch, 'cache');
      const out = join(scratch, 'calibration.json');
      const first = spawnCliSync(['calibrate', ...small, '--cache-dir', cache, '--out', out]);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toMatch(
        new RegExp(
          String.raw`calibrated-glr thresholds: decision access, groups of 300 \(a\) and 200 \(b\), ` +
            'tolerance 0.1, budget 300, start rule 1 per group, random order, alpha 0.1, beta 0.2',
        ),
      );
      expect(first.stdout).toMatch(
        / {2}upper [0-9.]+ {3}\(Monte Carlo: the worst compliant P\(reject\) crosses alpha between \[/,
      );
      expect(first.stdout).toMatch(/gap 0: P\(inconclusive\) [0-9.]+ ± [0-9.]+/);
      expect(first.stdout).toMatch(/computed in [0-9.]+ s, saved: /);
      const record = JSON.parse(readFileSync(out, 'utf8'));
      expect(existsSync(join(cache, `${record.fingerprint}.json`))).toBe(true);
      const second = spawnCliSync(['calibrate', ...small, '--cache-dir', cache, '--json']);
      expect(second.code).toBe(0);
      expect(JSON.parse(second.stdout)).toEqual({
        ...record,
        cached: true,
        file: join(cache, `${record.fingerprint}.json`),
      });
    },
  );

  it('exits 2 naming alpha and the smallest alpha and beta the setting can meet, writing nothing', () => {
    const out = join(scratch, 'impossible.json');
    const run = spawnCliSync([
      'calibrate',
      ...setting('0.001', '300'),
      '--cache-dir',
      join(scratch, 'cache-2'),
      '--out',
      out,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      new RegExp(
        'alpha: expected a level this setting can meet .* the smallest alpha it can meet is ' +
          '[0-9.e-]+ and the smallest beta [0-9.e-]+, found 0.001',
      ),
    );
    expect(existsSync(out)).toBe(false);
    expect(existsSync(join(scratch, 'cache-2'))).toBe(false);
  });

  it('exits 2 naming the setting: a recipe with one group, a tolerance of 1, --groups with score access', () => {
    const oneGroup = spawnCliSync([
      'calibrate',
      '--synthetic',
      '{"size":500,"groupShare":0,"labelRate":[0.5,0.5],"decisionRate":[0.4,0.4]}',
    ]);
    expect(oneGroup.code).toBe(2);
    expect(oneGroup.stderr).toMatch(/--synthetic: groupShare: expected a number in \(0, 1\), found 0/);
    const delta = spawnCliSync(['calibrate', ...setting('0.1', '600', '1')]);
    expect(delta.code).toBe(2);
    expect(delta.stderr).toMatch(/--tolerance: expected a number in \(0, 1\), found 1/);
    expect(spawnCliSync(['calibrate', '--groups', '30,20', '--access', 'score']).stderr).toMatch(
      /--groups: expected decision access/,
    );
  });
});

describe('fairaudit audit --test / --thresholds / --upper / --lower (spawned)', () => {
  const pool = '{"size":2000,"groupShare":0.4,"labelRate":[0.45,0.4],"decisionRate":[0.4,0.2]}';

  it('--json keeps decisions and meanQueries and says which test ran with which thresholds', () => {
    for (const [test, extra] of [
      ['wald-glr', []],
      ['betting', ['--order', 'balanced']],
      ['given-thresholds', ['--upper', '5', '--lower', '-2']],
    ] as const) {
      const run = spawnCliSync([
        'audit',
        '--synthetic',
        pool,
        '--seed',
        '1',
        '--replicates',
        '20',
        '--test',
        test,
        ...extra,
        '--json',
      ]);
      expect(run.code, run.stderr).toBe(0);
      const summary = JSON.parse(run.stdout);
      expect(summary.test).toBe(test);
      expect(Object.keys(summary.decisions).sort()).toEqual(['accept', 'inconclusive', 'reject']);
      expect(typeof summary.meanQueries).toBe('number');
      if (test === 'betting') expect(summary.upperThreshold).toBeUndefined();
      if (test === 'given-thresholds') {
        expect([summary.upperThreshold, summary.lowerThreshold]).toEqual([5, -2]);
        expect(summary.guarantee).toMatch(/^given-thresholds: no error guarantee; thresholds given by hand/);
      }
      if (test === 'betting') expect(summary.guarantee).toMatch(/at any stopping time/);
    }
  });

  it(
    'exits 2 naming the flag: upper <= lower, one of --upper/--lower, logits without bounds, a malformed ' +
      '--logit-bounds',
    () => {
      const crossed = spawnCliSync(['audit', '--synthetic', pool, '--seed', '1', '--upper', '1', '--lower', '2']);
      expect(crossed.code).toBe(2);
      expect(crossed.stderr).toMatch(/--thresholds \(or --upper\/--lower\): expected upper greater than lower/);
      const calibratedByHand = spawnCliSync([
        'audit',
        '--synthetic',
        pool,
        '--seed',
        '1',
        '--test',
        'calibrated-glr',
        '--upper',
        '5',
        '--lower',
        '-2',
      ]);
      expect(calibratedByHand.code).toBe(2);
      expect(calibratedByHand.stderr).toMatch(
        /given \{upper, lower\}: test given-thresholds, without an error guarantee/,
      );
      expect(spawnCliSync(['audit', '--synthetic', pool, '--seed', '1', '--upper', '3']).stderr).toMatch(
        /--lower: expected both --upper and --lower/,
      );
      expect(
        spawnCliSync(['audit', '--synthetic', pool, '--seed', '1', '--access', 'logit', '--test', 'betting']).stderr,
      ).toMatch(/--logit-bounds: expected declared bounds/);
      expect(
        spawnCliSync([
          'audit',
          '--synthetic',
          pool,
          '--seed',
          '1',
          '--access',
          'logit',
          '--test',
          'betting',
          '--logit-bounds',
          '3',
        ]).stderr,
      ).toMatch(/--logit-bounds: expected two numbers LOWER,UPPER/);
    },
  );
});
