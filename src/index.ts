/**
 * fairaudit's public API. Internals are not re-exported; each area adds its public
 * functions here.
 */
export { InputError } from './util/errors.js';
export { createRandom, deriveSeed, type Random } from './util/random.js';
