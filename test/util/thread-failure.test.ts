import { describe, expect, it } from 'vitest';
import { InputError, inputError } from '../../src/util/errors.js';
import { decodeFailure, encodeFailure } from '../../src/util/thread-failure.js';

describe('encodeFailure(thrown) and decodeFailure(failure, context)', () => {
  it('keeps an InputError an InputError across a structured clone, with its message', () => {
    const thrown = inputError({
      where: 'exponentiatedGradient: differenceBound',
      expected: 'a number in (0, 1)',
      found: 2,
    });
    const failure = structuredClone(encodeFailure(thrown));
    const rebuilt = decodeFailure(failure, 'training worker failed on x/y');
    expect(rebuilt).toBeInstanceOf(InputError);
    expect(rebuilt.message).toBe('exponentiatedGradient: differenceBound: expected a number in (0, 1), found 2');
  });

  it('turns any other error into an internal Error that starts with the context and carries the stack', () => {
    const failure = structuredClone(encodeFailure(new TypeError('boom')));
    const rebuilt = decodeFailure(failure, 'training worker failed on x/y');
    expect(rebuilt).not.toBeInstanceOf(InputError);
    expect(rebuilt.message).toMatch(/^training worker failed on x\/y: TypeError: boom\n\s+at /);
  });

  it('encodes a thrown non-Error as its text', () => {
    const failure = encodeFailure('plain text');
    expect(failure).toEqual({ message: 'plain text', stack: 'plain text', inputError: false });
    expect(decodeFailure(failure, 'job').message).toBe('job: plain text');
  });
});
