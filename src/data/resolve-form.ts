import { InputError } from '../util/errors.js';
import { DATA_DIRECTORY_VARIABLE, type DataLocations, downloadFolder, findFile } from './data-locations.js';
import type { DatasetManifest, ManifestForm } from './manifest.js';

/** A form of a dataset whose required files were all found: file name -> path. */
export interface LocatedForm {
  readonly form: ManifestForm;
  readonly paths: ReadonlyMap<string, string>;
}

/** What was found of one form (for `data list` and for error messages). */
export interface FormAvailability {
  readonly form: ManifestForm;
  readonly found: ReadonlyMap<string, string>;
  readonly missing: readonly string[];
  readonly complete: boolean;
}

/** formAvailability(manifest, locations) says, per form, which files were found where. */
export function formAvailability(manifest: DatasetManifest, locations: DataLocations): FormAvailability[] {
  return manifest.forms.map((form) => {
    const found = new Map<string, string>();
    const missing: string[] = [];
    for (const file of form.files) {
      const path = findFile(manifest, file.name, locations);
      if (path !== null) found.set(file.name, path);
      else if (!file.optional) missing.push(file.name);
    }
    return { form, found, missing, complete: missing.length === 0 };
  });
}

/**
 * locateForm(manifest, locations, extraFiles) picks the first form (in the manifest's
 * order of preference) that fairaudit can read and whose required files all exist.
 * `extraFiles` lists files a loader found besides the manifest's (for the message).
 *
 * Throws InputError when no readable form is complete: the message says which files
 * each form needs, which were found (a partial mirror), and the two ways to provide
 * the data (fetch, or a mirror via --data-dir / FAIRAUDIT_DATA_DIR).
 * O(number of files).
 */
export function locateForm(
  manifest: DatasetManifest,
  locations: DataLocations,
  extraFiles: readonly string[] = [],
): LocatedForm {
  const availability = formAvailability(manifest, locations);
  for (const entry of availability) {
    if (entry.complete && entry.form.readable !== false) return { form: entry.form, paths: entry.found };
  }
  throw missingDatasetError(manifest, locations, availability, extraFiles);
}

function missingDatasetError(
  manifest: DatasetManifest,
  locations: DataLocations,
  availability: readonly FormAvailability[],
  extraFiles: readonly string[],
): InputError {
  const lines: string[] = [];
  const anyFound = availability.some((entry) => entry.found.size > 0) || extraFiles.length > 0;
  lines.push(
    `dataset "${manifest.name}" (${manifest.title}) is ${anyFound ? 'incomplete' : 'missing'}: expected the ` +
      `files of one of these forms, found none complete.`,
  );
  const searched = locations.mirror === null ? 'no mirror set' : `mirror ${locations.mirror}`;
  lines.push(`Looked in: ${searched}; downloads ${downloadFolder(locations, manifest.name)}.`);
  for (const entry of availability) {
    const required = entry.form.files.filter((file) => !file.optional).map((file) => file.name);
    const state =
      entry.form.readable === false && entry.complete
        ? 'found, but fairaudit cannot read this form'
        : entry.found.size > 0
          ? `missing ${entry.missing.join(', ')} (found ${[...entry.found.values()].join(', ')})`
          : 'missing';
    lines.push(`  - ${entry.form.name}: ${required.join(' + ')}: ${state}. ${entry.form.description}`);
  }
  for (const extra of extraFiles) lines.push(`  found ${extra}`);
  if (manifest.note !== undefined) lines.push(manifest.note);
  const downloadable = manifest.forms.some(
    (form) => form.readable !== false && form.files.every((file) => file.optional || file.urls.length > 0),
  );
  lines.push('Provide it in one of two ways:');
  lines.push(
    downloadable
      ? `  1. fairaudit data fetch ${manifest.name}   (downloads, checks the sha256 where the manifest has one, ` +
          `stores under ${downloadFolder(locations, manifest.name)})`
      : `  1. download the files yourself (see ${manifest.homepage}) and put them ` +
          `in ${downloadFolder(locations, manifest.name)}`,
  );
  lines.push(
    `  2. a local mirror with the canonical file names: --data-dir DIR or ${DATA_DIRECTORY_VARIABLE}=DIR, ` +
      `with the files in DIR/${manifest.folders[0] ?? manifest.name}/ or directly in DIR/.`,
  );
  return new InputError(lines.join('\n'));
}
