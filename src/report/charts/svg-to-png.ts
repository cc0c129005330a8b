import { existsSync } from 'node:fs';
import { Resvg } from '@resvg/resvg-js';

/** Folders where Debian and most Linux images keep TrueType fonts. */
const fontFolders = ['/usr/share/fonts', '/usr/local/share/fonts'];

/**
 * svgToPng(svg, scale) rasterises an SVG with resvg (Rust, shipped prebuilt inside
 * the npm package; no network, no browser). Text uses the system fonts, DejaVu Sans
 * first; on a machine without any fonts the shapes still render and text is
 * dropped. `scale` multiplies the SVG's size (2 for crisp PNGs). O(pixels).
 */
export function svgToPng(svg: string, scale = 2): Uint8Array {
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'zoom', value: scale },
    background: 'white',
    font: {
      loadSystemFonts: true,
      fontDirs: fontFolders.filter((folder) => existsSync(folder)),
      defaultFontFamily: 'DejaVu Sans',
      sansSerifFamily: 'DejaVu Sans',
    },
  });
  return resvg.render().asPng();
}
