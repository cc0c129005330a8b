import { inputError } from '../util/errors.js';

/** The most groups a pool may have: its group codes are a Uint8Array. */
export const MAX_GROUPS = 255;

/** How the parts of an intersectional group's name are joined ("Female & Black"). */
export const INTERSECTION_JOINER = ' & ';

const DECIMAL_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A cell's group value: an integer as its decimal ("1.0" → "1"), any other text trimmed; null if not a group value. */
function groupValueOf(cell: unknown): string | null {
  if (cell === null || cell === undefined) return null;
  const text = String(cell).trim();
  if (text === '') return null;
  if (!DECIMAL_NUMBER.test(text)) return text;
  const value = Number(text);
  return Number.isSafeInteger(value) ? String(value) : null;
}

/** Orders group values: integers by value before names, names by code point. */
function compareValues(left: string, right: string): number {
  const a = DECIMAL_NUMBER.test(left) ? Number(left) : Number.NaN;
  const b = DECIMAL_NUMBER.test(right) ? Number(right) : Number.NaN;
  if (!Number.isNaN(a) && !Number.isNaN(b)) return a - b;
  if (!Number.isNaN(a)) return -1;
  if (!Number.isNaN(b)) return 1;
  return left < right ? -1 : left > right ? 1 : 0;
}

/**
 * Gives each row of a pool its group code from the cells of one group column or of
 * several (an intersection): while reading, each distinct value (tuple) gets a code in the
 * order first seen; finish() renumbers them in sorted order (integers by value, names by
 * code point, tuples part by part) and names them. A single column holding only 0 and 1 is
 * a two-group pool without names, coded by its values, exactly as pools were read before
 * groups could have names.
 */
export class GroupCoder {
  private readonly codeOf = new Map<string, number>();
  private readonly tuples: string[][] = [];

  /**
   * @param codes the pool's group column, written row by row
   * @param columns the file's columns the groups come from (one, or several for an intersection)
   * @param named true when the groups were asked for by name (groups: …), so even 0/1 values are named
   */
  constructor(
    private readonly codes: Uint8Array,
    private readonly columns: readonly string[],
    private readonly named: boolean,
  ) {}

  /** Stores the group of row from its cells (one per column), or throws naming where. */
  add(row: number, cells: readonly unknown[], where: (part: number) => string): void {
    const values = cells.map((cell, part) => {
      const value = groupValueOf(cell);
      if (value === null) {
        throw inputError({ where: where(part), expected: 'a group value (an integer or a name)', found: cell });
      }
      return value;
    });
    const key = values.join('\u001f');
    let code = this.codeOf.get(key);
    if (code === undefined) {
      code = this.tuples.length;
      if (code >= MAX_GROUPS) {
        throw inputError({
          where: where(0),
          expected:
            `at most ${MAX_GROUPS} groups in ` +
            `column${this.columns.length > 1 ? 's' : ''} ${this.columns.join(', ')}`,
          found: `a ${MAX_GROUPS + 1}th value ${values.join(INTERSECTION_JOINER)}`,
        });
      }
      this.codeOf.set(key, code);
      this.tuples.push(values);
    }
    this.codes[row] = code;
  }

  /**
   * Renumbers the codes in sorted order and returns the group names, or undefined for a
   * single 0/1 column (then the codes are the values 0 and 1). O(rows).
   * @param size the number of rows stored
   * @returns the name of each code, or undefined for a two-group 0/1 pool
   */
  finish(size: number): string[] | undefined {
    const binary = !this.named && this.tuples.every(([value]) => value === '0' || value === '1');
    const order = this.tuples.map((_, code) => code);
    if (binary) {
      const recode = Uint8Array.from(this.tuples, ([value]) => Number(value));
      for (let row = 0; row < size; row++) this.codes[row] = recode[this.codes[row]];
      return undefined;
    }
    order.sort((left, right) => {
      const a = this.tuples[left];
      const b = this.tuples[right];
      for (let part = 0; part < a.length; part++) {
        const compared = compareValues(a[part], b[part]);
        if (compared !== 0) return compared;
      }
      return 0;
    });
    const recode = new Uint8Array(order.length);
    order.forEach((code, rank) => {
      recode[code] = rank;
    });
    for (let row = 0; row < size; row++) this.codes[row] = recode[this.codes[row]];
    return order.map((code) => this.tuples[code].join(INTERSECTION_JOINER));
  }
}
