import type { Argv } from 'yargs';
import { publishedTable2 } from '../../../papers/paper-b/dataset-characteristics.js';
import { paperBExactWorkload } from '../../../papers/paper-b/exact-minimum-workload.js';
import { paperBTable3Options, table3Rows, table3SummaryTable } from '../../../papers/paper-b/table-3.js';
import { AUDIT_DESIGNS, type AuditDesign } from '../../audit/audit-design.js';
import { benchmarkRespir } from '../../kinds/respir/benchmark.js';
import { formatSummaryValue } from '../../report/summary-table.js';
import { type ExactManipulationCost, exactManipulationCost } from '../../respir/exact-manipulation-cost.js';
import { benchmarkExactMinimalFlips } from '../../respir/exact-minimal-flips-benchmark.js';
import { manipulationBounds, type SettingNames } from '../../respir/manipulation-bounds.js';
import { inputError } from '../../util/errors.js';
import { checkIntegerFlag, checkNumberFlag } from '../check-flag.js';
import { commandGroup } from '../command-group.js';
import { threadsOption } from '../common-options.js';
import { defineCommand } from '../define-command.js';
import { textTable } from '../text-table.js';

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
  const parts = String(text)
    .split(',')
    .map((part) => part.trim());
  const counts = parts.map(Number);
  if (parts.some((part) => part === '') || counts.some((count) => !Number.isInteger(count) || count < 0)) {
    throw inputError({
      where: '--canaries',
      expected: 'comma-separated non-negative integers such as 5,10,20,50',
      found: text,
    });
  }
  return counts;
}

function resolveTolerance(args: {
  readonly tolerance?: number;
  readonly 'hide-fraction'?: number;
  readonly gap: number;
}): number {
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
  const fraction = checkNumberFlag(
    '--hide-fraction',
    args['hide-fraction'] as number,
    { low: 0, high: 1 },
    'a fraction of the gap to hide',
  );
  return (1 - fraction) * Math.abs(args.gap);
}

function formatProbability(value: number): string {
  return value.toFixed(4);
}

