import { panelledChartSpec, panelWidth } from './chart-style.js';

/** One point of a line over a swept numeric setting. */
export interface LineDatum {
  x: number;
  series?: string;
  panel?: string;
  value: number;
  lower?: number;
  upper?: number;
}

/** What a line chart shows, in words. */
export interface LineChartOptions {
  title: string;
  subtitle?: string;
  xTitle: string;
  valueTitle: string;
  seriesTitle?: string;
  panelTitle?: string;
  /** Shade lower–upper as a band around each line. */
  band?: boolean;
  valueDomain?: [number, number];
  /** Log scale on x (budgets spanning decades). */
  logX?: boolean;
  independentPanels?: boolean;
  /** Dashed vertical reference lines at these x values (e.g. the tolerance ±δ). */
  xRules?: readonly number[];
}

/**
 * lineChartSpec(data, options) builds a Vega-Lite spec of one line per series over a
 * swept setting, with points, an optional lower–upper band, faceted into panels when
 * data has panels. O(data).
 */
export function lineChartSpec(data: LineDatum[], options: LineChartOptions): Record<string, unknown> {
  const hasSeries = data.some((datum) => datum.series !== undefined);
  const hasPanels = data.some((datum) => datum.panel !== undefined);
  const hasBand = options.band === true && data.some((datum) => datum.lower !== undefined && datum.upper !== undefined);
  const values = data.map((datum) => ({ ...datum, series: datum.series ?? '', panel: datum.panel ?? '' }));
  const x: Record<string, unknown> = {
    field: 'x',
    type: 'quantitative',
    title: options.xTitle,
    scale: { zero: false, ...(options.logX ? { type: 'log' } : {}) },
  };
  const y: Record<string, unknown> = { field: 'value', type: 'quantitative', title: options.valueTitle };
  if (options.valueDomain) y.scale = { domain: options.valueDomain };
  // The band and the line share one color encoding: with `legend: null` on the band, Vega-Lite
  // merges the two layers' legends into none. symbolOpacity keeps the merged symbols solid.
  const color = hasSeries
    ? {
        color: {
          field: 'series',
          type: 'nominal',
          title: options.seriesTitle ?? '',
          sort: null,
          legend: { symbolOpacity: 1 },
        },
      }
    : {};
  const layers: Array<Record<string, unknown>> = [];
  if (hasBand) {
    layers.push({
      mark: { type: 'area', opacity: 0.18 },
      encoding: {
        x,
        y: { field: 'lower', type: 'quantitative' },
        y2: { field: 'upper' },
        ...color,
      },
    });
  }
  layers.push({
    mark: { type: 'line', point: true, tooltip: true },
    encoding: { x, y, ...color },
  });
  for (const rule of options.xRules ?? []) {
    layers.push({
      mark: { type: 'rule', strokeDash: [4, 4], color: '#777' },
      encoding: { x: { datum: rule, type: 'quantitative' } },
    });
  }
  const panels = hasPanels ? new Set(values.map((datum) => datum.panel)).size : 1;
  const inner = { width: panelWidth(280, panels), height: 220, layer: layers };
  return panelledChartSpec(options, values, inner, hasPanels);
}
