import type { PaperTableLayout } from '../../src/report/paper-table.js';
import { accessTable } from './access-table.js';
import type { PoolDataLabels } from './pool-data-labels.js';

/** Paper A Table 3: sequential auditing under EO (the label = 1 pool), base models
 * (with a Data column when `data` labels the pools). */
export function paperATable3(data?: PoolDataLabels): PaperTableLayout {
  return accessTable(
    'eo',
    'paper-a-table-3',
    'Table 3. Sequential auditing under EO',
    'Oracle hard-decision EO gap; per access regime the decision (most frequent over replicates; inconclusive = ' +
      'no boundary crossed within min(B, EO pool)) and mean queries ± std, on the label = 1 pool.',
    data,
  );
}
