import { vegaLiteSchema } from '../../src/report/charts/chart-style.js';

/** A faceted line chart of paper B's figures: data, the facet, the view size and the channels. */
export interface LinePanels {
  values: readonly object[];
  /** Vega-Lite facet: `{ column: {...} }` for a row of panels, or a field definition to wrap with `columns`. */
  facet: Record<string, unknown>;
  columns?: number;
  width: number;
  height: number;
  x: Record<string, unknown>;
  y: Record<string, unknown>;
  /** One line per audit (vanilla, respir). */
  color: Record<string, unknown>;
  strokeDash?: Record<string, unknown>;
}

/**
 * linePanelsSpec(chart) is the Vega-Lite spec shared by paper B's Figures 1(a), 1(b)
 * and 2: lines over a numeric axis, a colour per audit, a panel per facet value. O(1)
 * besides the data it references.
 */
export function linePanelsSpec(chart: LinePanels): Record<string, unknown> {
  return {
    $schema: vegaLiteSchema,
    data: { values: chart.values },
    facet: chart.facet,
    ...(chart.columns === undefined ? {} : { columns: chart.columns }),
    spec: {
      width: chart.width,
      height: chart.height,
      mark: { type: 'line' },
      encoding: {
        x: chart.x,
        y: chart.y,
        color: chart.color,
        ...(chart.strokeDash ? { strokeDash: chart.strokeDash } : {}),
      },
    },
  };
}

/** The colour channel of every paper B figure: one line per audit. */
export const auditColor = { field: 'audit', type: 'nominal', title: 'Audit' } as const;
