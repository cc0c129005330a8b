/**
 * closestName(word, candidates) returns the candidate nearest to a misspelt word by
 * edit distance (Levenshtein: insertions, deletions, substitutions, and adjacent
 * transpositions each cost 1), case-insensitively, when it is close enough to be a
 * plausible typo (distance ≤ max(1, ⌊length/3⌋)); otherwise undefined.
 * Runs in O(Σ |word|·|candidate|).
 */
export function closestName(word: string, candidates: readonly string[]): string | undefined {
  const target = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(word.length / 3)) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(target, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** The optimal-string-alignment edit distance between two strings. O(|a|·|b|). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const columns = b.length + 1;
  const table: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: columns }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < columns; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, table[i - 2][j - 2] + 1);
      }
      table[i][j] = value;
    }
  }
  return table[a.length][b.length];
}
