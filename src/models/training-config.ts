import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { InputError, inputError } from '../util/errors.js';
import { type Infer, SchemaViolation, schema, validate } from '../util/schema.js';

/**
 * The schema of a model-training config (`fairaudit models train CONFIG`): the single
 * source of its TypeScript type, its validation and defaults, and the key reference
 * in docs/models.md.
 */
export const modelTrainingConfigSchema = schema.object(
  {
    dataset: schema.string({ description: 'The dataset to train on: adult, acs-income, ccd, compas.' }),
    split: schema.object(
      {
        scheme: schema.enumOf(['paper-a', 'paper-b'], {
          description: 'paper-a: 70/30 train/test, the test part is the pool; paper-b: candidate set and audit set.',
        }),
        seed: schema.seed({ description: 'The split seed.' }),
        protectedAttribute: schema.optional(
          schema.string({ description: "The protected attribute (default: the dataset's first, e.g. sex)." }),
        ),
        heldOutFraction: schema.optional(
          schema.number({
            description: 'Held-out fraction (default 0.3 for paper-a, 0.45 for paper-b).',
            minimum: 0,
            maximum: 1,
            exclusiveMinimum: true,
            exclusiveMaximum: true,
          }),
        ),
        auditFraction: schema.optional(
          schema.number({
            description: 'paper-b: the audit set as a fraction of the candidate set (default 0.5).',
            minimum: 0,
            maximum: 1,
            exclusiveMinimum: true,
            exclusiveMaximum: true,
          }),
        ),
        stratifyBy: schema.optional(
          schema.enumOf(['label', 'group', 'none'], {
            description: 'What the split is stratified by (default label for paper-a, group for paper-b).',
          }),
        ),
      },
      { description: 'How the dataset is split (src/data prepareSplit).' },
    ),
    models: schema.array(schema.string({ description: 'A model preset name.' }), {
      description:
        "The model presets to train, by name (the CLI's presets: paper A's robust-base, unstable-base, " +
        "robust-dp, unstable-dp; paper B's boosted-trees).",
      minItems: 1,
    }),
    seed: schema.seed({
      description: "The models' master seed (initialisation, minibatches, dropout, search).",
      default: '2026',
    }),
    threads: schema.integer({ description: 'Worker threads training models at once.', minimum: 1, default: 2 }),
  },
  { description: 'A model-training config.' },
);

export type ModelTrainingConfig = Infer<typeof modelTrainingConfigSchema>;

/**
 * loadModelTrainingConfig(file) reads and validates a model-training YAML config,
 * filling in defaults. Throws InputError naming the file, the key path, what was
 * expected and what was found.
 */
export function loadModelTrainingConfig(file: string): ModelTrainingConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw inputError({
      where: file,
      expected: 'a readable YAML model-training config',
      found: (error as NodeJS.ErrnoException).code ?? 'an error',
    });
  }
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (error) {
    throw new InputError(`${file}: expected valid YAML, found ${(error as Error).message.split('\n')[0]}`);
  }
  try {
    return validate(raw ?? {}, modelTrainingConfigSchema);
  } catch (error) {
    if (error instanceof SchemaViolation) throw new InputError(`${file}: ${error.message}`);
    throw error;
  }
}
