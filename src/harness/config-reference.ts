import { describeExpected, type Schema } from '../util/schema.js';
import { envelopeSchema } from './config.js';
import { kindRunners } from './kind-runners.js';

function cell(text: string): string {
  return text.replaceAll('\n', ' ');
}

function defaultText(s: Schema): string {
  if (s.default !== undefined) return `\`${JSON.stringify(s.default)}\``;
  if (s.optional) return 'optional';
  return '**required**';
}

function rows(s: Schema, prefix: string, out: string[]): void {
  if (s.type !== 'object') return;
  for (const [key, property] of Object.entries(s.properties)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    const inChoice = (s.exactlyOneOf as string[] | undefined)?.includes(key) ?? false;
    const status = inChoice ? `one of ${(s.exactlyOneOf as string[]).join(' / ')}` : defaultText(property);
    const expected = property.type === 'object' ? 'a mapping' : describeExpected(property);
    out.push(`- \`${path}\` (${cell(expected)}; ${status}): ${cell(property.description)}`);
    if (property.type === 'object' && Object.keys(property.properties).length > 0) {
      rows(property, path, out);
    }
  }
}

/**
 * configReference() renders the reference of every config key as Markdown, generated
 * from envelopeSchema and each registered kind's settings schema and outcome columns,
 * so the documentation cannot drift from what validation accepts. It is committed as
 * docs/config-reference.md (regenerate with `bin/fairaudit plan --reference >
 * docs/config-reference.md`; a test checks that the file is up to date).
 */
export function configReference(): string {
  const out: string[] = [
    '# Config reference',
    '',
    '<!-- Generated from the schemas by `bin/fairaudit plan --reference > docs/config-reference.md`; do not edit ' +
      'by hand. -->',
    '',
    'An experiment config is one YAML file. Any setting can be overridden on the command line with',
    '`--set key=value` (the value is read as YAML), and any setting can be varied with a `grid` entry',
    '(`--set grid.key=[v1,v2]`). Unknown keys, wrong types and out-of-range values stop with exit code 2',
    'and a message naming the file, line, key path, what was expected and what was found.',
    '',
    '## Top-level keys',
    '',
    'Each key: `key` (what is expected; its default, or **required** or optional): what it means.',
    '',
  ];
  rows(envelopeSchema, '', out);
  // A setting row or outcome column identical to one of an earlier kind is named, not repeated.
  const seen = new Map<string, string>();
  const newRows = (all: readonly string[], kindName: string): string[] => {
    const fresh: string[] = [];
    const repeated = new Map<string, string[]>();
    for (const row of all) {
      const first = seen.get(row);
      if (first === undefined) {
        seen.set(row, kindName);
        fresh.push(row);
      } else repeated.set(first, [...(repeated.get(first) ?? []), row.slice(2, row.indexOf(' ('))]);
    }
    const notes = [...repeated].map(([first, names]) => `As in kind \`${first}\`: ${names.join(', ')}.`);
    return [...fresh, ...(notes.length > 0 ? ['', ...notes] : [])];
  };
  for (const kind of kindRunners()) {
    out.push(
      '',
      `## Kind \`${kind.name}\``,
      '',
      kind.description,
      '',
      '### Settings (`settings.*`, or `grid.*` to vary them)',
      '',
    );
    const settingRows: string[] = [];
    rows(kind.settings, '', settingRows);
    out.push(...newRows(settingRows, kind.name));
    out.push('', '### Outcome columns (added to each row of results.arrow)', '');
    const columnRows = kind.outcomeColumns.map(
      (column) => `- \`${column.name}\` (${column.type}): ${cell(column.description)}`,
    );
    out.push(...newRows(columnRows, kind.name));
  }
  return `${out.join('\n')}\n`;
}
