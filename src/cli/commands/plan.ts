import type { Argv } from 'yargs';
import { EAGER_CELL_LIMIT, loadConfig, parseOverride } from '../../harness/config.js';
import { configReference } from '../../harness/config-reference.js';
import { findKindRunner } from '../../harness/kind-runners.js';
import { buildPlan, cellShardRows, parseShard, shardSize } from '../../harness/plan.js';
import { InputError } from '../../util/errors.js';
import { defineCommand } from '../define-command.js';
import { planNotes } from '../plan-notes.js';
import { textTable } from '../text-table.js';

/** The most cells the text output lists (the counts above the table cover them all). */
const TABLE_CELLS = 100;

/** `fairaudit plan CONFIG`: the cells and task counts of an experiment, without running it; O(grid axes) however many
 * replicates or cells. */
export const planCommand = defineCommand({
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
      }),
  handler: async (args) => {
    if (args.reference) {
      process.stdout.write(configReference());
      return;
    }
    if (!args.config) throw new InputError('plan: expected a config file (fairaudit plan CONFIG), found none');
    const config = loadConfig(args.config, (args.set ?? []).map(parseOverride));
    const kind = findKindRunner(config.kind);
    if (!kind) throw new Error(`plan: kind ${config.kind} vanished from the registry`);
    const plan = buildPlan(config, kind);
    const shard = args.shard === undefined ? undefined : parseShard(args.shard);
    const { chunks, rows: tasks } = shardSize(plan, shard);
    // Cells are listed up to EAGER_CELL_LIMIT (JSON) or TABLE_CELLS (text): counts come from the axes alone.
    const listed = Math.min(plan.cellCount, args.json ? EAGER_CELL_LIMIT : TABLE_CELLS);
    if (args.json) {
      const all = plan.cellCount <= EAGER_CELL_LIMIT;
      process.stdout.write(
        `${JSON.stringify(
          {
            experiment: plan.experiment,
            kind: plan.kind,
            seed: plan.seed,
            replicates: plan.replicates,
            fingerprint: plan.fingerprint,
            cellCount: plan.cellCount,
            ...(all
              ? {
                  cells: Array.from({ length: listed }, (_, index) => {
                    const cell = plan.cellAt(index);
                    return { index: cell.index, key: cell.key, coordinates: cell.coordinates, settings: cell.settings };
                  }),
                }
              : {}),
            chunks,
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
      `${plan.cellCount} cells × ${plan.replicates} replicates = ${plan.tasks} replicates ` +
        `in ${plan.chunkCount} chunks of at most ${plan.chunkSize}`,
    ];
    if (shard) lines.push(`shard ${shard.index}/${shard.count}: ${chunks} chunks, ${tasks} replicates`);
    const columns = plan.gridColumns.map((column) => column.column);
    const header = ['cell', ...columns, 'replicates'];
    const rows = Array.from({ length: listed }, (_, index) => {
      const cell = plan.cellAt(index);
      return [
        String(index + 1),
        ...columns.map((column) => String(cell.columns[column])),
        String(cellShardRows(plan, index, shard)),
      ];
    });
    lines.push('', ...textTable(header, rows));
    if (listed < plan.cellCount) lines.push(`… and ${plan.cellCount - listed} more cells`);
    lines.push(...(await planNotes(config, kind, plan)));
    process.stdout.write(`${lines.join('\n')}\n`);
  },
});
