import type { PaperTableLayout } from '../../src/report/paper-table.js';
import { accessTable } from './access-table.js';
import { paperAPoolData } from './pool-data-labels.js';
import { paperASiblingCells } from './sibling-cells.js';

/** Paper A Table 2: sequential auditing under SP, base models, three access regimes. */
export const paperATable2: PaperTableLayout = accessTable(
  'sp',
  'paper-a-table-2',
  'Table 2. Sequential auditing under SP',
  'Oracle hard-decision SP gap; per access regime the decision (most frequent over replicates) and mean queries to termination ± std. Decision-only access is the hard-decision audit; score and logit access are proxy audits with their own operational tolerances.',
  paperASiblingCells,
  paperAPoolData,
);
