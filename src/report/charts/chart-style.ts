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
  legend: { labelFontSize: 11, titleFontSize: 12, labelLimit: 260, titleLimit: 260 },
  view: { stroke: '#ddd' },
};

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
 * and subtitle, inline data, and when `panels` a column facet over the `panel` field
 * in data order. O(1) besides the data it references.
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
    facet: { column: { field: 'panel', type: 'nominal', title: titles.panelTitle ?? null, sort: null } },
    spec: inner,
    ...(titles.independentPanels ? { resolve: { scale: { y: 'independent' } } } : {}),
    config: chartConfig,
  };
}
