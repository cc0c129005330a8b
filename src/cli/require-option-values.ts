import type { Argv, CommandModule } from 'yargs';

/** The positional names of a yargs command string ("run <config>", "merge <folders..>", "plan [config]"). */
function positionalNames(command: string | readonly string[] | undefined): Set<string> {
  const text = Array.isArray(command) ? command.join(' ') : String(command ?? '');
  return new Set([...text.matchAll(/[<[]([^\]>.]+)(?:\.\.)?[\]>]/g)].map((match) => match[1]));
}

/**
 * requireOptionValues(command) returns the command with every string and number
 * option marked requiresArg, so a flag given without its value stops with exit 2
 * ("Not enough arguments following: threads") instead of running with the default:
 * yargs reads `--threads` alone as undefined and `--out` alone as "" (the current
 * folder). Boolean flags and positionals are left alone. O(options).
 */
// biome-ignore lint/suspicious/noExplicitAny: command modules differ in their argument types
export function requireOptionValues<T extends CommandModule<any, any>>(command: T): T {
  const builder = command.builder;
  if (typeof builder !== 'function') return command;
  const positionals = positionalNames(command.command);
  return {
    ...command,
    builder: (yargs: Argv) => {
      const built = (builder(yargs) ?? yargs) as Argv;
      const options = (built as unknown as { getOptions(): { string: string[]; number: string[] } }).getOptions();
      const keys = [...new Set([...options.string, ...options.number])].filter((key) => !positionals.has(key));
      return keys.length === 0 ? built : built.requiresArg(keys);
    },
  };
}
