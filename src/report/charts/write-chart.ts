import { join } from 'node:path';
import { writeFileAtomic } from '../../util/atomic-write.js';
import type { RenderedChart } from '../report-html.js';
import type { ChartSpec } from './chart-spec.js';
import { renderChartSvg } from './render-chart.js';
import { svgToPng } from './svg-to-png.js';

/** What writeChart wrote: the chart for report.html, the files, and why a PNG is missing. */
export interface WrittenChart {
  rendered: RenderedChart;
  files: string[];
  /** The rasteriser's message when the PNG could not be written, else null. */
  pngProblem: string | null;
}

/**
 * writeChart(folder, chart, png) renders a chart and writes charts/<id>.vl.json and
 * charts/<id>.svg under `folder`, and charts/<id>.png when `png` (a failing rasteriser
 * is reported in pngProblem, not thrown: the SVG is complete). Throws when the spec
 * does not compile. O(chart pixels).
 */
export async function writeChart(folder: string, chart: ChartSpec, png: boolean): Promise<WrittenChart> {
  const svg = await renderChartSvg(chart.spec);
  const base = join('charts', chart.id);
  writeFileAtomic(join(folder, `${base}.vl.json`), `${JSON.stringify(chart.spec, null, 2)}\n`);
  writeFileAtomic(join(folder, `${base}.svg`), svg);
  const files = [join(folder, `${base}.vl.json`), join(folder, `${base}.svg`)];
  let pngPath: string | null = null;
  let pngProblem: string | null = null;
  if (png) {
    try {
      writeFileAtomic(join(folder, `${base}.png`), svgToPng(svg));
      pngPath = `${base}.png`;
      files.push(join(folder, pngPath));
    } catch (error) {
      pngProblem = (error as Error).message;
    }
  }
  return {
    rendered: { chart, svg, files: { spec: `${base}.vl.json`, svg: `${base}.svg`, png: pngPath } },
    files,
    pngProblem,
  };
}
