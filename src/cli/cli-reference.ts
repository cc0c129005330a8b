import yargs, { type Argv, type CommandModule } from 'yargs';
import { kindRunners } from '../harness/kind-runners.js';
import type { Schema } from '../util/schema.js';

/** What yargs' getOptions() reports of the options a builder declared (the fields read here). */
interface DeclaredOptions {
  key: Record<string, unknown>;
  boolean: string[];
  string: string[];
  number: string[];
  count: string[];
  array: string[];
  alias: Record<string, string[]>;
  default: Record<string, unknown>;
  defaultDescription: Record<string, string | undefined>;
  choices: Record<string, unknown[]>;
  demandedOptions: Record<string, unknown>;
  hiddenOptions: string[];
}

/** One option or positional of a command, as the reference prints it. */
interface ReferenceRow {
  name: string;
  type: string;
  default: string;
  description: string;
}

/** The options yargs adds to every command, left out of each command's table. */
const BUILT_IN_OPTIONS = new Set(['help', 'version']);

/** The positional names of a yargs command string ("run <config>", "merge <folders..>", "plan [config]"). */
function positionalsOf(command: string): string[] {
  return [...command.matchAll(/[<[]([^\]>.]+)(?:\.\.)?[\]>]/g)].map((match) => match[1]);
}

function commandString(module: CommandModule): string {
  const command = module.command;
  return Array.isArray(command) ? String(command[0]) : String(command ?? '');
}

function describeText(value: unknown): string {
  const text = typeof value === 'string' ? value.replace(/^__yargsString__:/, '') : '';
  return text.replace(/\s*\n\s*/g, ' ');
}

function typeOf(key: string, options: DeclaredOptions): string {
  const base = options.boolean.includes(key)
    ? 'boolean'
    : options.number.includes(key)
      ? 'number'
      : options.count.includes(key)
        ? 'count'
        : 'string';
  const choices = options.choices[key];
  const shown = choices && choices.length > 0 ? choices.map((choice) => `\`${String(choice)}\``).join(' | ') : base;
  return options.array.includes(key) ? `${shown} (repeatable)` : shown;
}

function defaultOf(key: string, options: DeclaredOptions): string {
  if (options.demandedOptions[key] !== undefined) return 'required';
  const described = options.defaultDescription[key];
  // Flags made from the settings schema show their default as JSON text ("decision", 0.05).
  if (described) return `\`${describeText(described).replace(/^"(.*)"$/, '$1')}\``;
  if (!Object.hasOwn(options.default, key)) return '';
  const value = options.default[key];
  if (value === undefined) return '';
  return `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;
}

/**
 * The options, positionals and subcommands a command's builder declares, read from a
 * fresh yargs instance the builder ran on (so the reference is what yargs parses).
 */
function declarationsOf(module: CommandModule): {
  rows: ReferenceRow[];
  subcommands: CommandModule[];
} {
  const parser = yargs([]);
  const subcommands: CommandModule[] = [];
  parser.command = ((subcommand: CommandModule) => {
    subcommands.push(subcommand);
    return parser;
  }) as unknown as Argv['command'];
  const builder = module.builder;
  const built = (typeof builder === 'function' ? (builder(parser) ?? parser) : parser.options(builder ?? {})) as Argv;
  const internals = built as unknown as {
    getOptions(): DeclaredOptions;
    getInternalMethods(): { getUsageInstance(): { getDescriptions(): Record<string, unknown> } };
  };
  const options = internals.getOptions();
  const descriptions = internals.getInternalMethods().getUsageInstance().getDescriptions();
  const positionals = positionalsOf(commandString(module));
  const hidden = new Set(options.hiddenOptions);
  // An alias (--group-col of --group-column) is shown beside its flag, not as a row of its own.
  const aliasNames = new Set(Object.values(options.alias).flat());
  const keys = Object.keys(options.key).filter(
    (key) => !BUILT_IN_OPTIONS.has(key) && !hidden.has(key) && !aliasNames.has(key),
  );
  const rows = keys.map((key) => {
    const aliases = (options.alias[key] ?? []).map((alias) => (alias.length === 1 ? `-${alias}` : `--${alias}`));
    const name = positionals.includes(key)
      ? `\`${key}\` (positional)`
      : [`--${key}`, ...aliases].map((flag) => `\`${flag}\``).join(', ');
    return {
      name,
      type: typeOf(key, options),
      default: defaultOf(key, options),
      description: describeText(descriptions[key]),
    };
  });
  rows.sort((a, b) => Number(b.name.includes('(positional)')) - Number(a.name.includes('(positional)')));
  return { rows, subcommands };
}

/** One command's usage, description, subcommands and rows, in the order `--help` lists them. */
interface CommandSection {
  usage: string;
  describe: string;
  subcommands: string[];
  rows: ReferenceRow[];
}

