import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess as runCli } from '../helpers/cli.js';
import { temporaryFolder, writeText } from './helpers.js';

const VALID = `experiment: errors
kind: sequential-audit
seed: 11
replicates: 5
settings:
  metric: sp
  access: decision
  tolerance: 0.05
  budget: 500
  pool:
    name: one
    synthetic:
      size: 2000
      decisionRate: [0.4, 0.35]
`;

interface Case {
  title: string;
  yaml: string;
  extra?: string[];
  /** Fragments the message must contain, in order. */
  says: string[];
}

const cases: Case[] = [
  {
    title: 'a YAML syntax error names the line',
    yaml: VALID.replace('decisionRate: [0.4, 0.35]', 'decisionRate: [0.4, 0.35'),
    says: ['config.yaml:', 'expected valid YAML'],
  },
  {
    title: 'a duplicated key',
    yaml: VALID.replace('replicates: 5', 'replicates: 5\nreplicates: 6'),
    says: ['config.yaml:5', 'expected valid YAML', 'unique'],
  },
  {
    title: 'a list instead of a mapping',
    yaml: '- experiment: x\n',
    says: ['config.yaml', 'expected a YAML mapping', 'found [{"experiment":"x"}]'],
  },
  {
    title: 'an unknown top-level key with a suggestion',
    yaml: VALID.replace('replicates: 5', 'replicate: 5'),
    says: ['config.yaml:4: replicate', 'did you mean "replicates"?', 'found the unknown key "replicate"'],
  },
  {
    title: 'a missing experiment name',
    yaml: VALID.replace('experiment: errors\n', ''),
    says: ['experiment', 'expected a string', 'found nothing (the key is required)'],
  },
  {
    title: 'an experiment name that cannot be a folder name',
    yaml: VALID.replace('experiment: errors', 'experiment: My Experiment'),
    says: ['config.yaml:1: experiment', 'lower-case letters', 'found "My Experiment"'],
  },
  {
    title: 'a misspelt kind',
    yaml: VALID.replace('kind: sequential-audit', 'kind: sequential-audti'),
    says: ['config.yaml:2: kind', 'did you mean "sequential-audit"?', 'found "sequential-audti"'],
  },
  {
    title: 'zero replicates',
    yaml: VALID.replace('replicates: 5', 'replicates: 0'),
    says: ['config.yaml:4: replicates', 'expected an integer in [1, 100000000]', 'found 0'],
  },
  {
    title: 'a fractional replicate count',
    yaml: VALID.replace('replicates: 5', 'replicates: 2.5'),
    says: ['replicates', 'expected an integer', 'found 2.5'],
  },
  {
    title: 'a negative seed',
    yaml: VALID.replace('seed: 11', 'seed: -3'),
    says: ['config.yaml:3: seed', 'a non-negative integer or a non-empty string', 'found number -3'],
  },
  {
    title: 'a misspelt setting',
    yaml: VALID.replace('tolerance: 0.05', 'tolerence: 0.05'),
    says: ['config.yaml:8: settings.tolerence', 'did you mean "tolerance"?', 'found the unknown key "tolerence"'],
  },
  {
    title: 'a tolerance out of range',
    yaml: VALID.replace('tolerance: 0.05', 'tolerance: 1.5'),
    says: ['config.yaml:8: settings.tolerance', 'expected a number in (0, 1)', 'found 1.5'],
  },
  {
    title: 'a misspelt metric value',
    yaml: VALID.replace('metric: sp', 'metric: eq'),
    says: ['config.yaml:6: settings.metric', 'one of "sp", "eo" (did you mean "eo"?)', 'found "eq"'],
  },
  {
    title: 'a budget of the wrong type',
    yaml: VALID.replace('budget: 500', 'budget: lots'),
    says: ['config.yaml:9: settings.budget', 'expected an integer in [1, 50000000]', 'found the string "lots"'],
  },
  {
    title: 'a pool given both as a file and as a recipe',
    yaml: VALID.replace('    name: one\n', '    name: one\n    file: pool.arrow\n'),
    says: ['settings.pool', 'exactly one of the keys file, synthetic', 'found file and synthetic'],
  },
  {
    title: 'no pool at all',
    yaml: VALID.slice(0, VALID.indexOf('  pool:')),
    says: [
      'settings.pool',
      'expected a mapping with exactly one of file, synthetic',
      'found nothing (the key is required)',
    ],
  },
  {
    title: 'a per-group rate list of the wrong length',
    yaml: VALID.replace('decisionRate: [0.4, 0.35]', 'decisionRate: [0.4]'),
    says: [
      'config.yaml:14: settings.pool.synthetic.decisionRate',
      'a list of 2 values',
      'found a list of 1 values [0.4]',
    ],
  },
  {
    title: 'a synthetic recipe that cannot be realised',
    yaml: VALID.replace(
      'decisionRate: [0.4, 0.35]',
      'labelRate: [0.9, 0.9]\n      truePositiveRate: [1, 1]\n      decisionRate: [0.5, 0.5]',
    ),
    says: ['settings.pool.synthetic.decisionRate', 'fits its label rate 0.9', 'found [0.5,0.5]'],
  },
  {
    title: 'error levels whose thresholds cross',
    yaml: VALID.replace('budget: 500', 'budget: 500\n  alpha: 0.6\n  beta: 0.5'),
    says: ['settings.beta', 'alpha + beta < 1', 'found 0.5'],
  },
  {
    title: 'a misspelt grid key',
    yaml: `${VALID}grid:\n  tolerence: [0.02, 0.05]\n`,
    says: ['config.yaml:16: grid.tolerence', 'did you mean "tolerance"?'],
  },
  {
    title: 'a grid entry that is not a list',
    yaml: `${VALID}grid:\n  tolerance: 0.05\n`,
    says: ['config.yaml:16: grid.tolerance', 'expected a non-empty list of values', 'found 0.05'],
  },
  {
    title: 'an out-of-range grid value names its index',
    yaml: `${VALID}grid:\n  tolerance: [0.02, 2]\n`,
    says: ['config.yaml:16: grid.tolerance[1]', 'expected a number in (0, 1)', 'found 2'],
  },
  {
    title: 'a repeated grid value',
    yaml: `${VALID}grid:\n  budget: [100, 100]\n`,
    says: ['grid.budget[1]', 'different from one another', 'found 100'],
  },
  {
    title: 'two pools of a grid with the same name',
    yaml:
      `${VALID}grid:\n  pool:\n    - { name: same, synthetic: { decisionRate: [0.4, 0.3] } }\n    - { name: ` +
      `same, synthetic: { decisionRate: [0.4, 0.2] } }\n`,
    says: ['grid.pool[1]', 'a label different from item 0', 'found "same" twice'],
  },
  {
    title: 'a --set value out of range names the flag',
    yaml: VALID,
    extra: ['--set', 'budget=-5'],
    says: ['--set budget=-5: settings.budget', 'expected an integer in [1, 50000000]', 'found -5'],
  },
  {
    title: 'a misspelt --set key',
    yaml: VALID,
    extra: ['--set', 'budgt=5'],
    says: ['--set budgt=5: settings.budgt', 'did you mean "budget"?'],
  },
  {
    title: 'an unknown dotted --set key (it was blamed on the settings line of the config file)',
    yaml: VALID,
    extra: ['--set', 'foo.bar=1'],
    says: ['fairaudit: --set foo.bar=1: settings.foo', 'found the unknown key "foo"'],
  },
  {
    title: 'a --set that makes half of a mapping (thresholds.upper without lower)',
    yaml: VALID,
    extra: ['--set', 'thresholds.upper=3'],
    says: ['fairaudit: --set thresholds.upper=3: settings.thresholds.lower', 'expected a number'],
  },
  {
    title: 'a --set without a value',
    yaml: VALID,
    extra: ['--set', 'budget'],
    says: ['--set budget', 'expected key=value'],
  },
  {
    title: 'a --set grid value out of range',
    yaml: VALID,
    extra: ['--set', 'grid.alpha=[0.05,1.2]'],
    says: ['--set grid.alpha=[0.05,1.2]: grid.alpha[1]', 'expected a number in (0, 1)', 'found 1.2'],
  },
];

