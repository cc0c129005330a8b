import { relative } from 'node:path';
import { type AcquireOptions, type Acquisition, acquireDatasets, acquisitionNotice } from '../data/acquire-datasets.js';
import { downloadsRoot } from '../data/data-locations.js';
import { ProgressBar } from './progress.js';

/** Options of acquireForReproduction: where data lives, --offline, and --quiet. */
export interface AcquireForReproductionOptions extends AcquireOptions {
  /** --quiet: no download lines or bars (the one notice about missing data is still written). */
  readonly quiet?: boolean;
}

/**
 * acquireForReproduction(datasets, options, write) is what `fairaudit reproduce` does
 * before it runs: acquireDatasets for the datasets the chosen reproductions read
 * (downloads of the missing ones when the network answers; nothing with --offline or
 * FAIRAUDIT_OFFLINE=1), telling the user on stderr through `write`: a line per file
 * being downloaded and a byte bar on a terminal (unless quiet), a line per dataset
 * fetched, and, when something could not be had, the one line of acquisitionNotice
 * (always, since it says the outputs use the calibrated default). Returns the
 * acquisition. Throws InputError as acquireDatasets does (an unknown name, a mirror
 * that is not a folder). Running time: the probe (at most its timeout) plus downloads.
 */
export async function acquireForReproduction(
  datasets: readonly string[],
  options: AcquireForReproductionOptions,
  write: (text: string) => void = (text) => process.stderr.write(text),
): Promise<Acquisition> {
  let bar: ProgressBar | null = null;
  let current = '';
  const acquisition = await acquireDatasets(datasets, {
    ...options,
    onProgress: (dataset, progress) => {
      if (`${dataset}/${progress.file}` !== current) {
        bar?.finish();
        current = `${dataset}/${progress.file}`;
        const size = progress.totalBytes === null ? '' : ` (${(progress.totalBytes / 1e6).toFixed(1)} MB)`;
        if (!options.quiet) write(`fetching ${dataset}: ${progress.file}${size} from ${progress.url}\n`);
        bar =
          progress.totalBytes === null
            ? null
            : new ProgressBar(progress.file, progress.totalBytes, options.quiet, 'bytes');
      }
      bar?.update(progress.receivedBytes);
    },
  });
  (bar as ProgressBar | null)?.finish();
  if (!options.quiet) {
    const folder = relative(process.cwd(), downloadsRoot(options)) || '.';
    for (const name of acquisition.fetched)
      write(`fetched ${name} into ${folder}/${name}/ (sizes and sha256 verified)\n`);
  }
  const notice = acquisitionNotice(acquisition);
  if (notice !== null) write(`${notice}\n`);
  return acquisition;
}