const boundsCommand = defineCommand({
  command: 'bounds',
  describe:
    'Flips that suffice to pass a vanilla vs a respir audit (paper B Prop. 1, Thms. 1-4: sufficient conditions), ' +
    'the exact minimum beside them, and canary detection (Eq. 3)',
  builder: (yargs: Argv) =>
    yargs
      .option('candidates', { type: 'number', demandOption: true, describe: 'N = |C|, candidate set size' })
      .option('audit', { type: 'number', demandOption: true, describe: 'n = |S|, audit set size' })
      .option('candidates-min', { type: 'number', demandOption: true, describe: 'N_min, smaller group in C' })
      .option('audit-min', { type: 'number', demandOption: true, describe: 'n_min, smaller group in S' })
      .option('gap', {
        type: 'number',
        demandOption: true,
        describe: 'd_C,true, the true demographic-parity gap (smaller group minus larger; the bounds use |gap|)',
      })
      .option('tolerance', { type: 'number', describe: 'ε, the audit tolerance' })
      .option('hide-fraction', { type: 'number', describe: 'share f of the gap to hide: ε = (1 − f)·|gap|' })
      .option('pass-probability', {
        type: 'number',
        demandOption: true,
        describe: '1 − δ, respir pass probability (≥ 0.5: δ ≤ ½)',
      })
      .option('canary-effectiveness', {
        type: 'number',
        default: 0.8,
        describe: 'q, chance a canary is indistinguishable',
      })
      .option('canaries', { type: 'string', default: '5,10,20,50', describe: 'canary counts k, comma-separated' })
      .option('exact', {
        type: 'boolean',
        default: true,
        describe:
          'also compute the exact minimal flips (strongest adversary, exact hypergeometric pass probability); ' +
          '--no-exact skips it',
      })
      .option('minority-rate', {
        type: 'number',
        describe:
          "the smaller group's decision-1 rate in C for the exact minimum (the larger group's is this − gap; " +
          'default ½ + gap/2)',
      })
      .option('design', {
        choices: AUDIT_DESIGNS,
        default: 'uniform' as AuditDesign,
        describe: 'how S is drawn from C, for the exact minimum',
      })
      .option('max-evaluations', {
        type: 'number',
        default: 4000,
        describe: 'pass-probability evaluations before the exact search reports a bracket',
      })
      .option('json', {
        type: 'boolean',
        default: false,
        describe: 'print {"vanilla": ..., "respir": ..., "exactMinimum": ...} as JSON',
      })
      .option('details', {
        type: 'boolean',
        default: false,
        describe: 'with --json, add γ, the target gap and Theorem 4',
      })
      .example(
        '$0 respir bounds --candidates 13500 --audit 6750 --candidates-min 5350 --audit-min 2675 --gap 0.028 ' +
          '--hide-fraction 0.5 --pass-probability 0.8 --minority-rate 0.137',
        'paper B Table 3, CCD gender',
      ),
  handler: (args) => {
    const setting = {
      candidateSetSize: args.candidates,
      auditSetSize: args.audit,
      candidateMinoritySize: args['candidates-min'],
      auditMinoritySize: args['audit-min'],
      gap: args.gap,
      tolerance: resolveTolerance(args),
      passProbability: args['pass-probability'],
      canaryEffectiveness: args['canary-effectiveness'],
      canaryCounts: parseCanaries(args.canaries),
    };
    const result = manipulationBounds(setting, flagNames);
    let exact: ExactManipulationCost | null = null;
    if (args.exact) {
      checkIntegerFlag('--max-evaluations', args['max-evaluations'], 1);
      exact = exactManipulationCost(
        { ...setting, minorityRate: args['minority-rate'], design: args.design },
        { ...flagNames, minorityRate: '--minority-rate', design: '--design' },
        { maxEvaluations: args['max-evaluations'] },
      );
    }
    if (args.json) {
      const shape = {
        vanilla: result.vanilla,
        respir: result.respir,
        ...(exact === null ? {} : { exactMinimum: exactMinimumJson(exact) }),
      };
      const output = args.details ? { ...shape, details: result.details } : shape;
      process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
      return;
    }
    const ks = Object.keys(result.vanilla.detection);
    const header = ['audit', 'flips', ...ks.map((k) => `P(detect) k=${k}`)];
    const rows = [
      [
        'vanilla (Prop. 1, lower bound)',
        String(result.vanilla.flips),
        ...ks.map((k) => formatProbability(result.vanilla.detection[k])),
      ],
      [
        `respir (Thm. 1, sufficient)${result.respir.bestEffort ? ' best effort' : ''}`,
        String(result.respir.flips),
        ...ks.map((k) => formatProbability(result.respir.detection[k])),
      ],
      [
        `respir (Thm. 4, sufficient)${result.details.finitePopulation.bestEffort ? ' best effort' : ''}`,
        String(result.details.finitePopulation.flips),
        ...ks.map((k) => formatProbability(result.details.finitePopulation.detection[k])),
      ],
    ];
    if (exact !== null) {
      rows.push(
        [
          'vanilla exact minimum',
          exact.vanilla.flips === null ? 'none' : String(exact.vanilla.flips),
          ...ks.map((k) => formatProbability(exact.vanilla.detection[k])),
        ],
        [
          `respir exact minimum (${exact.assumptions.design} S)`,
          exactFlipsText(exact),
          ...ks.map((k) => formatProbability(exact.respir.detection[k])),
        ],
      );
    }
    const lines = textTable(header, rows);
    lines.push(
      `γ = ${result.details.margin.toFixed(6)}; respir target gap ${result.details.targetGap.toFixed(6)}` +
        (result.respir.bestEffort ? ' (ε − γ < 0: Theorem 2 cannot be met; flips remove the whole gap)' : ''),
      'Prop. 1 is a lower bound on the vanilla flips; Thms. 1 and 4 count flips that are sufficient to pass with ' +
        'probability ≥ 1 − δ, not what a provider needs.',
    );
    if (exact !== null) lines.push(exactSummary(exact, setting.passProbability));
    process.stdout.write(`${lines.join('\n')}\n`);
  },
});

