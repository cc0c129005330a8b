import type { ExperimentKind } from '../kind.js';
import { operatingCharacteristicReporter } from './report.js';
import { operatingCharacteristicRunner } from './run.js';

/** The `operating-characteristic` kind (error rates and queries over true gaps): run half and report half. */
export const operatingCharacteristicKind: ExperimentKind = {
  name: 'operating-characteristic',
  run: operatingCharacteristicRunner,
  report: operatingCharacteristicReporter,
};
