import { PASS_SLACK } from '../../respir/oblivious-audit-simulation.js';

type Columns = Readonly<Record<string, ArrayLike<number | string>>>;

/** The value of column `name` at `row` (undefined when the column is absent). */
function cell(columns: Columns, name: string, row: number): number {
  return (columns[name] as ArrayLike<number> | undefined)?.[row] as number;
}

/** Why a 0/1 flag column holds something else, or null. */
function flagProblem(columns: Columns, row: number, names: readonly string[]): string | null {
  for (const name of names) {
    const value = cell(columns, name, row);
    if (value !== 0 && value !== 1) return `${name} ${value}: expected 0 or 1`;
  }
  return null;
}

/** Why a probability column holds something outside [0, 1], or null. */
function probabilityProblem(columns: Columns, row: number, names: readonly string[]): string | null {
  for (const name of names) {
    const value = cell(columns, name, row);
    if (!(value >= 0 && value <= 1)) return `${name} ${value}: expected a probability in [0, 1]`;
  }
  return null;
}

/** Why pass_target is not the cell's 1 − δ, or null. */
function passTargetProblem(settings: Readonly<Record<string, unknown>>, columns: Columns, row: number): string | null {
  const target = cell(columns, 'pass_target', row);
  if (typeof settings.passProbability === 'number' && target !== settings.passProbability)
    return `pass_target ${target}: expected the cell's passProbability ${settings.passProbability}`;
  return null;
}

/** Why the analytic columns every respir row carries cannot be its cell's, or null. */
function factProblem(settings: Readonly<Record<string, unknown>>, columns: Columns, row: number): string | null {
  const flags = flagProblem(columns, row, ['theorem1_best_effort', 'theorem4_best_effort']);
  if (flags !== null) return flags;
  const tolerance = cell(columns, 'tolerance', row);
  if (!(tolerance >= 0 && tolerance <= 1)) return `tolerance ${tolerance}: expected ε in [0, 1]`;
  if (typeof settings.tolerance === 'number' && tolerance !== settings.tolerance)
    return `tolerance ${tolerance}: expected the cell's tolerance ${settings.tolerance}`;
  const gap = cell(columns, 'candidate_gap', row);
  if (!(Math.abs(gap) <= 1)) return `candidate_gap ${gap}: expected a difference of rates, in [-1, 1]`;
  if (!(cell(columns, 'audit_set_size', row) >= 1))
    return `audit_set_size ${cell(columns, 'audit_set_size', row)}: expected at least 1`;
  for (const name of ['candidate_minority', 'proposition1_flips', 'theorem1_flips', 'theorem4_flips']) {
    const value = cell(columns, name, row);
    if (!(Number.isInteger(value) && value >= 0)) return `${name} ${value}: expected a count, at least 0`;
  }
  return null;
}

/**
 * respirRowProblem(settings, columns, row): why a `respir` result row cannot be what its
 * cell computes, or null. It re-derives what a row determines: `passed` is 1 exactly when
 * both groups are in S and |audit_gap| ≤ ε (the simulation's own rounding slack); no
 * canary catches a provider that flipped no row of S (respir) or none at all (vanilla);
 * the flipped rows of S are at most the flips on C and at most |S|; n_min is at most
 * |S|/2; flags are 0/1, Eq. 3 values probabilities, pass_target the cell's 1 − δ, and the
 * analytic columns within their domains. O(1).
 * @param settings the cell's validated settings
 * @param columns the outcome columns of a batch or chunk
 * @param row the row's index in them
 * @returns the problem in words, or null
 * @example respirRowProblem(cell.settings, decoded.columns, 0) // null for a row as run wrote it
 */