function exactFlipsText(exact: ExactManipulationCost): string {
  const respir = exact.respir;
  if (!respir.reachable) return 'unreachable';
  if (respir.exact) return String(respir.flips);
  return `${respir.lowerBound}..${respir.upperBound}`;
}

function exactSummary(exact: ExactManipulationCost, passProbability: number): string {
  const a = exact.assumptions;
  const r = exact.respir;
  const rates =
    `rates ${a.minorityRate.toFixed(4)} (smaller group) and ${a.majorityRate.toFixed(4)} (larger): ` +
    `positives [${a.candidatePositives[1]}, ${a.candidatePositives[0]}], gap ${a.candidateGap.toFixed(6)}`;
  if (!r.reachable)
    return (
      `Exact minimum (${rates}): no manipulation passes with probability ${passProbability} (a group is too ` +
      `often absent from S).`
    );
  if (r.withinTolerance)
    return (
      `Exact minimum (${rates}): |d_C| ≤ ε, nothing to hide: 0 flips (honest pass ` +
      `probability ${r.honestPassProbability.value.toFixed(4)}).`
    );
  const changes =
    `${r.changes[1] >= 0 ? '+' : ''}${r.changes[1]} in the smaller ` +
    `group, ${r.changes[0] >= 0 ? '+' : ''}${r.changes[0]} in the larger`;
  const what = r.exact ? `${r.flips} flips` : `between ${r.lowerBound} and ${r.upperBound} flips (search budget spent)`;
  return (
    `Exact minimum (${rates}): ${what} (${changes}) pass with ` +
    `probability ${r.passProbability.value.toFixed(4)} ≥ ${passProbability}; ${r.evaluations} evaluations.`
  );
}

/** The `exactMinimum` field of `respir bounds --json`. Groups are listed [larger, smaller] as in the counts. */
function exactMinimumJson(exact: ExactManipulationCost) {
  const r = exact.respir;
  return {
    assumptions: exact.assumptions,
    respir: {
      flips: r.flips,
      exact: r.exact,
      lowerBound: r.lowerBound,
      upperBound: r.upperBound,
      reachable: r.reachable,
      withinTolerance: r.withinTolerance,
      positivesBefore: r.originalPositives,
      positivesAfter: r.positives,
      changes: r.changes,
      passProbability: r.passProbability.value,
      passProbabilityBounds: [r.passProbability.lower, r.passProbability.upper],
      honestPassProbability: r.honestPassProbability.value,
      evaluations: r.evaluations,
      detection: r.detection,
    },
    vanilla: exact.vanilla,
  };
}

const table3Command = defineCommand({
  command: 'table3',
  describe: 'Paper B Table 3 computed analytically from the published Table 2 (no data needed)',
  builder: (yargs: Argv) =>
    yargs.option('json', {
      type: 'boolean',
      default: false,
      describe: 'print the rows as JSON',
    }),
  handler: (args) => {
    const started = process.hrtime.bigint();
    const rows = table3Rows(publishedTable2(), paperBTable3Options);
    const table = table3SummaryTable(
      rows,
      paperBTable3Options,
      'paper-b-table-3',
      'Table 3 (analytic, from the published Table 2)',
    );
    const milliseconds = Number(process.hrtime.bigint() - started) / 1e6;
    if (args.json) {
      process.stdout.write(`${JSON.stringify(table.rows, null, 2)}\n`);
      return;
    }
    const header = table.columns.map((column) => column.label);
    const body = table.rows.map((row) => table.columns.map((column) => formatSummaryValue(row[column.name], column)));
    process.stdout.write(
      [
        ...textTable(header, body),
        `ε = |d_C|/2, 1 − δ = 0.8, q = 0.8 (paper B §5); computed in ${milliseconds.toFixed(1)} ms. Table 3 is ` +
          `an image in the paper's text: these are our analytic numbers.`,
        '',
      ].join('\n'),
    );
  },
});

