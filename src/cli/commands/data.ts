import type { Argv } from 'yargs';
import { datasetAvailability } from '../../data/dataset-availability.js';
import { summarizeDataset } from '../../data/dataset-summary.js';
import { exportDatasetSplit, SPLIT_EXPORT_FORMATS } from '../../data/export-split.js';
import { fetchDataset } from '../../data/fetch-dataset.js';
import { loadDataset } from '../../data/load-dataset.js';
import { datasetNames } from '../../data/registry.js';
import { commandGroup } from '../command-group.js';
import { dataDirectoryOption, jsonOption, quietOption } from '../common-options.js';
import { defineCommand } from '../define-command.js';
import { ProgressBar } from '../progress.js';

/** The NAME of `data info NAME` and `data fetch NAME`: one of the registered datasets. */
function datasetNameArgument() {
  return { type: 'string', choices: datasetNames(), demandOption: true, describe: 'the dataset' } as const;
}

function percent(value: number): string {
  return Number.isNaN(value) ? 'n/a' : `${(100 * value).toFixed(2)}%`;
}

const listCommand = defineCommand({
  command: 'list',
  describe: 'Which datasets are available, in which form, and where',
  builder: (yargs: Argv) => yargs.option('data-dir', dataDirectoryOption).option('json', jsonOption),
  handler: (args) => {
    const entries = datasetAvailability({ dataDirectory: args['data-dir'] });
    if (args.json) {
      const plain = entries.map((entry) => ({
        ...entry,
        forms: entry.forms.map((form) => ({
          name: form.form.name,
          complete: form.complete,
          found: Object.fromEntries(form.found),
          missing: form.missing,
        })),
      }));
      process.stdout.write(`${JSON.stringify(plain, null, 2)}\n`);
      return;
    }
    const formFilesText = (entry: (typeof entries)[number]): string =>
      [...(entry.forms.find((form) => form.form.name === entry.form)?.found.values() ?? [])].join(', ');
    for (const entry of entries) {
      const where = entry.form === null ? '' : ` (${entry.form}: ${formFilesText(entry)})`;
      process.stdout.write(`${entry.name.padEnd(8)} ${entry.status.padEnd(8)} ${entry.summary}${where}\n`);
      if (entry.status === 'partial') {
        for (const form of entry.forms.filter((candidate) => candidate.found.size > 0)) {
          process.stdout.write(`${''.padEnd(17)}form ${form.form.name}: missing ${form.missing.join(', ')}\n`);
        }
      }
    }
  },
});

const infoCommand = defineCommand({
  command: 'info <name>',
  describe: 'Load a dataset and print rows, columns, label rate and protected-group shares',
  builder: (yargs: Argv) =>
    yargs
      .positional('name', datasetNameArgument())
      .option('data-dir', dataDirectoryOption)
      .option('verify', { type: 'boolean', default: true, describe: 'check sizes and sha256 (--no-verify skips it)' })
      .option('json', jsonOption)
      .example('$0 data info adult --data-dir /work/shared/datasets', ''),
  handler: async (args) => {
    const table = await loadDataset(args.name, { dataDirectory: args['data-dir'], verify: args.verify });
    const summary = summarizeDataset(table);
    if (args.json) {
      process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
      return;
    }
    const out: string[] = [];
    out.push(`${summary.name} (form ${summary.form}): ${summary.rows} rows, ${summary.columns.length} feature columns`);
    out.push(`label: ${summary.labelMeaning}: ${summary.positives} positive (${percent(summary.labelRate)})`);
    for (const group of summary.groups) {
      out.push(
        `protected ${group.name}: group b = ${group.groupB}: ${group.groupBRows} rows ` +
          `(${percent(group.groupBShare)}); ` +
          `label rate a ${percent(group.labelRateA)}, b ${percent(group.labelRateB)}`,
      );
    }
    const columns = summary.columns.map((column) =>
      column.levels === null ? column.name : `${column.name} [${column.levels} levels]`,
    );
    out.push(`columns: ${columns.join(', ')}`);
    for (const file of summary.files) {
      out.push(
        `file ${file.path} (${file.size} bytes, ` +
          `sha256 ${file.check === 'verified' ? 'verified' : `not verified${file.sha256 ? `: ${file.sha256}` : ''}`})`,
      );
    }
    process.stdout.write(`${out.join('\n')}\n`);
  },
});

