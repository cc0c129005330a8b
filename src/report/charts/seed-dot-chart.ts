import type { CellVariability, SeedAxis } from '../training-variability.js';
import type { ChartSpec } from './chart-spec.js';
import { chartConfig, vegaLiteSchema } from './chart-style.js';

const AXIS_LABEL: Record<SeedAxis, string> = {
  base: 'seed 0 (the single run)',
  model: 'model seeds',
  split: 'split seeds',
};
const AXIS_COLOR: Record<SeedAxis, string> = { base: '#111111', model: '#1f77b4', split: '#ff7f0e' };
const lanes = (['base', 'model', 'split'] as const).map((axis) => AXIS_LABEL[axis]);
const laneColors = { domain: lanes, range: (['base', 'model', 'split'] as const).map((axis) => AXIS_COLOR[axis]) };

/** A cell's row label: its table row and column ("Adult / Robust-Base · SP Gap"). */
function cellLabel(cell: CellVariability): string {
  return `${cell.row} · ${cell.column}`;
}

const rowFacet = (count: number) => ({
  row: {
    field: 'cell',
    type: 'nominal',
    sort: { field: 'order', op: 'min' },
    title: null,
    header: { labelAngle: 0, labelAlign: 'left', labelLimit: 330, labelFontWeight: 'normal', labelFontSize: 11 },
  },
  spacing: count > 1 ? 4 : 0,
});

const laneAxis = { field: 'axis', type: 'nominal', title: null, sort: lanes, scale: { domain: lanes }, axis: null };

/** The panel of numeric cells: per cell a strip with its own x scale, seeds as dots on three lanes, the widened range
 * grey, the published value red. */
function numericPanel(cells: readonly CellVariability[]): Record<string, unknown> | null {
  const numeric = cells.filter(
    (cell) => typeof cell.published === 'number' && cell.values.some((seed) => typeof seed.value === 'number'),
  );
  if (numeric.length === 0) return null;
  const values: Array<Record<string, unknown>> = [];
  numeric.forEach((cell, order) => {
    const label = cellLabel(cell);
    values.push({ cell: label, order, kind: 'published', value: cell.published, verdict: cell.verdict });
    if (cell.range !== null)
      values.push({ cell: label, order, kind: 'range', low: cell.range[0], high: cell.range[1] });
    for (const seed of cell.values) {
      if (typeof seed.value !== 'number' || !Number.isFinite(seed.value)) continue;
      values.push({
        cell: label,
        order,
        kind: 'seed',
        axis: AXIS_LABEL[seed.axis],
        value: seed.value,
        split: seed.splitSeed,
        model: seed.modelSeed,
      });
    }
  });
  const x = {
    type: 'quantitative',
    title: null,
    scale: { zero: false, nice: false },
    axis: { labelFontSize: 9, tickCount: 4, grid: false },
  };
  return {
    data: { values },
    facet: rowFacet(numeric.length),
    spec: {
      width: 360,
      height: 30,
      layer: [
        {
          transform: [{ filter: "datum.kind === 'range'" }],
          mark: { type: 'rect', color: '#e6e6e6' },
          encoding: { x: { ...x, field: 'low' }, x2: { field: 'high' } },
        },
        {
          transform: [{ filter: "datum.kind === 'seed'" }],
          mark: { type: 'point', filled: true, size: 34, opacity: 0.85 },
          encoding: {
            x: { ...x, field: 'value' },
            y: laneAxis,
            color: { field: 'axis', type: 'nominal', title: 'Seed', scale: laneColors, sort: lanes },
            tooltip: [
              { field: 'axis', title: 'axis' },
              { field: 'split', title: 'split seed' },
              { field: 'model', title: 'model seed' },
              { field: 'value', title: 'value', format: '.4~g' },
            ],
          },
        },
        {
          transform: [{ filter: "datum.kind === 'published'" }],
          mark: { type: 'rule', color: '#c0392b', strokeWidth: 2.5 },
          encoding: {
            x: { ...x, field: 'value' },
            tooltip: [{ field: 'value', title: 'published', format: '.4~g' }, { field: 'verdict' }],
          },
        },
      ],
    },
    resolve: { scale: { x: 'independent' } },
  };
}

/** The panel of label cells (decisions): per cell the labels the seeds gave on three lanes, dot size = seeds, the
 * published label ringed red. */
