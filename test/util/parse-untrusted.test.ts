import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { InputError } from '../../src/util/errors.js';
import { MAX_YAML_ALIASES, parseJsonUntrusted, yamlDocumentToData } from '../../src/util/parse-untrusted.js';

/** The billion-laughs document: nine levels of nine aliases each, 9^9 strings once expanded. */
function billionLaughs(): string {
  let text = 'a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n';
  for (let level = 1; level <= 9; level++)
    text += `a${level}: &a${level} [${Array(9)
      .fill(`*a${level - 1}`)
      .join(', ')}]\n`;
  return text;
}

describe('parseJsonUntrusted(text, where, expected)', () => {
  it('parses JSON into data without prototypes', () => {
    const value = parseJsonUntrusted('{"size": 5000, "labelRate": [0.4, 0.5]}', '--synthetic') as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(value)).toBeNull();
    expect(JSON.stringify(value)).toBe('{"size":5000,"labelRate":[0.4,0.5]}');
  });

  it('refuses a __proto__ key with InputError naming where and the key path', () => {
    expect(() => parseJsonUntrusted('{"recipe": {"__proto__": {"polluted": 1}}}', '--synthetic')).toThrow(
      /^--synthetic: recipe\.__proto__: expected a setting key, found the reserved key "__proto__"/,
    );
  });

  it(
    'refuses broken JSON naming where, what was expected and the parser message, quoting at most 200 ' + 'characters',
    () => {
      const error = (() => {
        try {
          parseJsonUntrusted(`{"a": ${'1'.repeat(100_000)}`, 'cases.jsonl: line 3', 'a JSON object');
        } catch (caught) {
          return caught as InputError;
        }
      })();
      expect(error).toBeInstanceOf(InputError);
      expect(error?.message).toMatch(
        /^cases\.jsonl: line 3: expected a JSON object, found "\{\\"a\\": 1{190,}…" \(100006 characters\) \(/,
      );
      expect(error?.message.length).toBeLessThan(400);
    },
  );
});

describe('yamlDocumentToData(document, where)', () => {
  it('expands a few aliases (a pool recipe reused with an anchor)', () => {
    const data = yamlDocumentToData(
      parseDocument('base: &pool {size: 100}\ngrid: {pool: [*pool, *pool]}\n'),
      'x.yaml',
    ) as {
      grid: { pool: { size: number }[] };
    };
    expect(data.grid.pool.map((pool) => pool.size)).toEqual([100, 100]);
    expect(Object.getPrototypeOf(data.grid.pool[0])).toBeNull();
  });

  it(
    `refuses the billion-laughs document (more than ${MAX_YAML_ALIASES} alias expansions) with InputError in ` +
      `milliseconds`,
    () => {
      const started = performance.now();
      expect(() => yamlDocumentToData(parseDocument(billionLaughs()), 'laughs.yaml')).toThrow(
        /^laughs\.yaml: expected YAML whose aliases expand to at most 1000 nodes, found more \(Excessive alias count/,
      );
      expect(performance.now() - started).toBeLessThan(2000);
    },
  );

  it('refuses __proto__ and constructor keys in YAML, naming the key path', () => {
    expect(() =>
      yamlDocumentToData(parseDocument('settings:\n  __proto__:\n    outDirectory: /tmp/x\n'), 'x.yaml'),
    ).toThrow(/^x\.yaml: settings\.__proto__: expected a setting key, found the reserved key "__proto__"/);
    expect(() => yamlDocumentToData(parseDocument('grid:\n  constructor: [1]\n'), 'x.yaml')).toThrow(
      /^x\.yaml: grid\.constructor: /,
    );
  });
});
