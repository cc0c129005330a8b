// The model-cache fingerprint the training measurement scripts record, so two commits' models compare byte for byte.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * sha256 (16 hex digits) of every file of the model folders `names` (default: all) under a model cache directory,
 * keyed "folder/file"; card.json is hashed without its trainingSeconds, the one field that changes between runs.
 */
export function modelCacheHashes(directory, names = readdirSync(directory)) {
  const out = {};
  for (const name of [...names].sort()) {
    for (const file of readdirSync(join(directory, name)).sort()) {
      let bytes = readFileSync(join(directory, name, file));
      if (file === 'card.json') {
        const card = JSON.parse(bytes.toString('utf8'));
        delete card.trainingSeconds;
        bytes = Buffer.from(JSON.stringify(card));
      }
      out[`${name}/${file}`] = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
    }
  }
  return out;
}