describe('fairaudit plan CONFIG with a malformed config', () => {
  for (const c of cases) {
    it(`${c.title}: exit 2 and a message naming file, key, expected and found`, async () => {
      const folder = temporaryFolder();
      const file = writeText(folder, 'config.yaml', c.yaml);
      const result = await runCli(['plan', file, ...(c.extra ?? [])]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      let from = 0;
      for (const fragment of c.says) {
        const at = result.stderr.indexOf(fragment, from);
        expect(at, `"${fragment}" after position ${from} in: ${result.stderr}`).toBeGreaterThanOrEqual(0);
        from = at + fragment.length;
      }
    });
  }

  it('a missing config file: exit 2 naming the file', async () => {
    const result = await runCli(['plan', '/nonexistent/config.yaml']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('/nonexistent/config.yaml: expected a readable YAML config file, found ENOENT');
  });
});

describe('fairaudit run CONFIG with bad input writes nothing', () => {
  const bad: [string, string, string[], string][] = [
    ['a misspelt setting', VALID.replace('tolerance: 0.05', 'tolerence: 0.05'), [], 'did you mean "tolerance"?'],
    [
      'a pool file that does not exist',
      VALID.replace('    synthetic:\n      size: 2000\n      decisionRate: [0.4, 0.35]\n', '    file: missing.arrow\n'),
      [],
      'missing.arrow',
    ],
    ['--threads 0', VALID, ['--threads', '0'], '--threads: expected an integer in [1, 1024], found 0'],
    ['--shard 5/4', VALID, ['--shard', '5/4'], '--shard: expected i/n with 1 ≤ i ≤ n'],
  ];
  for (const [title, yaml, extra, says] of bad) {
    it(`${title}: exit 2, the message, and no output folder`, async () => {
      const folder = temporaryFolder();
      const file = writeText(folder, 'config.yaml', yaml);
      const out = join(folder, 'out');
      const result = await runCli(['run', file, '--out', out, '--quiet', ...extra]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(says);
      expect(existsSync(out)).toBe(false);
    });
  }
});
