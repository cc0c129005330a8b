/**
 * The most characters of the user's input that a message quotes (describeFound). A
 * 45 MB config value, a 4 MB CSV cell or 10 KB of binary become their first characters
 * and a count.
 */
export const MAX_QUOTED_CHARACTERS = 200;

/**
 * The most characters of a whole InputError message: a backstop for messages that
 * quote input without describeFound (a file name, a key, a list of found values); long
 * enough for the longest guidance (a missing dataset lists its forms and where to get them).
 */
export const MAX_MESSAGE_CHARACTERS = 4000;

/**
 * shortenText(text, limit) returns text when it has at most limit characters, and
 * otherwise its first characters and its last few joined by a note of how many were
 * left out, in at most about limit + 40 characters. O(limit).
 */
export function shortenText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const tail = Math.min(150, Math.floor(limit / 5));
  const head = limit - tail;
  return (
    `${text.slice(0, head)} …[${text.length - head - tail} characters left ` + `out]… ${text.slice(text.length - tail)}`
  );
}

/**
 * The one error type for bad input: a config, a pool file, a CSV row, a CLI flag.
 * The CLI turns it into a message on stderr and exit code 2; anything else is an
 * internal failure (exit 1, with the stack). Messages longer than
 * MAX_MESSAGE_CHARACTERS are shortened (shortenText), so no input, however large,
 * floods the terminal.
 * @param message what was wrong, in words: where, what was expected, what was found (shortened past
 * MAX_MESSAGE_CHARACTERS)
 * @example
 * throw new InputError('pool.csv, row 12, column decision: expected 0 or 1, found 7');
 */
export class InputError extends Error {
  readonly exitCode = 2;
  constructor(message: string) {
    super(shortenText(message, MAX_MESSAGE_CHARACTERS));
    this.name = 'InputError';
  }
}

export interface InputProblem {
  /** Where: a file path, optionally with a key path, a row number or a flag. */
  where: string;
  /** What was expected, in words ("a number in (0, 1)"). */
  expected: string;
  /** What was found, as the user wrote it. */
  found: unknown;
}

/** Quotes text as JSON (control characters escaped) in at most `limit` characters between the quotes, noting how long
 * it was when cut. O(limit). */
function quoteCapped(text: string, limit: number): string {
  let inside = '';
  let taken = 0;
  for (const character of text) {
    const escaped = JSON.stringify(character).slice(1, -1);
    if (inside.length + escaped.length > limit) break;
    inside += escaped;
    taken += character.length;
  }
  return taken === text.length ? `"${inside}"` : `"${inside}…" (${text.length} characters)`;
}

/**
 * describeFound(value) formats a value the way the user wrote it, for error messages:
 * strings quoted as JSON, other values as JSON, at most MAX_QUOTED_CHARACTERS of either
 * (a longer one is cut and its length given). O(MAX_QUOTED_CHARACTERS) for strings;
 * other values are serialised whole first.
 */
export function describeFound(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return quoteCapped(value, MAX_QUOTED_CHARACTERS);
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > MAX_QUOTED_CHARACTERS ? `${text.slice(0, MAX_QUOTED_CHARACTERS - 3)}...` : text;
}

/** Builds an InputError that names where, what was expected and what was found. */
export function inputError(problem: InputProblem): InputError {
  return new InputError(`${problem.where}: expected ${problem.expected}, found ${describeFound(problem.found)}`);
}

/** Why the file system refused a write, in words, for the errno codes a user can cause. */
const WRITE_PROBLEMS: Readonly<Record<string, string>> = {
  ENOTDIR: 'a file where a folder should be (ENOTDIR)',
  EEXIST: 'a file where a folder should be (EEXIST)',
  EISDIR: 'a folder where a file should be (EISDIR)',
  EACCES: 'no permission to write there (EACCES)',
  EPERM: 'no permission to write there (EPERM)',
  EROFS: 'a read-only file system (EROFS)',
  ENAMETOOLONG: 'a name too long for the file system (ENAMETOOLONG)',
  ENOSPC: 'no space left on the device (ENOSPC)',
  EDQUOT: 'the disk quota used up (EDQUOT)',
  ENOENT: 'a path that cannot be created (ENOENT)',
};

/**
 * writeProblem(path, error) turns a failed write or mkdir under a path the user chose
 * (an output folder, a report, a cache) into an InputError naming the path and the
 * reason in words ("no permission to write there (EACCES)"), or returns undefined for
 * other errors (internal failures, which keep their stack). O(1).
 */
export function writeProblem(path: string, error: unknown): InputError | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const found = code === undefined ? undefined : WRITE_PROBLEMS[code];
  return found === undefined
    ? undefined
    : new InputError(`${path}: expected a place fairaudit can write, found ${found}`);
}

export function isInputError(error: unknown): error is InputError {
  return error instanceof InputError;
}
