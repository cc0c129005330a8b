import type { Argv, CommandModule } from 'yargs';
import { loadConfig, parseOverride } from '../../harness/config.js';
import { configReference } from '../../harness/config-reference.js';
import { findKindRunner } from '../../harness/kind-runners.js';
import { buildPlan, chunksOfShard, parseShard } from '../../harness/plan.js';
import { InputError } from '../../util/errors.js';
import { textTable } from '../text-table.js';
import { checkSetKeys } from '../check-flag.js';

interface PlanArguments {
  config?: string;
  set?: string[];
  shard?: string;
  json: boolean;
  reference: boolean;
}

/** `fairaudit plan CONFIG`: the cells and task counts of an experiment, without running it. */
export const planCommand: CommandModule<object, PlanArguments> = {
  command: 'plan [config]',
  describe: 'Validate an experiment config and print its cells and task counts without running it',
  builder: (yargs: Argv) =>
    yargs
      .positional('config', { type: 'string', describe: 'The experiment YAML file' })
      .option('set', {
        type: 'string',
        array: true,
        nargs: 1,
        describe: 'Override a setting: --set budget=2000, --set grid.tolerance=[0.02,0.05] (repeatable)',
      })
      .option('shard', { type: 'string', describe: 'Show only shard i of n (e.g. 2/4)' })
      .option('json', { type: 'boolean', default: false, describe: 'Print the plan as JSON' })
      .option('reference', {
        type: 'boolean',
        default: false,
        describe: 'Print the reference of every config key (Markdown, generated from the schemas) instead',
      }) as unknown as Argv<PlanArguments>,
  handler: (args) => {
    if (args.reference) {
      process.stdout.write(configReference());
      return;
    }
    if (!args.config) throw new InputError('plan: expected a config file (fairaudit plan CONFIG), found none');
    const config = loadConfig(args.config, checkSetKeys(args.set).map(parseOverride));
    const kind = findKindRunner(config.kind);
    if (!kind) throw new Error(`plan: kind ${config.kind} vanished from the registry`);
    const plan = buildPlan(config, kind);
    const shard = args.shard === undefined ? undefined : parseShard(args.shard);
    const chunks = chunksOfShard(plan, shard);
    const tasks = chunks.reduce((sum, chunk) => sum + chunk.count, 0);
    if (args.json) {
      process.stdout.write(
        `${JSON.stringify(
          {
            experiment: plan.experiment,
            kind: plan.kind,
            seed: plan.seed,
            replicates: plan.replicates,
            fingerprint: plan.fingerprint,
            cells: plan.cells.map((cell) => ({ index: cell.index, key: cell.key, coordinates: cell.coordinates, settings: cell.settings })),
            chunks: chunks.length,
            tasks,
            shard: shard ?? null,
          },
          null,
          2,
        )}\n`,
      );
      return;
    }
    const lines = [
      `${plan.experiment} (${plan.kind}), master seed ${plan.seed}, plan ${plan.fingerprint.slice(0, 12)}`,
      `${plan.cells.length} cells × ${plan.replicates} replicates = ${plan.tasks} replicates in ${plan.chunks.length} chunks of at most ${plan.chunkSize}`,
    ];
    if (shard) lines.push(`shard ${shard.index}/${shard.count}: ${chunks.length} chunks, ${tasks} replicates`);
    const columns = plan.gridColumns.map((column) => column.column);
    const header = ['cell', ...columns, 'replicates'];
    const rows = plan.cells.map((cell) => [
      String(cell.index + 1),
      ...columns.map((column) => String(cell.columns[column])),
      String(chunks.filter((chunk) => chunk.cell === cell.index).reduce((sum, chunk) => sum + chunk.count, 0)),
    ]);
    lines.push('', ...textTable(header, rows));
    process.stdout.write(`${lines.join('\n')}\n`);
  },
};
