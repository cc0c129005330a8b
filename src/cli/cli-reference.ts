import yargs, { type Argv, type CommandModule } from 'yargs';

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
  const keys = Object.keys(options.key).filter((key) => !BUILT_IN_OPTIONS.has(key) && !hidden.has(key));
  const rows = keys.map((key) => {
    const aliases = (options.alias[key] ?? []).filter((alias) => alias.length === 1).map((alias) => `-${alias}`);
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

function sectionsOf(module: CommandModule, parents: string[]): string[] {
  const { rows, subcommands } = declarationsOf(module);
  const usage = ['fairaudit', ...parents, commandString(module)].join(' ');
  const lines = [`## \`${usage}\``, '', describeText(module.describe), ''];
  if (subcommands.length > 0) {
    lines.push(`Subcommands: ${subcommands.map((sub) => `\`${commandString(sub).split(' ')[0]}\``).join(', ')}.`, '');
  }
  for (const row of rows) {
    const shown = row.default === '' ? row.type : `${row.type}; default ${row.default}`;
    lines.push(`- ${row.name} (${shown}): ${row.description}`);
  }
  if (rows.length > 0) lines.push('');
  const path = [...parents, commandString(module).split(' ')[0]];
  return [...lines, ...subcommands.flatMap((sub) => sectionsOf(sub, path))];
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
    '[config-reference.md](config-reference.md).',
    '',
  ];
  return `${[...header, ...commands.flatMap((module) => sectionsOf(module, []))].join('\n').trimEnd()}\n`;
}
