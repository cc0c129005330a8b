import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/cli.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';

// Error messages used to echo a 45 MB config value, a 4 MB CSV cell and 10 KB of
// escaped binary whole. describeFound (src/util/errors.ts) now quotes at most 200 characters.
describe('error messages quote at most ~200 characters of the offending input', () => {
  const folder = temporaryFolder('fairaudit-echo-');

  it('plan CONFIG with a 500,000-character experiment name: exit 2, a message under 500 characters', async () => {
    const config = join(folder, 'long-name.yaml');
    writeFileSync(config, `experiment: ${'X'.repeat(500_000)}\nkind: sequential-audit\nseed: 1\n`);
    const { code, stderr } = await runCliInProcess(['plan', config]);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      new RegExp(
        String.raw`long-name\.yaml:1: experiment: expected a string of lower-case letters.*found "X{200}…" ` +
          String.raw`\(500000 characters\)\n$`,
      ),
    );
    expect(stderr.length).toBeLessThan(500);
  });

  it(
    'plan CONFIG of 45 MB: exit 2 before reading it all, naming the 1 MiB cap (the value was echoed whole ' + 'before)',
    async () => {
      const config = join(folder, 'huge.yaml');
      writeFileSync(config, `experiment: ${'x'.repeat(45_000_000)}\n`);
      const { code, stderr } = await runCliInProcess(['plan', config]);
      expect(code).toBe(2);
      expect(stderr).toBe(
        `fairaudit: ${config}: expected a readable YAML config file of at most 1 MiB, found a larger file\n`,
      );
    },
  );

  it('plan CONFIG with 10 KB of escaped binary as the name: exit 2, the escapes counted against the 200', async () => {
    const config = join(folder, 'binary.yaml');
    const escaped = Array.from(
      { length: 10_000 },
      (_, i) => `\\x${((i * 37) & 0x1f).toString(16).padStart(2, '0')}`,
    ).join('');
    writeFileSync(config, `experiment: "${escaped}"\nkind: sequential-audit\nseed: 1\n`);
    const { code, stderr } = await runCliInProcess(['plan', config]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/found ".*…" \(10000 characters\)\n$/);
    expect(stderr.length).toBeLessThan(500);
  });

  it('audit --pool with a 4 MB cell: exit 2, a message under 500 characters', async () => {
    const pool = join(folder, 'huge-cell.csv');
    writeFileSync(pool, `group,label,decision\n0,1,${'2'.repeat(4_000_000)}\n`);
    const { code, stderr } = await runCliInProcess(['audit', '--pool', pool, '--seed', '1']);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /huge-cell\.csv: row 1 \(line 2\), column "decision": expected 0 or 1, found "2{200}…" \(4000000 characters\)\n$/,
    );
    expect(stderr.length).toBeLessThan(500);
  });
});

describe('configs a user can get wrong in hostile ways: exit 2 with a short message', () => {
  const folder = temporaryFolder('fairaudit-hostile-');

  it(
    'plan and run of the billion-laughs YAML: exit 2 in well under a second (a ReferenceError stack, exit 1, ' +
      'before)',
    async () => {
      let text =
        'experiment: laughs\nkind: sequential-audit\nseed: 1\nsettings:\n  a0: &a0 [lol, lol, lol, lol, lol, lol, ' +
        'lol, lol, lol]\n';
      for (let level = 1; level <= 9; level++)
        text += `  a${level}: &a${level} [${Array(9)
          .fill(`*a${level - 1}`)
          .join(', ')}]\n`;
      const config = join(folder, 'laughs.yaml');
      writeFileSync(config, text);
      for (const command of ['plan', 'run']) {
        const { code, stderr } = await runCliInProcess([command, config]);
        expect(code).toBe(2);
        expect(stderr).toMatch(
          new RegExp(
            String.raw`^fairaudit: .*laughs\.yaml: expected YAML whose aliases expand to at most 1000 nodes, ` +
              String.raw`found more \(Excessive alias count`,
          ),
        );
        expect(stderr.length).toBeLessThan(300);
      }
    },
  );

  it(
    'run of a 300-character experiment name: exit 2 naming the key (ENAMETOOLONG stack before), no folder ' + 'made',
    async () => {
      const config = join(folder, 'long-name.yaml');
      writeFileSync(
        config,
        `experiment: ${'x'.repeat(300)}\nkind: sequential-audit\nseed: 1\nsettings:\n  pool: { synthetic: { size: ` +
          `100, decisionRate: [0.4, 0.3] } }\n`,
      );
      const { code, stderr } = await runCliInProcess(['run', config]);
      expect(code).toBe(2);
      expect(stderr).toMatch(
        new RegExp(
          String.raw`long-name\.yaml:1: experiment: expected a string of lower-case letters, .*, at most 100 ` +
            String.raw`characters, found "x{200}…" \(300 characters\)\n$`,
        ),
      );
    },
  );
});