function labelPanel(cells: readonly CellVariability[]): Record<string, unknown> | null {
  const labelled = cells.filter(
    (cell) => typeof cell.published === 'string' && cell.values.some((seed) => seed.value !== null),
  );
  if (labelled.length === 0) return null;
  const values: Array<Record<string, unknown>> = [];
  const categories = new Set<string>();
  labelled.forEach((cell, order) => {
    const label = cellLabel(cell);
    const tally = new Map<string, number>();
    for (const seed of cell.values) {
      if (seed.value === null) continue;
      const key = `${AXIS_LABEL[seed.axis]}\u0000${String(seed.value).toLowerCase()}`;
      tally.set(key, (tally.get(key) ?? 0) + 1);
    }
    for (const [key, count] of tally) {
      const [axis, value] = key.split('\u0000');
      categories.add(value);
      values.push({ cell: label, order, kind: 'seed', axis, value, count });
    }
    const published = String(cell.published).toLowerCase();
    categories.add(published);
    values.push({ cell: label, order, kind: 'published', value: published, verdict: cell.verdict });
  });
  const order = ['reject', 'accept', 'inconclusive'].filter((value) => categories.has(value));
  const domain = [...order, ...[...categories].filter((value) => !order.includes(value)).sort()];
  const x = {
    field: 'value',
    type: 'nominal',
    title: null,
    sort: domain,
    scale: { domain },
    axis: { labelAngle: 0, labelFontSize: 10 },
  };
  return {
    data: { values },
    facet: rowFacet(labelled.length),
    spec: {
      width: { step: 90 },
      height: 30,
      layer: [
        {
          transform: [{ filter: "datum.kind === 'published'" }],
          mark: { type: 'point', filled: false, color: '#c0392b', strokeWidth: 2.5, size: 420 },
          encoding: { x, tooltip: [{ field: 'value', title: 'published' }, { field: 'verdict' }] },
        },
        {
          transform: [{ filter: "datum.kind === 'seed'" }],
          mark: { type: 'point', filled: true, opacity: 0.85 },
          encoding: {
            x,
            y: laneAxis,
            size: { field: 'count', type: 'quantitative', scale: { range: [30, 260] }, legend: null },
            color: { field: 'axis', type: 'nominal', title: 'Seed', scale: laneColors, sort: lanes },
            tooltip: [{ field: 'axis' }, { field: 'value' }, { field: 'count', title: 'seeds' }],
          },
        },
      ],
    },
  };
}

/**
 * seedDotChart(id, table, cells) draws one panel per table of training variability:
 * for each trained cell of `table` a strip with the seeds' values as dots on three
 * lanes (seed 0 black, varied model seeds blue, varied split seeds orange), the seeds'
 * range widened by each seed's Monte Carlo tolerance in grey (the "within training
 * variability" band) and the published value as a red rule; each strip has its own x
 * scale (a gap and a query count share a table). Decision cells get a strip of labels
 * with dot size = number of seeds and the published label ringed red. Returns null
 * when the table has no trained cell with a value. O(cells × seeds).
 */
export function seedDotChart(
  id: string,
  table: string,
  cells: readonly CellVariability[],
  subtitle?: string,
): ChartSpec | null {
  const own = cells.filter((cell) => cell.table === table);
  const panels = [numericPanel(own), labelPanel(own)].filter((panel) => panel !== null);
  if (panels.length === 0) return null;
  const seeds = own[0].values.length;
  const title = `${table}: each trained cell over ${seeds} seed pairs`;
  const text =
    subtitle ??
    'Dots: seed 0 (black), varied model seeds (blue), varied split seeds (orange). Grey: their range widened by ' +
      "each seed's Monte Carlo tolerance. Red: published.";
  return {
    id,
    title,
    caption:
      'One strip per trained cell, each with its own scale. A published value (red) inside the grey band is ' +
      '"within training variability"; seed 0 within its own Monte Carlo tolerance is "reproduced". Decision ' +
      'cells: dot ' +
      'size is the number of seeds giving that decision; the published decision is ringed.',
    spec: {
      $schema: vegaLiteSchema,
      title: { text: title, subtitle: text },
      vconcat: panels,
      config: chartConfig,
    },
  };
}
