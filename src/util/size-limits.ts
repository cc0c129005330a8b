/**
 * The largest sizes a user can ask for, in one place: each is checked (in the schema or
 * the flag's parser) before anything of that size is allocated, with the message form of
 * every other bad value ("expected an integer in [1, 50000000], found 1000000000000").
 */

/** Rows of a pool (a synthetic pool, a --groups pair, a budget): 50 million rows are about 1 GB of columns. */
export const MAX_POOL_ROWS = 50_000_000;

/** Simulated audits per calibration pool (the default is 4000): a million is hours of work already. */
export const MAX_CALIBRATION_PATHS = 1_000_000;

/** Base rates of a decision-access calibration (the default lists 15). */
export const MAX_CALIBRATION_BASE_RATES = 1000;
