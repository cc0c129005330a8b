import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * What the docs test reads: the names and paths a page or a comment mentions, and the
 * repository they must exist in. A path is checked against the files; a code identifier
 * (camelCase or PascalCase) against the code of src/, papers/, test/ and scripts/ with
 * comments removed, so a comment cannot vouch for itself.
 */

/** Folders whose files a backticked path may name. */
const REPOSITORY_FOLDERS = ['src', 'docs', 'papers', 'test', 'configs', 'scripts', 'examples', 'data', 'bin'];

/** Folders that hold outputs or downloads, never committed files: paths into them are not checked. */
const OUTPUT_PREFIXES = ['results/', 'data/cache/', 'data/downloads/', 'dist/', 'node_modules/', '.checkpoints/'];

/** Extensions of committed source files: a bare file name with one of them must exist somewhere. */
const SOURCE_EXTENSIONS = /\.(ts|mjs|js|py|sh|ya?ml|md|wat|toml)$/;

/** camelCase (`auditPool`, `fixedSampleOf`) or PascalCase with two humps (`ExperimentKind`). */
const IDENTIFIER = /\b(?:[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*)\b/g;

/**
 * Words that look like code identifiers but name no code of this repository, each with
 * why. Keep it short: a name of our own code never belongs here.
 */
export const NOT_CODE: ReadonlyMap<string, string> = new Map([
  // Products, languages and formats.
  ['JavaScript', 'a language'],
  ['TypeScript', 'a language'],
  ['WebAssembly', 'a format'],
  ['GitHub', 'a service'],
  ['SimplePIR', 'the PIR scheme of Henzinger et al.'],
  ['VeriSimplePIR', 'the verifiable PIR scheme paper B builds on'],
  ['DoublePIR', 'a PIR scheme'],
  ['TensorFlow', 'a library'],
  ['PyTorch', 'a library'],
  ['NumPy', 'a library'],
  ['SciPy', 'a library'],
  ['OpenMP', 'a library'],
  ['LaTeX', 'a typesetting system'],
  ['PostScript', 'a format'],
  ['FreeBSD', 'an operating system'],
  ['McCullagh', 'an author'],
  ['McKay', 'an author'],
  // Names in the peers' Python code (scikit-learn, Fairlearn), compared against in docs/models.md.
  ['MLPClassifier', 'scikit-learn'],
  ['HistGradientBoostingClassifier', 'scikit-learn'],
  ['RandomizedSearchCV', 'scikit-learn'],
  ['StratifiedKFold', 'scikit-learn'],
  ['ExponentiatedGradient', 'Fairlearn'],
  ['DemographicParity', 'Fairlearn'],
  ['EqualizedOdds', 'Fairlearn'],
  ['ResampledMLP', 'the peer script scripts/peers/peer_parity.py'],
  // Node and V8 names that our code uses only through other spellings.
  ['maxRSS', 'process.resourceUsage() (Node)'],
  ['resourceUsage', 'process.resourceUsage() (Node)'],
  ['SharedArrayBuffer', 'a JavaScript built-in'],
  ['BigInt', 'a JavaScript built-in'],
  ['devDependency', 'a package.json field'],
  ['devDependencies', 'a package.json field'],
  ['noConsole', 'a biome lint rule (biome.json)'],
  ['StratifiedShuffleSplit', 'scikit-learn'],
  // Algorithm names of the VeriSimplePIR paper, which docs/pir.md maps onto our checks.
  ['PreVerify', 'VeriSimplePIR'],
  ['VerCom', 'VeriSimplePIR'],
  // Mathematical notation in comments (estimates written as in the papers).
  ['muHat', 'the estimate of a mean'],
  ['sigmaHat', 'the estimate of a standard deviation'],
  // The worked example of docs/harness.md, "Experiment kinds", defines these names.
  ['myKind', 'defined in the example'],
]);

/** Comment words this short are mathematical notation (nA, pB, xN, fprB), not code. */
const NOTATION_LENGTH = 4;

export interface Mention {
  /** Where it is mentioned: file and line. */
  readonly where: string;
  readonly text: string;
}

function filesUnder(path: string, keep: (file: string) => boolean): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return keep(path) ? [path] : [];
  return readdirSync(path)
    .filter((name) => name !== 'node_modules' && name !== 'dist' && !name.startsWith('.'))
    .flatMap((name) => filesUnder(join(path, name), keep));
}

function posix(root: string, path: string): string {
  return relative(root, path).split(sep).join('/');
}

/** Every committed-looking file of the repository, relative and with "/". */
export function repositoryFiles(root: string): string[] {
  const top = ['README.md', 'Makefile', 'package.json', 'tsconfig.json', 'biome.json', 'vitest.config.ts'];
  return [
    ...top.filter((file) => existsSync(join(root, file))),
    ...REPOSITORY_FOLDERS.flatMap((folder) => filesUnder(join(root, folder), () => true)).map((file) =>
      posix(root, file),
    ),
  ];
}

