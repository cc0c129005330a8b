import { PAPER_A_DATASETS, PAPER_A_MODELS, type PaperADataset, type PaperAModel } from './calibrated-pools.js';

/**
 * The audit pools of paper A: one per dataset and model (§4.1-4.2), named
 * "<dataset>-<model>" ("adult-robust-base"). The name is the `pool` setting of every
 * config in papers/paper-a/configs/ and the `where.pool` of every published cell.
 */
export interface PaperAPool {
  readonly name: string;
  readonly dataset: PaperADataset;
  readonly model: PaperAModel;
  /** As printed in the paper's tables ("ACS", "Adult"). */
  readonly datasetLabel: string;
  /** As printed ("Robust-Base"). */
  readonly modelLabel: string;
  /** Tables 2-5 report the base models only (§5, after Table 1). */
  readonly base: boolean;
}

const DATASET_LABEL: Record<PaperADataset, string> = { acs: 'ACS', adult: 'Adult' };
const MODEL_LABEL: Record<PaperAModel, string> = {
  'robust-dp': 'Robust-DP',
  'unstable-dp': 'Unstable-DP',
  'robust-base': 'Robust-Base',
  'unstable-base': 'Unstable-Base',
};

/** poolName(dataset, model) is the pool's name in configs and results ("acs-robust-dp"). */
export function poolName(dataset: PaperADataset, model: PaperAModel): string {
  return `${dataset}-${model}`;
}

/** All eight pools in Table 1's row order (ACS first, then Adult; DP models first). */
export const PAPER_A_POOLS: readonly PaperAPool[] = PAPER_A_DATASETS.flatMap((dataset) =>
  PAPER_A_MODELS.map((model) => ({
    name: poolName(dataset, model),
    dataset,
    model,
    datasetLabel: DATASET_LABEL[dataset],
    modelLabel: MODEL_LABEL[model],
    base: model.endsWith('-base'),
  })),
);

/** The four base-model pools of Tables 2-5, in their row order. */
export const PAPER_A_BASE_POOLS: readonly PaperAPool[] = PAPER_A_POOLS.filter((pool) => pool.base);

/** The experiment name of the main grid (results/paper-a/) that fills Tables 1-5 and Figure 1. */
export const PAPER_A_EXPERIMENT = 'paper-a';

/** The experiment names of the tolerance-sensitivity runs (score and logit access). */
export const PAPER_A_SENSITIVITY_EXPERIMENTS = {
  score: 'paper-a-score-tolerance',
  logit: 'paper-a-logit-tolerance',
} as const;
