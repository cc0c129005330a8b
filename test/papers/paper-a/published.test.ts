import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { paperAPublishedPath } from '../../../papers/paper-a/files.js';
import { parsePublished } from '../../../src/report/published.js';

interface Cell {
  id: string;
  table: string;
  row: Record<string, string>;
  column: string;
  value: number | string;
  std?: number;
  where?: Record<string, string>;
  statistic?: string;
  experiment?: string;
  cite?: string;
}

const json = JSON.parse(readFileSync(paperAPublishedPath(), 'utf8')) as { cells: Cell[] };
const cells = json.cells;
const find = (id: string): Cell => {
  const cell = cells.find((c) => c.id === id);
  if (!cell) throw new Error(`no published cell ${id}`);
  return cell;
};

describe('papers/paper-a/published.json', () => {
  it("parsePublished(paper-a.json) accepts the file with the reporter's loader", () => {
    const file = parsePublished(JSON.parse(readFileSync(paperAPublishedPath(), 'utf8')), paperAPublishedPath());
    expect(file.paper).toBe('A');
    expect(file.cells.length).toBe(cells.length);
  });

  it('has every cell of Tables 1-5 and Figure 1 (counts from the printed layouts)', () => {
    const count = (table: string) => cells.filter((c) => c.table === table).length;
    // Table 1: 8 models x (SP gap, EO gap) printed, plus the derived oracle decision of each.
    expect(count('Table 1')).toBe(8 * 2 * 2);
    // Tables 2-3: 4 base models x (oracle gap + 3 access x (decision, mean ± std)).
    expect(count('Table 2')).toBe(4 * (1 + 3 * 2));
    expect(count('Table 3')).toBe(4 * (1 + 3 * 2));
    // Table 4: 8 (dataset, model, metric) x 2 methods x (accuracy, samples).
    expect(count('Table 4')).toBe(8 * 2 * 2);
    // Table 5: 8 rows x (oracle, reject, accept, inconclusive).
    expect(count('Table 5')).toBe(8 * 4);
    // Figure 1: 4 base models x 3 access regimes (Table 2's means).
    expect(count('Figure 1')).toBe(4 * 3);
  });

  it('every cell names the experiment, a pool/metric/access selector, a statistic and its citation', () => {
    for (const cell of cells) {
      expect(cell.experiment, cell.id).toBe('paper-a');
      expect(Object.keys(cell.where ?? {}).sort(), cell.id).toEqual(['access', 'metric', 'pool']);
      expect(typeof cell.statistic, cell.id).toBe('string');
      expect(cell.cite, cell.id).toMatch(new RegExp(`${cell.table}, row `));
    }
  });

  it('holds the numbers the prose of §5 quotes (read column by column from the flattened tables)', () => {
    // §5.2: "on Robust-Base, the mean sample requirement drops from 2349 under decision-only access to 708 under logit
    // access"
    expect(find('paper-a/table2/acs/robust-base/decision/queries').value).toBe(2349);
    expect(find('paper-a/table2/acs/robust-base/logit/queries').value).toBe(708);
    // §5.2: Unstable-Base "decreases from 2412 to 691"; Adult "191 ... 94 ... 77" and "215, 114, and 75".
    expect(find('paper-a/table2/acs/unstable-base/logit/queries').value).toBe(691);
    expect(find('paper-a/table2/adult/robust-base/score/queries').value).toBe(94);
    expect(find('paper-a/table2/adult/unstable-base/logit/queries').value).toBe(75);
    // §5.3: "2711 under decision-only access and 1060 under score access"; Unstable-Base "1257 and 550".
    expect(find('paper-a/table3/acs/robust-base/score/queries').value).toBe(1060);
    expect(find('paper-a/table3/acs/unstable-base/score/queries').value).toBe(550);
    expect(find('paper-a/table3/acs/robust-base/logit/decision').value).toBe('inconclusive');
    // §5.3: Adult EO oracle gaps 0.0753 and 0.0819.
    expect(find('paper-a/table3/adult/unstable-base/oracle-gap').value).toBe(0.0819);
    // Table 4 caption: min(B, N_{Y=1}) = 3362 for Adult.
    expect(find('paper-a/table4/adult/robust-base/eo/fixed/samples').value).toBe(3362);
    // §5, Table 1 text: ACS Robust-DP compliant under SP (0.0287) but violates EO (0.0613).
    expect(find('paper-a/table1/acs/robust-dp/sp/oracle-decision').value).toBe('accept');
    expect(find('paper-a/table1/acs/robust-dp/eo/oracle-decision').value).toBe('reject');
  });

  it(
    'Table 5 frequencies of each row add up to 1, and Table 4 sequential accuracy equals the frequency of the ' +
      'oracle decision',
    () => {
      for (const row of [
        'acs/robust-base/sp',
        'acs/unstable-base/eo',
        'adult/robust-base/eo',
        'adult/unstable-base/sp',
      ]) {
        const total = ['reject', 'accept', 'inconclusive'].reduce(
          (sum, name) => sum + Number(find(`paper-a/table5/${row}/${name}-frequency`).value),
          0,
        );
        expect(total).toBeCloseTo(1, 10);
        const oracle = String(find(`paper-a/table5/${row}/oracle-decision`).value);
        expect(find(`paper-a/table4/${row}/sequential/accuracy`).value).toBe(
          find(`paper-a/table5/${row}/${oracle}-frequency`).value,
        );
      }
    },
  );

  it("Figure 1 cells repeat Table 2's means and stds", () => {
    for (const cell of cells.filter((c) => c.table === 'Figure 1')) {
      const source = find(cell.id.replace('figure1/', 'table2/'));
      expect(cell.value).toBe(source.value);
      expect(cell.std).toBe(source.std);
    }
  });
});
