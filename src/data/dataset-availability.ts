import { type DataLocationOptions, dataLocations } from './data-locations.js';
import { readManifest } from './manifest.js';
import { DATASETS } from './registry.js';
import { type FormAvailability, formAvailability } from './resolve-form.js';

/** Where one dataset stands: the form that would be read, or what is missing. */
export interface DatasetAvailability {
  readonly name: string;
  readonly title: string;
  readonly summary: string;
  /** "ready" (a readable form is complete), "partial" (some files found) or "missing". */
  readonly status: 'ready' | 'partial' | 'missing';
  /** The form loadDataset would read, when ready. */
  readonly form: string | null;
  readonly forms: readonly FormAvailability[];
}

/**
 * datasetAvailability(options, names?) checks, for every registered dataset (or only
 * those named), which files of which forms exist in the mirror or downloads (without
 * reading or hashing them). Throws InputError when the named mirror is not a folder.
 * O(datasets × files).
 */
export function datasetAvailability(
  options: DataLocationOptions = {},
  names?: readonly string[],
): DatasetAvailability[] {
  const locations = dataLocations(options);
  return DATASETS.list()
    .filter((definition) => names === undefined || names.includes(definition.name))
    .map((definition) => {
      const manifest = readManifest(definition.name, options.manifestDirectory);
      const forms = formAvailability(manifest, locations);
      const ready = forms.find((entry) => entry.complete && entry.form.readable !== false);
      const anyFound = forms.some((entry) => entry.found.size > 0);
      return {
        name: definition.name,
        title: manifest.title,
        summary: definition.summary,
        status: ready !== undefined ? 'ready' : anyFound ? 'partial' : 'missing',
        form: ready?.form.name ?? null,
        forms,
      };
    });
}
