import type { Argv, CommandModule } from 'yargs';
import { manipulationBounds, type SettingNames } from '../../respir/manipulation-bounds.js';
import { inputError } from '../../util/errors.js';

interface BoundsArguments {
  candidates: number;
  audit: number;
  'candidates-min': number;
  'audit-min': number;
  gap: number;
  tolerance?: number;
  'hide-fraction'?: number;
  'pass-probability': number;
  'canary-effectiveness': number;
  canaries: string;
  json: boolean;
  details: boolean;
}

const flagNames: SettingNames = {
  candidateSetSize: '--candidates',
  auditSetSize: '--audit',
  candidateMinoritySize: '--candidates-min',
  auditMinoritySize: '--audit-min',
  gap: '--gap',
  tolerance: '--tolerance',
  passProbability: '--pass-probability',
  canaryEffectiveness: '--canary-effectiveness',
  canaryCounts: '--canaries',
};

function parseCanaries(text: string): number[] {
  const parts = String(text).split(',').map((part) => part.trim());
  const counts = parts.map(Number);
  if (parts.some((part) => part === '') || counts.some((count) => !Number.isInteger(count) || count < 0)) {
    throw inputError({ where: '--canaries', expected: 'comma-separated non-negative integers such as 5,10,20,50', found: text });
  }
  return counts;
}

function resolveTolerance(args: BoundsArguments): number {
  const hasTolerance = args.tolerance !== undefined;
  const hasFraction = args['hide-fraction'] !== undefined;
  if (hasTolerance === hasFraction) {
    throw inputError({
      where: '--tolerance/--hide-fraction',
      expected: 'exactly one of --tolerance ε or --hide-fraction f (ε = (1 − f)·|gap|)',
      found: hasTolerance ? 'both' : 'neither',
    });
  }
  if (hasTolerance) return args.tolerance as number;
  const fraction = args['hide-fraction'] as number;
  if (!(fraction >= 0 && fraction <= 1)) {
    throw inputError({ where: '--hide-fraction', expected: 'a fraction of the gap to hide in [0, 1]', found: fraction });
  }
  return (1 - fraction) * Math.abs(args.gap);
}

function formatProbability(value: number): string {
  return value.toFixed(4);
}

const boundsCommand: CommandModule<object, BoundsArguments> = {
  command: 'bounds',
  describe: 'Flips a provider needs to pass a vanilla vs a respir audit, and canary detection (paper B Prop. 1, Thm. 1, Eq. 3)',
  builder: (yargs: Argv) =>
    yargs
      .option('candidates', { type: 'number', demandOption: true, describe: 'N = |C|, candidate set size' })
      .option('audit', { type: 'number', demandOption: true, describe: 'n = |S|, audit set size' })
      .option('candidates-min', { type: 'number', demandOption: true, describe: 'N_min, smaller group in C' })
      .option('audit-min', { type: 'number', demandOption: true, describe: 'n_min, smaller group in S' })
      .option('gap', { type: 'number', demandOption: true, describe: '|d_C,true|, the true demographic-parity gap' })
      .option('tolerance', { type: 'number', describe: 'ε, the audit tolerance' })
      .option('hide-fraction', { type: 'number', describe: 'share f of the gap to hide: ε = (1 − f)·|gap|' })
      .option('pass-probability', { type: 'number', demandOption: true, describe: '1 − δ, respir pass probability' })
      .option('canary-effectiveness', { type: 'number', default: 0.8, describe: 'q, chance a canary is indistinguishable' })
      .option('canaries', { type: 'string', default: '5,10,20,50', describe: 'canary counts k, comma-separated' })
      .option('json', { type: 'boolean', default: false, describe: 'print {"vanilla": ..., "respir": ...} as JSON' })
      .option('details', { type: 'boolean', default: false, describe: 'with --json, add γ, the target gap and Theorem 4' })
      .example(
        '$0 respir bounds --candidates 13500 --audit 6750 --candidates-min 5350 --audit-min 2675 --gap 0.028 --hide-fraction 0.5 --pass-probability 0.8',
        'paper B Table 3, CCD gender',
      ) as unknown as Argv<BoundsArguments>,
  handler: (args) => {
    const result = manipulationBounds(
      {
        candidateSetSize: args.candidates,
        auditSetSize: args.audit,
        candidateMinoritySize: args['candidates-min'],
        auditMinoritySize: args['audit-min'],
        gap: args.gap,
        tolerance: resolveTolerance(args),
        passProbability: args['pass-probability'],
        canaryEffectiveness: args['canary-effectiveness'],
        canaryCounts: parseCanaries(args.canaries),
      },
      flagNames,
    );
    if (args.json) {
      const shape = { vanilla: result.vanilla, respir: result.respir };
      const output = args.details ? { ...shape, details: result.details } : shape;
      process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
      return;
    }
    const ks = Object.keys(result.vanilla.detection);
    const header = ['audit', 'flips', ...ks.map((k) => `P(detect) k=${k}`)];
    const rows = [
      ['vanilla (Prop. 1)', String(result.vanilla.flips), ...ks.map((k) => formatProbability(result.vanilla.detection[k]))],
      [
        `respir (Thm. 1)${result.respir.bestEffort ? ' best effort' : ''}`,
        String(result.respir.flips),
        ...ks.map((k) => formatProbability(result.respir.detection[k])),
      ],
      [
        `respir (Thm. 4)${result.details.finitePopulation.bestEffort ? ' best effort' : ''}`,
        String(result.details.finitePopulation.flips),
        ...ks.map((k) => formatProbability(result.details.finitePopulation.detection[k])),
      ],
    ];
    const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column].length)));
    const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd();
    const lines = [line(header), ...rows.map(line)];
    lines.push(
      `γ = ${result.details.margin.toFixed(6)}; respir target gap ${result.details.targetGap.toFixed(6)}` +
        (result.respir.bestEffort ? ' (ε − γ < 0: no manipulation reaches the guarantee; flips remove the whole gap)' : ''),
    );
    process.stdout.write(`${lines.join('\n')}\n`);
  },
};

/** `fairaudit respir <what>`: paper B's manipulation bounds, simulations and reproductions. */
export const respirCommand: CommandModule = {
  command: 'respir <command>',
  describe: 'Paper B (respir): manipulation bounds, the flipping adversary, canaries and Monte Carlo checks',
  builder: (yargs: Argv) =>
    yargs.command(boundsCommand as unknown as CommandModule).demandCommand(1, 'respir needs a subcommand; see "fairaudit respir --help"'),
  handler: () => {},
};
