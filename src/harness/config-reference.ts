import { envelopeSchema } from './config.js';
import { kindRunners } from './kind-runners.js';
import { describeExpected, type Schema } from '../util/schema.js';

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
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
    out.push(`| \`${path}\` | ${cell(expected)} | ${status} | ${cell(property.description)} |`);
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
    '<!-- Generated from the schemas by `bin/fairaudit plan --reference > docs/config-reference.md`; do not edit by hand. -->',
    '',
    'An experiment config is one YAML file. Any setting can be overridden on the command line with',
    '`--set key=value` (the value is read as YAML), and any setting can be varied with a `grid` entry',
    '(`--set grid.key=[v1,v2]`). Unknown keys, wrong types and out-of-range values stop with exit code 2',
    'and a message naming the file, line, key path, what was expected and what was found.',
    '',
    '## Top-level keys',
    '',
    '| key | expected | default | meaning |',
    '|---|---|---|---|',
  ];
  rows(envelopeSchema, '', out);
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
    out.push('| key | expected | default | meaning |', '|---|---|---|---|');
    rows(kind.settings, '', out);
    out.push(
      '',
      '### Outcome columns (added to each row of results.arrow)',
      '',
      '| column | Arrow type | meaning |',
      '|---|---|---|',
    );
    for (const column of kind.outcomeColumns)
      out.push(`| \`${column.name}\` | ${column.type} | ${cell(column.description)} |`);
  }
  return `${out.join('\n')}\n`;
}
