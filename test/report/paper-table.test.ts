import { describe, expect, it } from 'vitest';
import type { CellSummary } from '../../src/report/cell-results.js';
import { layoutPaperTable, type PaperTableLayout, siblingCell } from '../../src/report/paper-table.js';

const summaries: CellSummary[] = [
  {
    cell: 'a',
    settings: { dataset: 'acs', metric: 'sp' },
    replicates: 20,
    values: { accuracy: 0.75, fixed_accuracy: 1, queries_mean: 2349.4, queries_std: 1345.2 },
  },
  {
    cell: 'b',
    settings: { dataset: 'acs', metric: 'eo' },
    replicates: 20,
    values: { accuracy: 0.7, fixed_accuracy: 0.95, queries_mean: 2711, queries_std: 1123 },
  },
];

const layout: PaperTableLayout = {
  id: 'test-table-4',
  title: 'Table 4 (test)',
  experiments: ['exp-a'],
  columns: [
    { name: 'dataset', label: 'Dataset', type: 'string' },
    { name: 'metric', label: 'Metric', type: 'string' },
    { name: 'accuracy', label: 'Accuracy', type: 'number', digits: 2, value: (cell) => cell.values.accuracy },
    {
      name: 'samples',
      label: 'Samples',
      type: 'string',
      value: (cell) => `${Number(cell.values.queries_mean).toFixed(0)} ± ${Number(cell.values.queries_std).toFixed(0)}`,
    },
  ],
  rows: [
    { labels: { dataset: 'ACS', metric: 'SP' }, where: { dataset: 'acs', metric: 'sp' } },
    { labels: { dataset: 'ACS', metric: 'EO' }, where: { dataset: 'acs', metric: 'eo' } },
    { labels: { dataset: 'Adult', metric: 'SP' }, where: { dataset: 'adult', metric: 'sp' } },
    { labels: { dataset: 'ACS', metric: 'any' }, where: { dataset: 'acs' } },
  ],
};

describe('layoutPaperTable(layout, summaries)', () => {
  it('lays rows out as published: labels from the row, values from the one matching cell', () => {
    const table = layoutPaperTable(layout, summaries);
    expect(table.columns.map((column) => column.name)).toEqual(['dataset', 'metric', 'accuracy', 'samples', 'note']);
    expect(table.rows[0]).toEqual({ dataset: 'ACS', metric: 'SP', accuracy: 0.75, samples: '2349 ± 1345', note: null });
    expect(table.rows[1]).toMatchObject({ metric: 'EO', samples: '2711 ± 1123' });
  });
  it('keeps unmatched and ambiguous rows with empty values and a note', () => {
    const table = layoutPaperTable(layout, summaries);
    expect(table.rows[2]).toMatchObject({
      dataset: 'Adult',
      accuracy: null,
      note: 'no cell matches {"dataset":"adult","metric":"sp"}',
    });
    expect(table.rows[3]).toMatchObject({ accuracy: null, note: '2 cells match {"dataset":"acs"}' });
  });
});

describe('siblingCell(all, cell, keys, change) / a column reading another cell', () => {
  it('finds the cell that shares the named settings except the changed one', () => {
    expect(siblingCell(summaries, summaries[0], ['dataset', 'metric'], { metric: 'eo' })?.cell).toBe('b');
    expect(siblingCell(summaries, summaries[0], ['dataset', 'metric'], { metric: 'dp' })).toBeUndefined();
  });

  it('layoutPaperTable passes every summary to a column, so the SP row can show the EO accuracy', () => {
    const eoAccuracy: PaperTableLayout = {
      ...layout,
      columns: [
        ...layout.columns,
        {
          name: 'eo_accuracy',
          label: 'EO accuracy',
          type: 'number',
          value: (cell, all) =>
            siblingCell(all, cell, ['dataset', 'metric'], { metric: 'eo' })?.values.accuracy ?? null,
        },
      ],
    };
    const table = layoutPaperTable(eoAccuracy, summaries);
    const sp = table.rows.find((row) => row.metric === 'SP');
    // Row SP reads cell a (accuracy 0.75); its EO column reads cell b (0.7), as defined in `summaries` above.
    expect(sp).toMatchObject({ accuracy: 0.75, eo_accuracy: 0.7 });
  });
});
