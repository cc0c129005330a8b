/**
 * logFactorialTable(largest) returns a Float64Array t with t[i] = ln(i!) for
 * i = 0..largest, built by summing logs: O(largest) time and memory. Made once per
 * candidate set and shared by every hypergeometric draw over it.
 */
export function logFactorialTable(largest: number): Float64Array {
  const table = new Float64Array(largest + 1);
  for (let i = 2; i <= largest; i++) table[i] = table[i - 1] + Math.log(i);
  return table;
}
