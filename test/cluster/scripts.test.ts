import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/util/paths.js';
import { spawnCliSync } from '../helpers/cli.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';

const root = packageRoot();
const clusterFolder = join(root, 'examples', 'cluster');
const scripts = [
  ...readdirSync(clusterFolder)
    .filter((name) => name.endsWith('.sh') || name.endsWith('.sbatch'))
    .map((name) => join('examples', 'cluster', name)),
  join('test', 'helpers', 'start-slurm.sh'),
  join('.ci', 'run'),
];
const hasShellcheck = spawnSync('shellcheck', ['--version']).status === 0;

describe('the shell scripts of examples/cluster, test/helpers and .ci', () => {
  it(
    'bash -n SCRIPT: every one parses (slurm-merge.sbatch once had an unbalanced quote that only a real job ' +
      'found)',
    () => {
      expect(scripts.length).toBeGreaterThanOrEqual(6);
      for (const script of scripts) {
        const run = spawnSync('bash', ['-n', script], { cwd: root, encoding: 'utf8' });
        expect({ script, stderr: run.stderr, status: run.status }).toEqual({ script, stderr: '', status: 0 });
      }
    },
  );

  it.skipIf(!hasShellcheck)('shellcheck SCRIPT: no warning (skipped when shellcheck is not installed)', () => {
    const run = spawnSync('shellcheck', scripts, { cwd: root, encoding: 'utf8' });
    expect(run.stdout).toBe('');
    expect(run.status).toBe(0);
  });

  it('submit-slurm.sh without CONFIG and N: exit 2 with the usage, nothing submitted', () => {
    const run = spawnSync('bash', [join(clusterFolder, 'submit-slurm.sh')], { cwd: root, encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^usage: .*submit-slurm\.sh CONFIG N/);
  });

  it('submit-slurm.sh CONFIG 0: exit 2 naming N', () => {
    const run = spawnSync('bash', [join(clusterFolder, 'submit-slurm.sh'), 'configs/quickstart.yaml', '0'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/N must be a positive integer, found '0'/);
  });

  it('slurm-shards.sbatch takes the config and --set values as arguments, so values with spaces survive', () => {
    const text = readFileSync(join(clusterFolder, 'slurm-shards.sbatch'), 'utf8');
    expect(text).toMatch(/\$FAIRAUDIT run "\$CONFIG" "\$@" --shard/);
  });
});

describe('examples/cluster/local-shards.sh CONFIG N', () => {
  it(
    'local-shards.sh configs/quickstart.yaml 3 --set replicates=10: the merged results.arrow equals a single ' +
      'run byte for byte',
    () => {
      const folder = temporaryFolder('fairaudit-local-shards-');
      const env = { ...process.env, RESULTS: join(folder, 'results'), LOGS: join(folder, 'logs') };
      const small = ['--set', 'replicates=10', '--set', 'chunkSize=3'];
      const run = spawnSync(
        'bash',
        [join(clusterFolder, 'local-shards.sh'), 'configs/quickstart.yaml', '3', ...small],
        {
          cwd: root,
          encoding: 'utf8',
          env,
        },
      );
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      const single = spawnCliSync([
        'run',
        'configs/quickstart.yaml',
        ...small,
        '--out',
        join(folder, 'single'),
        '--quiet',
      ]);
      expect(single.code).toBe(0);
      const merged = readFileSync(join(folder, 'results', 'quickstart', 'results.arrow'));
      expect(merged.equals(readFileSync(join(folder, 'single', 'results.arrow')))).toBe(true);
    },
  );

  it('local-shards.sh with a shard that fails: exit 1 with that shard log, no merged results', () => {
    const folder = temporaryFolder('fairaudit-local-shards-');
    const config = join(folder, 'missing-pool.yaml');
    const yaml =
      'experiment: missing-pool\nkind: sequential-audit\nseed: 1\nreplicates: 2\nchunkSize: ' +
      '1\nsettings:\n  pool: { file: no-such-pool.csv }\n';
    writeFileSync(config, yaml);
    const env = { ...process.env, RESULTS: join(folder, 'results'), LOGS: join(folder, 'logs') };
    const run = spawnSync('bash', [join(clusterFolder, 'local-shards.sh'), config, '2'], {
      cwd: root,
      encoding: 'utf8',
      env,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/shard 1\/2 failed/);
    expect(run.stderr).toMatch(/no-such-pool\.csv: expected a readable pool file/);
    expect(existsSync(join(folder, 'results', 'missing-pool', 'results.arrow'))).toBe(false);
  });
});
