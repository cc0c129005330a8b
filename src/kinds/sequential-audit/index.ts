import type { ExperimentKind } from '../kind.js';
import { sequentialAuditReporter } from './report.js';
import { sequentialAuditRunner } from './run.js';

/** The `sequential-audit` kind (paper A's sequential GLR audits): run half and report half. */
export const sequentialAuditKind: ExperimentKind = {
  name: 'sequential-audit',
  run: sequentialAuditRunner,
  report: sequentialAuditReporter,
};
