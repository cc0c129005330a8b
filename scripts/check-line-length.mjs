#!/usr/bin/env node
// Line-length check of `make lint`: any line of source longer than 120 characters (code points) fails.
// The generated WebAssembly kernel texts are excluded. Usage: node scripts/check-line-length.mjs
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAX_LENGTH = 120;
const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const CHECKED = ['src', 'test', 'papers', 'scripts'];
const EXTENSIONS = /\.(ts|mts|mjs|js|py|sh)$/;
/** Generated kernel texts (WAT written by code generators): their lines are data, not prose. */
const EXCLUDED = new Set(['src/pir/wasm/kernel-text.ts', 'src/models/mlp/wasm/mlp-kernel-text.ts']);

function filesUnder(folder) {
  const out = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) out.push(...filesUnder(path));
    } else if (EXTENSIONS.test(entry.name)) out.push(path);
  }
  return out;
}

const failures = [];
for (const top of CHECKED) {
  for (const file of filesUnder(join(ROOT, top))) {
    const path = relative(ROOT, file).split(sep).join('/');
    if (EXCLUDED.has(path)) continue;
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, index) => {
      const length = [...line].length;
      if (length > MAX_LENGTH) failures.push(`${path}:${index + 1}: ${length} characters`);
    });
  }
}
if (failures.length > 0) {
  console.error(failures.join('\n'));
  console.error(`line length: ${failures.length} lines over ${MAX_LENGTH} characters (split strings with + or rewrap)`);
  process.exit(1);
}
