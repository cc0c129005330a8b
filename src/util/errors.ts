/**
 * The one error type for bad input: a config, a pool file, a CSV row, a CLI flag.
 * The CLI turns it into a message on stderr and exit code 2; anything else is an
 * internal failure (exit 1, with the stack).
 */
export class InputError extends Error {
  readonly exitCode = 2;
  constructor(message: string) {
    super(message);
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

/** Formats a value the way the user wrote it, for error messages. */
export function describeFound(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  try {
    const text = JSON.stringify(value);
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  } catch {
    return String(value);
  }
}

/** Builds an InputError that names where, what was expected and what was found. */
export function inputError(problem: InputProblem): InputError {
  return new InputError(
    `${problem.where}: expected ${problem.expected}, found ${describeFound(problem.found)}`,
  );
}

export function isInputError(error: unknown): error is InputError {
  return error instanceof InputError;
}
