/**
 * splitQueryLimbs(query, low, high) writes a query u ∈ Z_{2^32}^m as two signed
 * 16-bit limbs per element, u = high·2^16 + low (mod 2^32) with low ∈ [-2^15, 2^15),
 * the form the answer kernel multiplies with i32x4.dot_i16x8_s: D·u = D·low +
 * 2^16·(D·high) (mod 2^32) holds exactly because every product fits in i32 and the
 * wrap-around of the high sum is cancelled by the shift. O(m).
 */
export function splitQueryLimbs(query: Uint32Array, low: Int16Array, high: Int16Array): void {
  for (let i = 0; i < query.length; i++) {
    const value = query[i];
    const signedLow = (value << 16) >> 16;
    low[i] = signedLow;
    high[i] = ((value - signedLow) >>> 16) & 0xffff;
  }
}
