import { panelledChartSpec, panelWidth } from './chart-style.js';

/** One bar: its category, optional series and panel, value and error-bar ends. */
export interface BarDatum {
  category: string;
  series?: string;
  panel?: string;
  value: number;
  lower?: number;
  upper?: number;
  /** Drawn as this word at zero instead of a bar ("not run"), so a missing value never reads as 0. */
  note?: string;
}

/** What a bar chart shows, in words. */
export interface BarChartOptions {
  title: string;
  subtitle?: string;
  categoryTitle: string;
  valueTitle: string;
  seriesTitle?: string;
  panelTitle?: string;
  /** Draw lower–upper as error bars (ignored when no datum has both). */
  errorBars?: boolean;
  /** Value axis domain, e.g. [0, 1] for frequencies. */
  valueDomain?: [number, number];
  /** Give each panel its own value scale (datasets of very different cost). */
  independentPanels?: boolean;
  /** Fixed colours per series value (e.g. reject red, accept green). */
  seriesColors?: Record<string, string>;
  /** Stack series on top of each other (shares summing to 1) instead of side by side. */
  stacked?: boolean;
  /** A dashed horizontal line where a rate is judged (α for false violations), with its label. */
  reference?: { value: number; label: string };
}

/**
 * barChartSpec(data, options) builds a Vega-Lite spec of grouped bars (categories on
 * x, series side by side with colour) with optional error bars drawn as rules from
 * lower to upper, faceted into panels (one per dataset, say) when data has panels.
 * O(data).
 */
export function barChartSpec(data: BarDatum[], options: BarChartOptions): Record<string, unknown> {
  const hasSeries = data.some((datum) => datum.series !== undefined);
  const hasPanels = data.some((datum) => datum.panel !== undefined);
  const hasErrors =
    options.errorBars === true &&
    !options.stacked &&
    data.some((datum) => datum.lower !== undefined && datum.upper !== undefined);
  const values = data.map((datum) => ({
    ...datum,
    series: datum.series ?? '',
    panel: datum.panel ?? '',
    note: datum.note ?? '',
  }));
  const longLabels = data.some((datum) => datum.category.length > 9);
  // Long category labels wrap onto lines (at " / " when present, else at spaces) instead of rotating.
  const axis = longLabels
    ? {
        labelAngle: 0,
        labelExpr: "indexof(datum.label, ' / ') >= 0 ? split(datum.label, ' / ') : split(datum.label, ' ')",
      }
    : { labelAngle: 0 };
  const x = { field: 'category', type: 'nominal', title: options.categoryTitle, sort: null, axis };
  const y: Record<string, unknown> = { field: 'value', type: 'quantitative', title: options.valueTitle };
  if (options.valueDomain) y.scale = { domain: options.valueDomain };
  if (options.stacked) y.stack = 'zero';
  const offset = hasSeries && !options.stacked ? { xOffset: { field: 'series', type: 'nominal', sort: null } } : {};
  const colorScale = options.seriesColors
    ? { scale: { domain: Object.keys(options.seriesColors), range: Object.values(options.seriesColors) } }
    : {};
  const color = hasSeries
    ? { color: { field: 'series', type: 'nominal', title: options.seriesTitle ?? '', sort: null, ...colorScale } }
    : {};
  const tooltip = [
    { field: 'category', title: options.categoryTitle },
    ...(hasSeries ? [{ field: 'series', title: options.seriesTitle ?? 'series' }] : []),
    { field: 'value', title: options.valueTitle, format: '.4~g' },
  ];
  const layers: Array<Record<string, unknown>> = [
    { mark: { type: 'bar', tooltip: true }, encoding: { x, y, ...offset, ...color, tooltip } },
  ];
  if (hasErrors) {
    layers.push({
      mark: { type: 'rule', color: '#222', strokeWidth: 1.5 },
      encoding: { x, ...offset, y: { field: 'lower', type: 'quantitative' }, y2: { field: 'upper' } },
    });
  }
  if (values.some((datum) => datum.note !== '')) {
    layers.push({
      transform: [{ filter: "datum.note != ''" }],
      mark: { type: 'text', angle: 270, align: 'left', dx: 3, fontSize: 10, color: '#666' },
      encoding: { x, ...offset, y: { datum: 0, type: 'quantitative' }, text: { field: 'note' } },
    });
  }
  if (options.reference !== undefined) {
    const { value, label } = options.reference;
    layers.push(
      {
        mark: { type: 'rule', strokeDash: [6, 4], color: '#b00', strokeWidth: 1.5 },
        encoding: { y: { datum: value } },
      },
      {
        mark: { type: 'text', align: 'right', baseline: 'bottom', dx: -2, dy: -2, color: '#b00', fontSize: 11 },
        encoding: { text: { value: label }, x: { value: { expr: 'width' } }, y: { datum: value } },
      },
    );
  }
  // Width by step: each category gets at least 64 px for its label and 22 px per
  // side-by-side bar (with xOffset, Vega-Lite's step is one bar within a category),
  // unless that is wider than a panel may be at 1,400 px: then the panel's width.
  const seriesCount = new Set(values.map((datum) => datum.series)).size;
  const step = hasSeries && !options.stacked ? Math.max(22, Math.ceil(64 / seriesCount)) : 64;
  const slots = new Set(values.map((datum) => datum.category)).size * (hasSeries && !options.stacked ? seriesCount : 1);
  const panels = new Set(values.map((datum) => datum.panel)).size;
  // The drawn width is about 1.35 × step × slots: the padding between categories and between offset bars.
  const drawn = Math.ceil(1.35 * step * slots);
  const fitted = panelWidth(drawn, hasPanels ? panels : 1);
  const inner = { width: fitted < drawn ? fitted : { step }, height: 220, layer: layers };
  return panelledChartSpec(options, values, inner, hasPanels);
}