const fetchCommand = defineCommand({
  command: 'fetch <name>',
  describe: 'Download a dataset into data/downloads/NAME/, verifying sizes and sha256',
  builder: (yargs: Argv) =>
    yargs
      .positional('name', datasetNameArgument())
      .option('form', { type: 'string', describe: 'which form of the dataset to download (see data/NAME.json)' })
      .option('force', {
        type: 'boolean',
        default: false,
        describe: 'download again even when a verified copy is there',
      })
      .option('quiet', quietOption),
  handler: async (args) => {
    let bar: ProgressBar | null = null;
    let current = '';
    const files = await fetchDataset(args.name, {
      form: args.form,
      force: args.force,
      onProgress: (progress) => {
        if (progress.file !== current) {
          bar?.finish();
          current = progress.file;
          bar =
            progress.totalBytes === null
              ? null
              : new ProgressBar(progress.file, progress.totalBytes, args.quiet, 'bytes');
        }
        bar?.update(progress.receivedBytes);
      },
    });
    (bar as ProgressBar | null)?.finish();
    for (const file of files) {
      const check =
        file.check === 'verified' ? 'sha256 verified' : `sha256 NOT verified (no checksum known): ${file.sha256}`;
      process.stdout.write(`${file.action}: ${file.path} (${file.size} bytes, ${check})\n`);
    }
  },
});

const exportCommand = defineCommand({
  command: 'export <name>',
  describe:
    'Write a split exactly as the models see it (encoded train and held-out parts) to a folder, for other toolkits',
  builder: (yargs: Argv) =>
    yargs
      .positional('name', datasetNameArgument())
      .option('scheme', {
        type: 'string',
        choices: ['paper-a', 'paper-b'] as const,
        demandOption: true,
        describe: 'paper A (70/30 by label) or paper B (candidate and audit set)',
      })
      .option('seed', {
        type: 'string',
        demandOption: true,
        describe:
          "the split's seed (papers/<paper>/configs/models/*.yaml: split.seed; paper A's reproduction: paper-a-2026)",
      })
      .option('protected-attribute', {
        type: 'string',
        describe: "the protected attribute (default: the dataset's first)",
      })
      .option('out', { type: 'string', demandOption: true, describe: 'the folder to write' })
      .option('format', {
        type: 'string',
        choices: SPLIT_EXPORT_FORMATS,
        default: 'npy' as const,
        describe: 'NumPy .npy files or CSV',
      })
      .option('data-dir', dataDirectoryOption)
      .option('json', jsonOption)
      .example(
        '$0 data export adult --scheme paper-a --seed 2026 --protected-attribute sex --out /tmp/adult-split',
        '',
      ),
  handler: async (args) => {
    const files = await exportDatasetSplit(
      args.name,
      { scheme: args.scheme, seed: args.seed, protectedAttribute: args['protected-attribute'] },
      args.out,
      { format: args.format, dataDirectory: args['data-dir'] },
    );
    if (args.json) {
      process.stdout.write(`${JSON.stringify(files, null, 2)}\n`);
      return;
    }
    for (const file of files) process.stdout.write(`${file.path} (${file.bytes} bytes): ${file.holds}\n`);
  },
});

/** `fairaudit data <list|info|fetch|export>`: the datasets and where they come from. */
export const dataCommand = commandGroup(
  'data',
  'Datasets: list what is available, show one, fetch one, export a split',
  [listCommand, infoCommand, fetchCommand, exportCommand],
);
