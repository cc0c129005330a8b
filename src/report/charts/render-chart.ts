/**
 * renderChartSvg(spec) compiles a Vega-Lite spec with vega-lite and renders it
 * headless with a vega View (renderer 'none', no DOM, no network) to an SVG string.
 * Throws Error with vega-lite's message when the spec does not compile. vega and
 * vega-lite are loaded on first use, so commands that draw nothing start fast.
 * O(marks).
 */
export async function renderChartSvg(spec: Record<string, unknown>): Promise<string> {
  const [{ parse, View }, { compile }] = await Promise.all([import('vega'), import('vega-lite')]);
  // biome-ignore lint/suspicious/noExplicitAny: vega-lite's TopLevelSpec union is too deep to build in code
  const compiled = compile(spec as any, { logger: silentLogger() }).spec;
  const view = new View(parse(compiled), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** Collects vega-lite warnings instead of printing them (library code never prints). */
function silentLogger() {
  let level = 0;
  const logger = {
    level(value?: number) {
      if (value === undefined) return level;
      level = value;
      return logger;
    },
    error(...args: unknown[]) {
      throw new Error(`renderChartSvg: ${args.map(String).join(' ')}`);
    },
    warn() {
      return logger;
    },
    info() {
      return logger;
    },
    debug() {
      return logger;
    },
  };
  return logger;
}