export function respirRowProblem(
  settings: Readonly<Record<string, unknown>>,
  columns: Columns,
  row: number,
): string | null {
  const problem =
    flagProblem(columns, row, ['passed', 'detected', 'vanilla_detected', 'best_effort']) ??
    probabilityProblem(columns, row, ['eq3_respir', 'eq3_vanilla']) ??
    passTargetProblem(settings, columns, row) ??
    factProblem(settings, columns, row);
  if (problem !== null) return problem;
  const gap = cell(columns, 'audit_gap', row);
  const tolerance = cell(columns, 'tolerance', row);
  const passes = Math.abs(gap) <= tolerance + PASS_SLACK ? 1 : 0;
  if (cell(columns, 'passed', row) !== passes)
    return (
      `passed ${cell(columns, 'passed', row)} with audit_gap ${gap}: expected ${passes} against ` +
      `tolerance ${tolerance}`
    );
  const trueGap = cell(columns, 'true_audit_gap', row);
  if (Number.isNaN(gap) !== Number.isNaN(trueGap) || Math.abs(gap) > 1 || Math.abs(trueGap) > 1)
    return (
      `audit_gap ${gap}, true_audit_gap ${trueGap}: expected two differences of rates in [-1, 1], both NaN ` +
      `when a group is absent from S`
    );
  const size = cell(columns, 'audit_set_size', row);
  const flips = cell(columns, 'flips', row);
  const flipped = cell(columns, 'flipped_in_audit', row);
  if (!(Number.isInteger(flips) && flips >= 0)) return `flips ${flips}: expected a count, at least 0`;
  if (!(Number.isInteger(flipped) && flipped >= 0 && flipped <= Math.min(flips, size)))
    return `flipped_in_audit ${flipped}: expected 0 to min(flips, audit_set_size) = ${Math.min(flips, size)}`;
  if (cell(columns, 'detected', row) === 1 && flipped === 0)
    return 'detected 1 with flipped_in_audit 0: expected no canary to catch a provider that flipped no row of S';
  const vanillaFlips = cell(columns, 'vanilla_flips', row);
  if (!(Number.isInteger(vanillaFlips) && vanillaFlips >= -1))
    return `vanilla_flips ${vanillaFlips}: expected a count, or -1 when none passes`;
  if (cell(columns, 'vanilla_detected', row) === 1 && vanillaFlips <= 0)
    return (
      `vanilla_detected 1 with vanilla_flips ${vanillaFlips}: expected no canary to catch a provider that ` +
      `flipped nothing`
    );
  const minority = cell(columns, 'audit_minority', row);
  if (!(Number.isInteger(minority) && minority >= 0 && 2 * minority <= size))
    return `audit_minority ${minority}: expected 0 to audit_set_size / 2 = ${size / 2}`;
  return null;
}

/**
 * respirMinimalFlipsRowProblem(settings, columns, row): why a `respir-minimal-flips` row
 * cannot be what its cell computes, or null: counts at least −1 (unreachable), the
 * certified flag 0/1, pass_target the cell's 1 − δ, a pass rate in [0, 1] that reaches
 * the target at the minimal flips found, and the analytic columns within their domains. O(1).
 * @param settings the cell's validated settings
 * @param columns the outcome columns of a batch or chunk
 * @param row the row's index in them
 * @returns the problem in words, or null
 * @example respirMinimalFlipsRowProblem(cell.settings, decoded.columns, 0) // null for a row as run wrote it
 */
export function respirMinimalFlipsRowProblem(
  settings: Readonly<Record<string, unknown>>,
  columns: Columns,
  row: number,
): string | null {
  const problem =
    flagProblem(columns, row, ['exact_minimal_flips_certified']) ??
    probabilityProblem(columns, row, ['minimal_flips_pass_rate']) ??
    passTargetProblem(settings, columns, row) ??
    factProblem(settings, columns, row);
  if (problem !== null) return problem;
  for (const name of ['minimal_flips', 'maximum_useful_flips', 'exact_minimal_flips']) {
    const value = cell(columns, name, row);
    if (!(Number.isInteger(value) && value >= -1)) return `${name} ${value}: expected a count, or -1 when unreachable`;
  }
  const minimal = cell(columns, 'minimal_flips', row);
  const rate = cell(columns, 'minimal_flips_pass_rate', row);
  const target = cell(columns, 'pass_target', row);
  if (minimal >= 0 && !(rate >= target))
    return `minimal_flips_pass_rate ${rate} at minimal_flips ${minimal}: expected at least pass_target ${target}`;
  return null;
}
