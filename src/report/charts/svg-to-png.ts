import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

/** Folders where Debian and most Linux images keep TrueType fonts. */
const fontFolders = ['/usr/share/fonts', '/usr/local/share/fonts'];

type ResvgModule = typeof import('@resvg/resvg-js');

let resvgModule: ResvgModule | undefined;

/** Loads resvg (a CommonJS package with a native binary) on first use. */
function loadResvg(): ResvgModule {
  if (resvgModule === undefined) {
    try {
      resvgModule = createRequire(import.meta.url)('@resvg/resvg-js') as ResvgModule;
    } catch (error) {
      throw new Error(
        `svgToPng: @resvg/resvg-js could not be loaded ` +
          `on ${process.platform}-${process.arch}: ${(error as Error).message}`,
      );
    }
  }
  return resvgModule;
}

/**
 * svgToPng(svg, scale) rasterises an SVG with resvg (Rust, shipped prebuilt inside
 * the npm package; no network, no browser). Text uses the system fonts, DejaVu Sans
 * first; on a machine without any fonts the shapes still render and text is
 * dropped. `scale` multiplies the SVG's size (2 for crisp PNGs). resvg is loaded on
 * first use, so a platform without its binary loses PNGs, not the CLI; then this
 * throws Error("svgToPng: ..."). O(pixels).
 */
export function svgToPng(svg: string, scale = 2): Uint8Array {
  const { Resvg } = loadResvg();
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
