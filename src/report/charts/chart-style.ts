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
