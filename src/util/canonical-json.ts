/**
 * canonicalJson(value) serialises plain data (objects, arrays, strings, numbers,
 * booleans, null) as JSON with object keys sorted at every depth, so two values that
 * differ only in key order (e.g. the same YAML written in another order) give the
 * same text. Non-finite numbers are written as strings ("NaN", "Infinity").
 * Runs in O(n log n) in the number of keys.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : JSON.stringify(String(value));
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(',')}}`;
  }
  throw new Error(`canonicalJson: cannot serialise a ${typeof value}`);
}
