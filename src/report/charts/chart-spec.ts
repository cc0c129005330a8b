/**
 * A chart of the report: a Vega-Lite specification built in code, with a file-safe id.
 * The reporter saves the spec as JSON and renders it to SVG and PNG.
 */
export interface ChartSpec {
  /** File-safe identifier: charts/<id>.vl.json, .svg, .png. */
  id: string;
  /** Heading shown above the chart in report.html. */
  title: string;
  /** One or two sentences under the chart: what is plotted and what the bars mean. */
  caption?: string;
  /** A complete Vega-Lite (v6) specification with its data inlined. */
  spec: Record<string, unknown>;
}
