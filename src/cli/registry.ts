import { multiGroupReproduction } from '../../papers/multi-group/reproduction.js';
import { errorControlLayout } from '../../papers/paper-a/error-control/report-layout.js';
import { errorControlReproduction } from '../../papers/paper-a/error-control/reproduction.js';
import { paperAModelConfig } from '../../papers/paper-a/files.js';
import { PAPER_A_MODEL_PRESETS } from '../../papers/paper-a/models.js';
import { paperALayout } from '../../papers/paper-a/report-layout.js';
import { paperAReproduction } from '../../papers/paper-a/reproduction.js';
import { paperBModelConfig } from '../../papers/paper-b/files.js';
import { PAPER_B_MODEL_PRESETS } from '../../papers/paper-b/models.js';
import { paperBPirReproduction } from '../../papers/paper-b/pir-reproduction.js';
import { paperBLayout } from '../../papers/paper-b/report-layout.js';
import { paperBReproduction } from '../../papers/paper-b/reproduction.js';
import type { Reproduction } from '../../papers/reproduction.js';
import { registerBuiltInKinds } from '../kinds/index.js';
import type { ModelPreset } from '../models/model-preset.js';
import type { PaperLayout } from '../report/paper-layout.js';
import { registerPaperLayout } from '../report/paper-layouts.js';
import { Registry } from '../util/registry.js';

/**
 * The model presets `fairaudit models train` knows: every paper's models. A list, not a
 * Registry: a preset's name is its spec's (trainFromConfig finds them by spec.name).
 */
export const modelPresets: readonly ModelPreset[] = [...PAPER_A_MODEL_PRESETS, ...PAPER_B_MODEL_PRESETS];

/** The paper layouts `report` and `compare` know, one per paper. */
export const paperLayouts: readonly PaperLayout[] = [paperALayout, errorControlLayout, paperBLayout];

/**
 * Every reproduction, in the order `fairaudit reproduce all` runs them. To add one,
 * write papers/<paper>/ with a Reproduction and add it here.
 */
export const reproductions: Registry<Reproduction> = Registry.of('reproduction', [
  paperAReproduction,
  errorControlReproduction,
  paperBReproduction,
  paperBPirReproduction,
  multiGroupReproduction([
    {
      dataset: 'adult',
      config: paperAModelConfig('adult'),
      presets: PAPER_A_MODEL_PRESETS,
      attributes: ['race', 'sex'],
    },
    {
      dataset: 'compas',
      config: paperBModelConfig('compas', 'race'),
      presets: PAPER_B_MODEL_PRESETS,
      attributes: ['race'],
    },
  ]),
]);

/** reproductionNames() lists the names `fairaudit reproduce` accepts (plus "all"). */
export function reproductionNames(): string[] {
  return reproductions.names();
}

let registered = false;

/**
 * registerBuiltIns() is the composition root: it hands the lower layers what they
 * plug in (the experiment kinds of src/kinds/ to the harness and the reporter, the
 * papers' layouts to the reporter). The CLI calls it before any command; calling it
 * again does nothing.
 */
export function registerBuiltIns(): void {
  if (registered) return;
  registered = true;
  registerBuiltInKinds();
  for (const layout of paperLayouts) registerPaperLayout(layout);
}
