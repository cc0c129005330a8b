/**
 * The look shared by every report chart: a font that exists on the machine (DejaVu
 * Sans ships with Debian and most Linux images; resvg falls back to any sans-serif),
 * readable title and label sizes, a white background so PNGs are not transparent.
 */
export const chartFont = 'DejaVu Sans, Liberation Sans, Arial, sans-serif';

export const chartConfig: Record<string, unknown> = {
  font: chartFont,
  background: 'white',
  padding: 12,
  title: { fontSize: 15, fontWeight: 'bold', anchor: 'start', subtitleFontSize: 12, subtitleColor: '#444' },
  axis: { labelFontSize: 11, titleFontSize: 12, titlePadding: 8, labelLimit: 180 },
  header: { labelFontSize: 12, titleFontSize: 12, labelFontWeight: 'bold' },
  // Below the plot, labels in full (no truncation to the same text), wrapped in columns.
  legend: { labelFontSize: 11, titleFontSize: 12, labelLimit: 0, titleLimit: 0, orient: 'bottom', columns: 3 },
  view: { stroke: '#ddd' },
};

/** The widest a report chart may be: report.html is read at 1,400 px, less its margins. */
export const MAX_CHART_WIDTH = 1150;

/** At most this many panels side by side; more wrap onto further rows. */
export const MAX_PANEL_COLUMNS = 3;

/**
 * panelWidth(wanted, panels) is the width one panel may take so that a row of
 * min(panels, MAX_PANEL_COLUMNS) panels, with their axes, fits MAX_CHART_WIDTH: the
 * wanted width when it fits, else the largest that does. O(1).
 * @param wanted the width the panel's marks would like, in px
 * @param panels how many panels the chart has (1 without panels)
 * @returns a width in px
 * @example panelWidth(2000, 6) // 303
 */
export function panelWidth(wanted: number, panels: number): number {
  const columns = Math.max(1, Math.min(panels, MAX_PANEL_COLUMNS));
  const available = Math.floor(MAX_CHART_WIDTH / columns) - 80;
  return Math.min(wanted, available);
}

export const vegaLiteSchema = 'https://vega.github.io/schema/vega-lite/v6.json';

/** The titles of a report chart and how its panels share the y scale. */
export interface ChartTitles {
  title: string;
  subtitle?: string;
  panelTitle?: string;
  /** Give each panel its own y scale. */
  independentPanels?: boolean;
}

/**
 * panelledChartSpec(titles, values, inner, panels) wraps a single-view spec (`inner`:
 * width, height, layers) into a whole Vega-Lite spec with the report's look: title
 * and subtitle, inline data, and when `panels` a facet over the `panel` field in data
 * order, wrapped after MAX_PANEL_COLUMNS panels. O(1) besides the data it references.
 */
export function panelledChartSpec(
  titles: ChartTitles,
  values: unknown[],
  inner: Record<string, unknown>,
  panels: boolean,
): Record<string, unknown> {
  const title = titles.subtitle ? { text: titles.title, subtitle: titles.subtitle } : titles.title;
  if (!panels) return { $schema: vegaLiteSchema, title, data: { values }, ...inner, config: chartConfig };
  return {
    $schema: vegaLiteSchema,
    title,
    data: { values },
    facet: { field: 'panel', type: 'nominal', title: titles.panelTitle ?? null, sort: null },
    columns: MAX_PANEL_COLUMNS,
    spec: inner,
    ...(titles.independentPanels ? { resolve: { scale: { y: 'independent' } } } : {}),
    config: chartConfig,
  };
}
