import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/cli.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';

/** A folder holding "prior results": the bytes every refused command must leave as they are. */
function priorResults(): { folder: string; unchanged: () => boolean } {
  const folder = join(temporaryFolder('fairaudit-prior-'), 'results');
  mkdirSync(folder);
  writeFileSync(join(folder, 'results.arrow'), 'prior bytes');
  writeFileSync(join(folder, 'run.json'), '{"prior": true}');
  return {
    folder,
    unchanged: () =>
      readFileSync(join(folder, 'results.arrow'), 'utf8') === 'prior bytes' &&
      readFileSync(join(folder, 'run.json'), 'utf8') === '{"prior": true}',
  };
}

describe('requireOptionValues(command): a flag without its value is exit 2, never the default', () => {
  it(
    'run CONFIG --threads (no value): exit 2 naming --threads, prior results untouched (it ran with one thread ' +
      'per core before)',
    async () => {
      const prior = priorResults();
      const { code, stderr } = await runCliInProcess([
        'run',
        'configs/quickstart.yaml',
        '--out',
        prior.folder,
        '--threads',
      ]);
      expect(code).toBe(2);
      expect(stderr).toMatch(/^fairaudit: Not enough arguments following: threads\n/);
      expect(prior.unchanged()).toBe(true);
    },
  );

  it(
    'run CONFIG --out (no value) and --out "": exit 2 naming --out (it wrote into the current folder ' + 'before)',
    async () => {
      const alone = await runCliInProcess(['run', 'configs/quickstart.yaml', '--out']);
      expect(alone.code).toBe(2);
      expect(alone.stderr).toMatch(/Not enough arguments following: out/);
      const empty = await runCliInProcess(['run', 'configs/quickstart.yaml', '--out', '']);
      expect(empty.code).toBe(2);
      expect(empty.stderr).toBe(
        'fairaudit: --out: expected a folder path (or no --out: results/<experiment>), found "" (which would be ' +
          'the current folder)\n',
      );
    },
  );

  it('audit --seed and pir serve --pool (a subcommand) without a value: exit 2', async () => {
    const audit = await runCliInProcess(['audit', '--pool', 'test/fixtures/pools/small.csv', '--seed']);
    expect(audit.code).toBe(2);
    expect(audit.stderr).toMatch(/Not enough arguments following: seed/);
    const serve = await runCliInProcess(['pir', 'serve', '--pool']);
    expect(serve.code).toBe(2);
    expect(serve.stderr).toMatch(/Not enough arguments following: pool/);
  });

  it('flags with values and boolean flags still work: plan CONFIG --set replicates=3 --json', async () => {
    const { code, stdout } = await runCliInProcess([
      'plan',
      'configs/quickstart.yaml',
      '--set',
      'replicates=3',
      '--json',
    ]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).tasks).toBe(36);
  });
});

describe('fairaudit merge FOLDERS --out DIR onto one of FOLDERS', () => {
  it('exit 2 naming --out, the shard left as it was (the merge overwrote it before)', async () => {
    const prior = priorResults();
    const other = join(prior.folder, '..', 'other');
    const { code, stderr } = await runCliInProcess(['merge', prior.folder, other, '--out', `${prior.folder}/`]);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `fairaudit: --out: expected a folder other than the shard folders being merged, found "${prior.folder}/" ` +
        `(the shard "${prior.folder}")\n`,
    );
    expect(prior.unchanged()).toBe(true);
  });
});
