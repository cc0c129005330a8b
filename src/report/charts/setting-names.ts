/** Readable axis titles for the settings that papers sweep; others get their key in words. */
const knownTitles: Record<string, string> = {
  access: 'Access regime',
  dataset: 'Dataset',
  model: 'Model',
  metric: 'Fairness metric',
  tolerance: 'Tolerance δ',
  budget: 'Query budget B',
  alpha: 'Type I error α',
  beta: 'Type II error β',
  candidate_set_size: 'Candidate-set size |C|',
  canaries: 'Canaries k',
  pool: 'Audit pool',
};

/** settingTitle(key) returns an axis title for a setting column ("access" → "Access regime"). */
export function settingTitle(key: string): string {
  const known = knownTitles[key];
  if (known !== undefined) return known;
  const words = key
    .replaceAll('_', ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
