import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } from 'hyparquet';
import { inputError } from '../../util/errors.js';
import type { DatasetContents, DatasetDefinition } from '../dataset-definition.js';
import { numericColumn } from '../dataset-table.js';
import { readNpyMatrix } from '../npy-array.js';
import type { LocatedForm } from '../resolve-form.js';

/** Paper B represents each text by a 512-dimensional distiluse-base-multilingual-cased-v2 embedding. */
export const EMBEDDING_DIMENSION = 512;
const PARQUET = 'hateday_v2_hf_final.parquet';
const SIDE_FILE = 'hateday_embeddings.npy';
const EMBEDDING_COLUMNS = ['embedding', 'embeddings'];
const REFERENCE_COUNTRY = 'US';

function toNumber(value: unknown): number {
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') return Number(value);
  return Number.NaN;
}

/**
 * finiteEmbeddingValue(value, found, where, dimension) returns value when it is finite;
 * otherwise throws InputError naming `where` and the 1-based dimension, so a NaN or
 * infinite embedding never reaches the features silently. O(1).
 */
function finiteEmbeddingValue(value: number, found: unknown, where: string, dimension: number): number {
  if (!Number.isFinite(value)) {
    throw inputError({
      where: `${where}, dimension ${dimension + 1}`,
      expected: 'a finite number',
      found: String(found),
    });
  }
  return value;
}

/**
 * readHateday(located) reads paper B's HateDay input: hateday_v2_hf_final.parquet's
 * `class_clean` (0 normal, 1 offensive, 2 hateful; label = class_clean ≠ 0) and
 * `lang_country_hateday` (protected attribute "language": group b = not "US", compared
 * without regard to case since the value set is unverified), with the 512-d embeddings
 * from the parquet's `embedding` list column or, failing that, from hateday_embeddings.npy
 * (rows in the parquet's order). The features are the embedding's 512 numbers.
 *
 * Throws InputError naming the file (and row) when a column is missing, class_clean is
 * not 0/1/2, no row is "US" (the attribute would be constant), the embeddings are absent,
 * not 512 wide, not one per row, or hold a value that is not a finite number. O(rows × 512).
 */
async function readHateday(located: LocatedForm): Promise<DatasetContents> {
  const path = located.paths.get(PARQUET) as string;
  const file = await asyncBufferFromFile(path);
  let names: string[];
  try {
    names = parquetSchema(await parquetMetadataAsync(file)).children.map((child) => child.element.name);
  } catch (error) {
    throw inputError({ where: path, expected: 'a parquet file', found: (error as Error).message });
  }
  const missing = ['class_clean', 'lang_country_hateday'].filter((name) => !names.includes(name));
  if (missing.length > 0) {
    throw inputError({
      where: path,
      expected: 'columns class_clean and lang_country_hateday',
      found: `columns ${names.join(', ')}`,
    });
  }
  const embeddingColumn = EMBEDDING_COLUMNS.find((name) => names.includes(name));
  const sidePath = located.paths.get(SIDE_FILE);
  if (embeddingColumn === undefined && sidePath === undefined) {
    throw inputError({
      where: path,
      expected: `an embedding column (${EMBEDDING_COLUMNS.join(' or ')}) or the side file ${SIDE_FILE} beside it`,
      found: `columns ${names.join(', ')} and no ${SIDE_FILE}`,
    });
  }
  const columns = ['class_clean', 'lang_country_hateday', ...(embeddingColumn === undefined ? [] : [embeddingColumn])];
  const records = (await parquetReadObjects({ file, columns })) as Array<Record<string, unknown>>;
  const rows = records.length;
  const label = new Uint8Array(rows);
  const group = new Uint8Array(rows);
  let referenceRows = 0;
  records.forEach((record, i) => {
    const where = `${path}: row ${i + 1}`;
    const kind = toNumber(record.class_clean);
    if (kind !== 0 && kind !== 1 && kind !== 2)
      throw inputError({
        where: `${where}, column class_clean`,
        expected: '0, 1 or 2',
        found: String(record.class_clean),
      });
    label[i] = kind === 0 ? 0 : 1;
    const country = record.lang_country_hateday;
    if (typeof country !== 'string')
      throw inputError({ where: `${where}, column lang_country_hateday`, expected: 'a string', found: country });
    const isReference = country.trim().toUpperCase() === REFERENCE_COUNTRY;
    group[i] = isReference ? 0 : 1;
    if (isReference) referenceRows++;
  });
  if (rows > 0 && referenceRows === 0) {
    const seen = [...new Set(records.slice(0, 1000).map((record) => String(record.lang_country_hateday)))].slice(0, 10);
    throw inputError({
      where: `${path}: column lang_country_hateday`,
      expected: `some rows equal to "${REFERENCE_COUNTRY}"`,
      found: seen.join(', '),
    });
  }

  const embedding = Array.from({ length: EMBEDDING_DIMENSION }, () => new Float64Array(rows));
  if (embeddingColumn !== undefined) {
    records.forEach((record, i) => {
      const vector = record[embeddingColumn];
      if (!Array.isArray(vector) && !ArrayBuffer.isView(vector)) {
        throw inputError({
          where: `${path}: row ${i + 1}, column ${embeddingColumn}`,
          expected: `a list of ${EMBEDDING_DIMENSION} numbers`,
          found: vector,
        });
      }
      const values = vector as ArrayLike<unknown>;
      if (values.length !== EMBEDDING_DIMENSION) {
        throw inputError({
          where: `${path}: row ${i + 1}, column ${embeddingColumn}`,
          expected: `${EMBEDDING_DIMENSION} numbers`,
          found: `${values.length} numbers`,
        });
      }
      for (let k = 0; k < EMBEDDING_DIMENSION; k++) {
        embedding[k][i] = finiteEmbeddingValue(
          toNumber(values[k]),
          values[k],
          `${path}: row ${i + 1}, column ${embeddingColumn}`,
          k,
        );
      }
    });
  } else {
    const side = sidePath as string;
    const matrix = readNpyMatrix(side);
    if (matrix.columns !== EMBEDDING_DIMENSION || matrix.rows !== rows) {
      throw inputError({
        where: side,
        expected:
          `shape (${rows}, ${EMBEDDING_DIMENSION}): one ${EMBEDDING_DIMENSION}-d embedding per row ` + `of ${PARQUET}`,
        found: `shape (${matrix.rows}, ${matrix.columns})`,
      });
    }
    for (let i = 0; i < rows; i++) {
      for (let k = 0; k < EMBEDDING_DIMENSION; k++) {
        const value = matrix.values[i * EMBEDDING_DIMENSION + k];
        embedding[k][i] = finiteEmbeddingValue(value, value, `${side}: row ${i + 1}`, k);
      }
    }
  }
  return {
    rows,
    columns: embedding.map((values, k) => numericColumn(`embedding_${k}`, values)),
    label,
    labelMeaning: 'class_clean ≠ 0 (offensive or hateful)',
    protectedAttributes: [
      {
        name: 'language',
        groupB: `lang_country_hateday ≠ ${REFERENCE_COUNTRY}`,
        sourceColumn: 'lang_country_hateday',
        group,
      },
    ],
    rowIndex: Int32Array.from({ length: rows }, (_, i) => i),
  };
}

/** HateDay with sentence embeddings: paper B's text dataset (gated; bring your own copy). */
export const hatedayDataset: DatasetDefinition = {
  name: 'hateday',
  summary:
    'HateDay tweets as 512-d embeddings (gated; bring your own copy): class_clean ≠ 0, protected language; paper B',
  dropsProtectedColumn: true,
  read: readHateday,
};
