import type { PaperTableLayout } from '../../src/report/paper-table.js';
import { accessTable } from './access-table.js';
import type { PoolDataLabels } from './pool-data-labels.js';

/** Paper A Table 2: sequential auditing under SP, base models, three access regimes
 * (with a Data column when `data` labels the pools). */
export function paperATable2(data?: PoolDataLabels): PaperTableLayout {
  return accessTable(
    'sp',
    'paper-a-table-2',
    'Table 2. Sequential auditing under SP',
    'Oracle hard-decision SP gap; per access regime the decision (most frequent over replicates) and mean ' +
      'queries to termination ± std. Decision-only access is the hard-decision audit; score and logit access are ' +
      'proxy ' +
      'audits with their own operational tolerances.',
    data,
  );
}