/** The text of a source file's comments (line and block), each line kept at its own line number. */
export function commentsOf(source: string): string {
  const lines = source.split('\n').map(() => '');
  const pattern = /\/\*[\s\S]*?\*\/|\/\/[^\n]*|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`/g;
  for (const match of source.matchAll(pattern)) {
    if (!match[0].startsWith('/')) continue;
    const first = source.slice(0, match.index).split('\n').length - 1;
    match[0].split('\n').forEach((line, offset) => {
      lines[first + offset] += ` ${line}`;
    });
  }
  return lines.join('\n');
}

/** A source file without its comments (strings kept): what an identifier must appear in. */
export function codeOf(source: string): string {
  const pattern = /\/\*[\s\S]*?\*\/|\/\/[^\n]*|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`/g;
  return source.replace(pattern, (match) => (match.startsWith('/') ? ' ' : match));
}

/** The backticked spans of a Markdown or comment text (fenced code blocks left out), with their lines. */
export function backtickedSpans(text: string, file: string): Mention[] {
  const found: Mention[] = [];
  let fenced = false;
  text.split('\n').forEach((line, index) => {
    if (/^\s*(\*\s*)?```/.test(line)) {
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    for (const match of line.matchAll(/`([^`]+)`/g)) found.push({ where: `${file}:${index + 1}`, text: match[1] });
  });
  return found;
}

/** The camelCase words of a comment text, backticked or not: in a comment they name code. */
export function camelCaseWords(text: string, file: string): Mention[] {
  const found: Mention[] = [];
  text.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(/(?<![\w.$/-])[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*(?![\w$/-])/g)) {
      if (match[0].length > NOTATION_LENGTH) found.push({ where: `${file}:${index + 1}`, text: match[0] });
    }
  });
  return found;
}

/** The identifiers in a backticked span: camelCase and PascalCase words outside quotes. */
export function identifiersIn(span: string): string[] {
  if (/^-/.test(span) || pathIn(span) !== null) return [];
  const unquoted = span.replace(/'[^']*'|"[^"]*"/g, ' ');
  return [...unquoted.matchAll(IDENTIFIER)].map((match) => match[0]);
}

/** A backticked span that names a repository path: `src/...`, `docs/x.md`, `peer_parity.py`. */
export function pathIn(span: string): string | null {
  const text = span.trim().replace(/[,.;:]$/, '');
  if (/\s/.test(text) || /^[a-z]+:\/\//.test(text) || text.startsWith('/')) return null;
  if (OUTPUT_PREFIXES.some((prefix) => text.startsWith(prefix))) return null;
  const [folder] = text.split('/');
  if (text.includes('/') && REPOSITORY_FOLDERS.includes(folder)) return text.replace(/[:(].*$/, '');
  if (!text.includes('/') && SOURCE_EXTENSIONS.test(text) && /^[\w.<>*-]+$/.test(text)) return text;
  return null;
}

/** A regular expression for a path that may hold `<name>`, `NAME`, `*`, `{a,b}` and `{1..5}` placeholders. */
function pathPattern(path: string): RegExp {
  let pattern = '';
  for (const part of path.split(/(<[^>]+>|\*|\{[^}]+\}|\b[A-Z][A-Z_]*\b)/)) {
    if (part.startsWith('<') || part === '*' || /^[A-Z][A-Z_]*$/.test(part) || /^\{\d+\.\.\d+\}$/.test(part)) {
      pattern += '[^/]+';
    } else if (part.startsWith('{')) pattern += `(?:${part.slice(1, -1).split(',').map(escapeRegExp).join('|')})`;
    else pattern += escapeRegExp(part);
  }
  return new RegExp(`^${pattern}`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether a mentioned path names a file or folder of the repository (a bare name: anywhere). */
export function pathExists(path: string, files: readonly string[]): boolean {
  const wanted = pathPattern(path.replace(/\/$/, ''));
  if (!path.includes('/')) return files.some((file) => wanted.test(file.split('/').at(-1) ?? ''));
  return files.some((file) => wanted.test(file) && /^(\/|$)/.test(file.replace(wanted, '').slice(0, 1)));
}

/** The words of the code and data files of src/, papers/, test/ and scripts/ (comments removed; test/docs/ left out,
 * whose examples name missing code on purpose). */
export function codeWords(root: string): Set<string> {
  const words = new Set<string>();
  const code = ['src', 'papers', 'test', 'scripts'].flatMap((folder) =>
    filesUnder(join(root, folder), (file) => /\.(ts|mjs|js|py|sh|json)$/.test(file)),
  );
  for (const file of code) {
    if (posix(root, file).startsWith('test/docs/')) continue;
    const text = /\.(ts|mjs|js)$/.test(file) ? codeOf(readFileSync(file, 'utf8')) : readFileSync(file, 'utf8');
    for (const match of text.matchAll(/[A-Za-z_]\w*/g)) words.add(match[0]);
  }
  return words;
}
