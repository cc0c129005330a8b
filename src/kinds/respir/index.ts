import type { ExperimentKind } from '../kind.js';
import { respirMinimalFlipsReporter, respirReporter } from './report.js';
import { respirMinimalFlipsRunner, respirRunner } from './run.js';

/** The `respir` kind (paper B's oblivious audits under manipulation, with canaries): run half and report half. */
export const respirKind: ExperimentKind = { name: 'respir', run: respirRunner, report: respirReporter };

/** The `respir-minimal-flips` kind (the empirical fewest flips beside Theorems 1 and 4): run half and report half. */
export const respirMinimalFlipsKind: ExperimentKind = {
  name: 'respir-minimal-flips',
  run: respirMinimalFlipsRunner,
  report: respirMinimalFlipsReporter,
};
