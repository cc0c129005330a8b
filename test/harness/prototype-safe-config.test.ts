import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFromObject, parseConfig, parseOverride } from '../../src/harness/config.js';
import { runCliInProcess } from '../helpers/cli.js';

const BASE =
  'experiment: proto\nkind: sequential-audit\nseed: 1\nreplicates: 2\nsettings:\n  pool: { synthetic: { size: ' +
  '100, decisionRate: [0.4, 0.3] } }\n';

describe('parseOverride(text) refuses keys that reach a prototype', () => {
  it('reads ordinary flags', () => {
    expect(parseOverride('budget=2000')).toEqual({
      path: ['settings', 'budget'],
      value: 2000,
      flag: '--set budget=2000',
    });
    expect(parseOverride('grid.tolerance=[0.02, 0.05]').value).toEqual([0.02, 0.05]);
  });
  it('refuses __proto__, constructor and prototype anywhere in the key path, naming the flag and key path', () => {
    expect(() => parseOverride('__proto__.outDirectory=/tmp/x')).toThrow(
      '--set __proto__.outDirectory=/tmp/x: __proto__: expected a setting key, found the reserved key ' +
        '"__proto__" (__proto__, constructor and prototype are refused)',
    );
    expect(() => parseOverride('settings.constructor.prototype.x=1')).toThrow(
      /--set settings\.constructor\.prototype\.x=1: settings\.constructor: /,
    );
    expect(() => parseOverride('grid.prototype=[1]')).toThrow(/grid\.prototype: expected a setting key/);
  });
  it('refuses them inside the value, and aliases that expand too far', () => {
    expect(() => parseOverride('pool={__proto__: {x: 1}}')).toThrow(
      /--set pool=\{__proto__: \{x: 1\}\}: __proto__: expected a setting key/,
    );
    // The billion-laughs value: nine levels of nine aliases each, 9^9 strings once expanded.
    const levels = ['a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let level = 1; level <= 9; level++)
      levels.push(
        `a${level}: &a${level} [${Array(9)
          .fill(`*a${level - 1}`)
          .join(', ')}]`,
      );
    const laughs = `budget={${levels.join(', ')}}`;
    expect(() => parseOverride(laughs)).toThrow(/expected YAML whose aliases expand to at most 1000 nodes/);
  });
});

describe('loadConfig / configFromObject: settings without prototypes', () => {
  it('refuses __proto__ and constructor keys in YAML with exit-2 errors naming the key path', () => {
    expect(() => parseConfig(`${BASE}  __proto__: { budget: 1 }\n`, 'p.yaml')).toThrow(
      /p\.yaml: settings\.__proto__: expected a setting key/,
    );
    expect(() => parseConfig(`${BASE}  constructor: 1\n`, 'p.yaml')).toThrow(
      /p\.yaml: settings\.constructor: expected a setting key/,
    );
  });
  it('refuses them in an object built in code', () => {
    const raw = JSON.parse(
      '{"experiment":"proto","kind":"sequential-audit","seed":1,' +
        '"settings":{"pool":{"synthetic":{"size":100,"decisionRate":[0.4,0.3]}},"__proto__":{"budget":1}}}',
    );
    expect(() => configFromObject(raw, 'built')).toThrow(/built: settings\.__proto__: expected a setting key/);
  });
  it("builds the cells' settings without prototypes", () => {
    const settings = parseConfig(BASE, 'p.yaml').cellAt(0).settings;
    expect(Object.getPrototypeOf(settings)).toBeNull();
    expect(Object.getPrototypeOf(settings.pool)).toBeNull();
    expect((settings as Record<string, unknown>).toString).toBeUndefined();
  });
});

describe('fairaudit run CONFIG --set __proto__.outDirectory=DIR', () => {
  it(
    'exits 2 naming the flag; DIR is not written and Object.prototype stays clean (the run was redirected there ' +
      'before)',
    async () => {
      const target = join(mkdtempSync(join(tmpdir(), 'fairaudit-proto-')), 'redirected');
      const { code, stderr } = await runCliInProcess([
        'run',
        'configs/quickstart.yaml',
        '--set',
        'replicates=1',
        '--set',
        `__proto__.outDirectory=${target}`,
      ]);
      expect(code).toBe(2);
      expect(stderr).toMatch(
        new RegExp(
          String.raw`^fairaudit: --set __proto__\.outDirectory=.*: __proto__: expected a setting key, found ` +
            'the reserved key "__proto__"',
        ),
      );
      expect(existsSync(target)).toBe(false);
      expect((Object.prototype as Record<string, unknown>).outDirectory).toBeUndefined();
    },
  );
});