function sectionsOf(module: CommandModule, parents: string[]): CommandSection[] {
  const { rows, subcommands } = declarationsOf(module);
  const section = {
    usage: ['fairaudit', ...parents, commandString(module)].join(' '),
    describe: describeText(module.describe),
    subcommands: subcommands.map((sub) => commandString(sub).split(' ')[0]),
    rows,
  };
  const path = [...parents, commandString(module).split(' ')[0]];
  return [section, ...subcommands.flatMap((sub) => sectionsOf(sub, path))];
}

/** Every setting description of the registered kinds, mapped to "see setting `key.path`" (the first kind's). */
function settingHomes(): Map<string, string> {
  const homes = new Map<string, string>();
  const visit = (schema: Schema, kind: string, prefix: string): void => {
    if (schema.type !== 'object') return;
    for (const [key, property] of Object.entries(schema.properties)) {
      const path = prefix === '' ? key : `${prefix}.${key}`;
      if (property.description !== '' && !homes.has(property.description)) {
        homes.set(property.description, `see setting \`${path}\``);
      }
      visit(property, kind, path);
    }
  };
  for (const kind of kindRunners()) visit(kind.settings, kind.name, '');
  return homes;
}

/**
 * A flag made from a setting (its description is the setting's, perhaps with the expected
 * values after it or a LOWER,UPPER shape before it) points to the setting's row in the config
 * reference instead of repeating its description.
 */
function withSettingHomes(rows: readonly ReferenceRow[], homes: ReadonlyMap<string, string>): ReferenceRow[] {
  const expected = / \((?:a|an|comma-separated)\b[^()]*(?:\([^()]*\)[^()]*)*\)$/;
  return rows.map((row) => {
    const text = row.description;
    const shape = /^[A-Z,]+: /.exec(text)?.[0] ?? '';
    const home = homes.get(text.replace(expected, '')) ?? homes.get(text.slice(shape.length).replace(expected, ''));
    if (home === undefined) return row;
    const prefix = homes.has(text.replace(expected, '')) ? '' : shape;
    return { ...row, description: `${prefix}${home}` };
  });
}

function rowLine(row: ReferenceRow): string {
  const shown = row.default === '' ? row.type : `${row.type}; default ${row.default}`;
  return `- ${row.name} (${shown}): ${row.description}`;
}

/**
 * The lines of the rows that several commands declare with the same name, type, default and
 * description: each is printed once, under "Shared flags", and a command names it only.
 */
function sharedRowLines(sections: readonly CommandSection[]): Set<string> {
  const counts = new Map<string, number>();
  for (const section of sections) {
    for (const line of new Set(section.rows.map(rowLine))) counts.set(line, (counts.get(line) ?? 0) + 1);
  }
  return new Set([...counts].filter(([, count]) => count > 1).map(([line]) => line));
}

function sectionText(section: CommandSection, shared: ReadonlySet<string>): string[] {
  const lines = [`## \`${section.usage}\``, '', section.describe, ''];
  if (section.subcommands.length > 0) {
    lines.push(`Subcommands: ${section.subcommands.map((name) => `\`${name}\``).join(', ')}.`, '');
  }
  const own = section.rows.filter((row) => !shared.has(rowLine(row)));
  const common = section.rows.filter((row) => shared.has(rowLine(row)));
  lines.push(...own.map(rowLine));
  if (common.length > 0) lines.push(`- Shared flags: ${common.map((row) => row.name).join(', ')}.`);
  if (section.rows.length > 0) lines.push('');
  return lines;
}

/**
 * cliReference(commands) is the Markdown reference of every command, subcommand,
 * positional and flag (type, choices, default, description), read from the yargs
 * definitions the command line itself parses with; docs/cli-reference.md is its output
 * (`bin/fairaudit reference cli > docs/cli-reference.md`), and a test keeps them equal.
 * @param commands The command modules, in the order `fairaudit --help` lists them.
 * @returns The Markdown text, ending with a newline.
 * @example
 * cliReference(commands).startsWith('# Command-line reference') // true
 */
export function cliReference(commands: readonly CommandModule[]): string {
  const header = [
    '# Command-line reference',
    '',
    'Generated from the command definitions (`bin/fairaudit reference cli > docs/cli-reference.md`);',
    'do not edit by hand. Every command also prints its own `--help`. Config keys are in',
    '[config-reference.md](config-reference.md). A flag several commands share with the same meaning',
    'is described once, under "Shared flags" at the end. A flag made from a config setting says "see',
    'setting `KEY`": its meaning, range and default are that key\'s row in config-reference.md.',
    '',
  ];
  const homes = settingHomes();
  const sections = commands
    .flatMap((module) => sectionsOf(module, []))
    .map((section) => ({ ...section, rows: withSettingHomes(section.rows, homes) }));
  const shared = sharedRowLines(sections);
  const sharedLines = [...shared].sort((a, b) => a.localeCompare(b));
  const body = sections.flatMap((section) => sectionText(section, shared));
  const tail = sharedLines.length > 0 ? ['## Shared flags', '', ...sharedLines] : [];
  return `${[...header, ...body, ...tail].join('\n').trimEnd()}\n`;
}
