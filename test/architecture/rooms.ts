/**
 * The rooms of the house, lowest first: one home for the layers that
 * test/architecture/import-direction.test.ts enforces and that docs/contracts.md shows
 * (its room table is generated from this list; test/docs/generated-sections.test.ts keeps
 * them equal). A file may import a file of its own room, or of a room of lower rank; rooms
 * of equal rank are independent unless listed in PEER_IMPORTS. The first pattern that
 * matches a path (relative to the package root, with "/") gives its room.
 */
export interface Room {
  /** The room's name in messages; `$1` is the pattern's first group (a kind's or a paper's folder). */
  readonly room: string;
  readonly rank: number;
  readonly pattern: RegExp;
  /** Where the room is, as the room table prints it. */
  readonly path: string;
  /** What the room holds, in a few words, as the room table prints it. */
  readonly holds: string;
}

export const ROOMS: readonly Room[] = [
  {
    room: 'util',
    rank: 0,
    pattern: /^src\/util\//,
    path: 'src/util/',
    holds:
      'errors (`InputError`, `describeFound`, `writeProblem`), seeded randomness (`createRandom`, `deriveSeed`, ' +
      'the one partial shuffle), `createCryptoRandom`, atomic writes, `readFileCapped`, prototype-safe parsing, ' +
      '`ArrowFileWriter`, the CSV reader, `canonicalJson`, the schema builder, `Registry`, `packageRoot`',
  },
  {
    room: 'stats',
    rank: 1,
    pattern: /^src\/stats\//,
    path: 'src/stats/',
    holds:
      'GLR kernels and streams, `waldThresholds`, `errorLevelsProblem` (the one rule for α and β), ' +
      'the betting and confidence-sequence tests, exact count-gap comparisons, the fixed-sample decision',
  },
  {
    room: 'audit',
    rank: 2,
    pattern: /^src\/audit\//,
    path: 'src/audit/',
    holds:
      'pools and pool I/O, metrics, access regimes, `auditSettingsSchema` (one vocabulary), audit-set designs, ' +
      'the sequential audit, calibrated thresholds, moving a pool to a gap, `auditPool`',
  },
  {
    room: 'data',
    rank: 3,
    pattern: /^src\/data\//,
    path: 'src/data/',
    holds: 'the dataset registry, downloads with checksums, mirrors, parsers, splits, synthetic pools',
  },
  {
    room: 'models',
    rank: 3,
    pattern: /^src\/models\//,
    path: 'src/models/',
    holds: 'the MLP, the exponentiated-gradient reduction, boosted trees, training from presets, the model cache',
  },
  {
    room: 'respir',
    rank: 3,
    pattern: /^src\/respir\//,
    path: 'src/respir/',
    holds: 'manipulation bounds, the adversary, canaries, exact minimal flips, the oblivious-audit simulation',
  },
  {
    room: 'pir',
    rank: 3,
    pattern: /^src\/pir\//,
    path: 'src/pir/',
    holds: 'SimplePIR, the commitment and its checks, WebAssembly kernels, the provider service and the auditor',
  },
  {
    room: 'harness',
    rank: 4,
    pattern: /^src\/harness\//,
    path: 'src/harness/',
    holds:
      'config schema and loading, plans and seeds, the worker pool, checkpoints, results, shards and merge, ' +
      'the kind-runner registry',
  },
  {
    room: 'report',
    rank: 5,
    pattern: /^src\/report\//,
    path: 'src/report/',
    holds:
      'aggregation, tables, charts, report.html, the comparison with published numbers, the kind-reporter ' +
      'and paper-layout registries',
  },
  {
    room: 'kinds (the interface)',
    rank: 6,
    pattern: /^src\/kinds\/kind\.ts$/,
    path: 'src/kinds/kind.ts',
    holds: '`ExperimentKind` and `registerKind`',
  },
  {
    room: 'kinds/$1',
    rank: 6.5,
    pattern: /^src\/kinds\/([^/]+)\//,
    path: 'src/kinds/<kind>/',
    holds: 'one folder per experiment kind, run half and report half (peers: a kind imports no other kind)',
  },
  {
    room: 'kinds (the catalogue)',
    rank: 6.9,
    pattern: /^src\/kinds\/index\.ts$/,
    path: 'src/kinds/index.ts',
    holds: '`builtInKinds`, the kinds fairaudit ships',
  },
  {
    room: 'papers (shared)',
    rank: 7,
    pattern: /^papers\/[^/]+\.ts$/,
    path: 'papers/*.ts',
    holds: 'what every paper folder shares (the reproduction interface)',
  },
  {
    room: 'papers/$1',
    rank: 7.5,
    pattern: /^papers\/([^/]+)\//,
    path: 'papers/<paper>/',
    holds:
      'what exists only for one paper: configs, model presets, published numbers, tables, figures, layouts, ' +
      'the reproduction (peers: a paper imports no other paper)',
  },
  {
    room: 'cli',
    rank: 8,
    pattern: /^src\/cli\//,
    path: 'src/cli/',
    holds: 'the composition root (`src/cli/registry.ts`) and one thin file per command',
  },
  {
    room: 'public API',
    rank: 8,
    pattern: /^src\/(index\.ts$|api\/)/,
    path: 'src/index.ts, src/api/',
    holds: 'the entry points `fairaudit`, `fairaudit/stats`, `fairaudit/respir`, `fairaudit/pir`, `fairaudit/harness`',
  },
];

/** Imports between rooms of equal rank that the house allows: models train on data. */
export const PEER_IMPORTS: ReadonlySet<string> = new Set(['models -> data']);

/**
 * roomTable() is the Markdown room table of docs/contracts.md, one row per room, lowest
 * rank first.
 * @returns The table's lines, ending with a newline.
 */
export function roomTable(): string {
  const rows = ROOMS.map((room) => `| ${room.rank} | \`${room.path}\` | ${room.holds} |`);
  return `${['| rank | room | holds |', '|---|---|---|', ...rows].join('\n')}\n`;
}
