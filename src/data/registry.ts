import { inputError } from '../util/errors.js';
import { Registry } from '../util/registry.js';
import type { DatasetDefinition } from './dataset-definition.js';
import { acsIncomeDataset } from './datasets/acs-income.js';
import { adultDataset } from './datasets/adult.js';
import { ccdDataset } from './datasets/ccd.js';
import { compasDataset } from './datasets/compas.js';
import { hatedayDataset } from './datasets/hateday.js';

/** Every dataset fairaudit knows, in the order `fairaudit data list` shows them. */
export const DATASETS: Registry<DatasetDefinition> = Registry.of('dataset', [
  acsIncomeDataset,
  adultDataset,
  ccdDataset,
  compasDataset,
  hatedayDataset,
]);

/** The registry's names. */
export function datasetNames(): string[] {
  return DATASETS.names();
}

/** datasetDefinition(name) returns a registered dataset or throws InputError listing the names. */
export function datasetDefinition(name: string, where = 'dataset'): DatasetDefinition {
  const found = DATASETS.find(name);
  if (found === undefined) throw inputError({ where, expected: `one of ${datasetNames().join(', ')}`, found: name });
  return found;
}
