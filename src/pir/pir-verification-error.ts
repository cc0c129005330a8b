/**
 * The auditor's rejection of a provider: a malformed digest, hint or answer, a failed
 * commitment check (‖Z‖∞ > p·ℓ or Z·A ≠ C·H), or an answer that is not D·u for the
 * committed D. Distinct from InputError: the other party, not the user, is at fault.
 * @param message what failed to verify
 * @example
 * throw new PirVerificationError('the answer does not match the commitment');
 */
export class PirVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PirVerificationError';
  }
}
