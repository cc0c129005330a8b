import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliReference } from '../../src/cli/cli-reference.js';
import { commands } from '../../src/cli/commands/index.js';
import { withReferenceCommand } from '../../src/cli/commands/reference.js';
import { builtInKinds } from '../../src/kinds/index.js';
import { packageRoot } from '../../src/util/paths.js';
import { ROOMS } from '../architecture/rooms.js';
import { GENERATED_SECTIONS, kindTable, withSection } from './generated-sections.js';

const root = packageRoot();
const rewrite = process.env.FAIRAUDIT_WRITE_DOCS === '1';

describe('generated sections of the docs equal their generators', () => {
  for (const section of GENERATED_SECTIONS) {
    it(
      `${section.page}, section "${section.name}" (regenerate: FAIRAUDIT_WRITE_DOCS=1 npx vitest run ` + `test/docs)`,
      () => {
        const path = join(root, section.page);
        const text = readFileSync(path, 'utf8');
        const expected = withSection(text, section.name, section.generate());
        if (rewrite) writeFileSync(path, expected);
        expect(text).toBe(expected);
      },
    );
  }

  it('the kind table names every built-in kind, and the room table every room', () => {
    const kinds = kindTable();
    for (const kind of builtInKinds) expect(kinds).toContain(`| \`${kind.name}\` |`);
    expect(builtInKinds.length).toBeGreaterThanOrEqual(4);
    const contracts = readFileSync(join(root, 'docs', 'contracts.md'), 'utf8');
    for (const room of ROOMS) expect(contracts).toContain(`\`${room.path}\``);
  });
});

describe('docs/cli-reference.md', () => {
  it('equals cliReference() (regenerate: bin/fairaudit reference cli > docs/cli-reference.md)', () => {
    expect(readFileSync(join(root, 'docs', 'cli-reference.md'), 'utf8')).toBe(
      cliReference(withReferenceCommand(commands)),
    );
  });

  it('lists every command, subcommand and flag the command line parses, with types and defaults', () => {
    const text = cliReference(withReferenceCommand(commands));
    for (const heading of [
      '## `fairaudit audit`',
      '## `fairaudit bench glr`',
      '## `fairaudit pir audit`',
      '## `fairaudit reference <what>`',
    ]) {
      expect(text).toContain(heading);
    }
    expect(text).toContain('- `--tolerance` (number; default `0.05`)');
    expect(text).toContain('- `--access` (`decision` | `score` | `logit`; default `decision`)');
    expect(text).not.toContain('- `--help`');
  });

  it('follows the yargs definitions: a flag added to a command appears in the reference', () => {
    const extra = {
      command: 'extra <thing>',
      describe: 'A command made for this test',
      builder: (yargs: import('yargs').Argv) =>
        yargs
          .positional('thing', { type: 'string', describe: 'what to act on' })
          .option('level', { type: 'number', default: 3, choices: [1, 3], describe: 'how much' }),
      handler: () => {},
    };
    const text = cliReference([extra]);
    expect(text).toContain('## `fairaudit extra <thing>`');
    expect(text).toContain('- `thing` (positional) (string): what to act on');
    expect(text).toContain('- `--level` (`1` | `3`; default `3`): how much');
  });
});