/** `fairaudit bench respir`: audit-set draws per second through the harness, and the bare kernel. */
export const benchRespirCommand = defineCommand({
  command: 'respir',
  describe: 'Time 100,000 respir audit-set draws over a 13,500-row candidate set on the worker threads (bar: < 10 s)',
  builder: (yargs: Argv) =>
    yargs
      .option('draws', { type: 'number', default: 100_000, describe: 'audit-set draws (replicates)' })
      .option('threads', {
        ...threadsOption,
        default: 2,
        describe: 'worker threads (the harness run, and the exact minimum rows)',
      })
      .option('exact', {
        type: 'boolean',
        default: true,
        describe:
          "also time the exact minimal flips of paper B's seven Table 2 rows (bar: < 10 s); --no-exact skips it",
      })
      .option('json', {
        type: 'boolean',
        default: false,
        describe: 'print the figures as JSON',
      }),
  handler: async (args) => {
    checkIntegerFlag('--draws', args.draws, 100);
    const figures = await benchmarkRespir(args.draws, args.threads);
    const exact = args.exact
      ? await benchmarkExactMinimalFlips(paperBExactWorkload(publishedTable2()), { threads: args.threads })
      : null;
    if (args.json) {
      process.stdout.write(
        `${JSON.stringify({ respir: figures, ...(exact === null ? {} : { exactMinimum: exact }) }, null, 2)}\n`,
      );
      return;
    }
    const h = figures.harness;
    const k = figures.kernel;
    const exactRowText = (row: NonNullable<typeof exact>['rows'][number]): string =>
      `${row.label} ${row.exact ? row.flips : `${row.lowerBound}..${row.upperBound}`} (${row.seconds.toFixed(2)} s)`;
    process.stdout.write(
      [
        `workload: ${figures.workload}`,
        `harness, ${h.threads} threads: ${h.draws} draws in ${h.seconds.toFixed(2)} s ` +
          `= ${h.drawsPerSecond.toFixed(0)} draws/s (${h.cpuSeconds.toFixed(2)} CPU s; bar: < 10 s)`,
        `kernel, main thread, sampler counts:  ${k.counts.drawsPerSecond.toFixed(0)} draws/s ` +
          `(${k.counts.draws} draws in ${k.counts.seconds.toFixed(2)} s)`,
        `kernel, main thread, sampler indices: ${k.indices.drawsPerSecond.toFixed(0)} draws/s ` +
          `(${k.indices.draws} draws in ${k.indices.seconds.toFixed(2)} s)`,
        ...(exact === null
          ? []
          : [
              `exact minimal flips, paper B's 7 Table 2 rows (ε = |d|/2, 1 − δ = 0.8, uniform S) ` +
                `on ${exact.threads} thread${exact.threads === 1 ? '' : 's'}: ${exact.seconds.toFixed(2)} s ` +
                `(${exact.cpuSeconds.toFixed(2)} CPU s; bar: < 10 s): ${exact.rows.map(exactRowText).join(', ')}`,
            ]),
        'Wall-clock figures on a shared machine are provisional.',
        '',
      ].join('\n'),
    );
  },
});

/** `fairaudit respir <what>`: paper B's manipulation bounds, simulations and reproductions. */
export const respirCommand = commandGroup(
  'respir',
  'Paper B (respir): manipulation bounds, the flipping adversary, canaries and Monte Carlo checks',
  [boundsCommand, table3Command],
);
