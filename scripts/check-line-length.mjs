#!/usr/bin/env node
// Line-length check of `make lint`: a line of source longer than 120 characters (code points) fails,
// except in the folders still being shortened (PENDING: counted and printed, not failing) and up to the
// few lines a folder still holds (ALLOWED: a count that may only go down; lower it when you shorten one).
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
/** Folders whose long lines are reported but do not fail yet (being shortened on other branches). */
const PENDING = [
  'src/stats',
  'src/audit',
  'src/respir',
  'src/pir',
  'src/models',
  'test/stats',
  'test/audit',
  'test/respir',
  'test/pir',
  'test/models',
];

/** Lines over the limit a folder may still hold (long strings and shell/Python lines not yet split). */
const ALLOWED = new Map([
  ['papers', 10],
  ['scripts', 24],
  ['src/cli', 15],
  ['src/report', 13],
  ['src/util', 1],
  ['test/cli', 7],
  ['test/data', 1],
  ['test/fixtures', 2],
  ['test/harness', 10],
  ['test/kinds', 1],
  ['test/papers', 2],
  ['test/report', 9],
  ['test/util', 3],
]);

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

/** The folder a file's count is reported under: its pending folder, else its first two path parts. */
function folderOf(path) {
  const pending = PENDING.find((folder) => path === folder || path.startsWith(`${folder}/`));
  if (pending !== undefined) return pending;
  const parts = path.split('/');
  return (parts[0] === 'src' || parts[0] === 'test') && parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0];
}

const counts = new Map();
const long = [];
for (const top of CHECKED) {
  for (const file of filesUnder(join(ROOT, top))) {
    const path = relative(ROOT, file).split(sep).join('/');
    if (EXCLUDED.has(path)) continue;
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, index) => {
      const length = [...line].length;
      if (length <= MAX_LENGTH) return;
      const folder = folderOf(path);
      counts.set(folder, (counts.get(folder) ?? 0) + 1);
      if (!PENDING.includes(folder)) long.push({ folder, where: `${path}:${index + 1}: ${length} characters` });
    });
  }
}

const failures = [];
for (const [folder, count] of [...counts].sort(([a], [b]) => a.localeCompare(b))) {
  const allowed = ALLOWED.get(folder) ?? 0;
  const note = PENDING.includes(folder) ? ' (pending: reported, not failing)' : ` (at most ${allowed} allowed)`;
  console.log(`line length: ${folder}: ${count} lines over ${MAX_LENGTH} characters${note}`);
  if (!PENDING.includes(folder) && count > allowed) {
    failures.push(...long.filter((entry) => entry.folder === folder).map((entry) => entry.where));
  }
}
if (failures.length > 0) {
  console.error(failures.join('\n'));
  console.error(`line length: ${failures.length} lines over ${MAX_LENGTH} characters (split strings with + or rewrap)`);
  process.exit(1);
}
