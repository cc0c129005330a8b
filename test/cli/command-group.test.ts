import { describe, expect, it } from 'vitest';
import { runCliInProcess, spawnCliSync } from '../helpers/cli.js';

// Before commandGroup, each group was declared as "NAME <command>" and yargs answered a
// missing subcommand with "Not enough non-option arguments: got 0, need at least 1".
describe('commandGroup(name, describe, subcommands) through fairaudit', () => {
  for (const group of ['data', 'models', 'pir', 'respir', 'bench']) {
    it(`fairaudit ${group} with no subcommand exits 2 and points to --help`, async () => {
      const { code, stderr } = await runCliInProcess([group]);
      expect(code).toBe(2);
      expect(stderr).toContain(`${group} needs a subcommand; see "fairaudit ${group} --help"`);
    });
  }
});

// --help ends the process (yargs exits after printing), so it runs in a child.
describe('fairaudit GROUP --help (spawned)', () => {
  it('fairaudit data --help lists the subcommands the group registers', () => {
    const { code, stdout } = spawnCliSync(['data', '--help']);
    expect(code).toBe(0);
    for (const subcommand of ['list', 'info', 'fetch']) expect(stdout).toContain(`fairaudit data ${subcommand}`);
  });
});
