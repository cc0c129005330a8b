import type { Document } from 'yaml';
import { describeFound, InputError } from './errors.js';
import { assertPrototypeSafe, withoutPrototypes } from './prototype-safe.js';

/**
 * The most alias expansions a YAML document may use (the yaml package's
 * `maxAliasCount` option of toJS, whose default is 100): a config may reuse a pool
 * recipe with an anchor a few times, but the billion-laughs document (aliases of
 * aliases, 9^9 strings) is refused instead of exhausting memory.
 */
export const MAX_YAML_ALIASES = 1000;

/**
 * parseJsonUntrusted(text, where) parses JSON from a user (a flag, a JSONL line, a
 * layout or a record file) into plain data without prototypes: InputError naming
 * `where` for a syntax error, for a `__proto__`, `constructor` or `prototype` key at
 * any depth (naming its key path), or for nesting deeper than MAX_NESTING.
 * O(length of text).
 */
export function parseJsonUntrusted(text: string, where: string, expected = 'valid JSON'): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InputError(`${where}: expected ${expected}, found ${describeFound(text)} (${(error as Error).message})`);
  }
  assertPrototypeSafe(value, where);
  return withoutPrototypes(value);
}

/**
 * yamlDocumentToData(document, where) turns a parsed YAML document (yaml's
 * parseDocument, after its errors were checked) into plain data without prototypes,
 * expanding at most MAX_YAML_ALIASES aliases: InputError naming `where` for the
 * billion-laughs (yaml throws a ReferenceError, "Excessive alias count"), for a
 * reserved key (naming its key path) or for nesting deeper than MAX_NESTING.
 * O(size of the expanded data).
 */
export function yamlDocumentToData(document: Document, where: string): unknown {
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (error) {
    if (error instanceof ReferenceError || error instanceof RangeError) {
      throw new InputError(
        `${where}: expected YAML whose aliases expand to at most ${MAX_YAML_ALIASES} nodes, found more ` +
          `(${error.message.split('\n')[0]})`,
      );
    }
    throw error;
  }
  assertPrototypeSafe(value, where);
  return withoutPrototypes(value);
}
