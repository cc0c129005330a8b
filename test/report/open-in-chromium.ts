import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

/** Debian's chromium; the browser tests skip when it is absent. */
export const chromiumPath = '/usr/bin/chromium';

export const chromiumMissing = existsSync(chromiumPath)
  ? undefined
  : `skipped: ${chromiumPath} is absent (install Debian's chromium: apt-get install -y chromium)`;

/** What the browser saw when it opened a report. */
export interface BrowserCheck {
  /** Figures with a chart and the number of SVG elements each holds. */
  chartSvgCounts: number[];
  /** Drawn marks (paths, rects, lines) inside all chart SVGs. */
  markCount: number;
  consoleErrors: string[];
  /** Requests for anything but the report file itself (should be none: self-contained). */
  externalRequests: string[];
  title: string;
  /** Ids of the <table> elements the page lays out with a visible size. */
  visibleTableIds: string[];
  /** Ids of the chart figures whose SVG has a visible size. */
  visibleChartIds: string[];
  /** Texts of the notices at the top of the report. */
  notices: string[];
  /** The viewport's width and how wide the page scrolls (wider: the page scrolls sideways). */
  viewportWidth: number;
  pageScrollWidth: number;
  /** Charts and table boxes wider than the viewport or reaching past its right edge, with their widths. */
  tooWide: string[];
  /** Ids of the chart figures whose SVG draws a legend. */
  legendChartIds: string[];
}

/**
 * openReport(htmlPath, screenshotPath) opens report.html in headless Chromium with a
 * fresh profile and no network, collects console errors and outside requests, counts
 * the SVG charts and saves a full-page screenshot.
 */
export async function openReport(htmlPath: string, screenshotPath: string): Promise<BrowserCheck> {
  const profile = mkdtempSync(join(tmpdir(), 'fairaudit-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1400, height: 900 },
  });
  try {
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    const externalRequests: string[] = [];
    const reportUrl = pathToFileURL(htmlPath).href;
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    await page.route('**/*', async (route) => {
      const url = route.request().url();
      if (url === reportUrl) return route.continue();
      externalRequests.push(url);
      return route.abort();
    });
    await page.goto(reportUrl, { waitUntil: 'load' });
    const chartSvgCounts = await page.$$eval('figure.chart-figure', (figures) =>
      figures.map((figure) => figure.querySelectorAll('.chart svg').length),
    );
    const markCount = await page.$$eval(
      'figure.chart-figure .chart svg path, figure.chart-figure .chart svg rect, figure.chart-figure .chart svg line',
      (marks) => marks.length,
    );
    const visibleTableIds = await page.$$eval('table[id]', (tables) =>
      tables
        .filter((table) => table.getBoundingClientRect().width > 0 && table.getBoundingClientRect().height > 0)
        .map((table) => table.id),
    );
    const visibleChartIds = await page.$$eval('figure.chart-figure', (figures) =>
      figures
        .filter((figure) => {
          const svg = figure.querySelector('.chart svg');
          return svg !== null && svg.getBoundingClientRect().width > 50 && svg.getBoundingClientRect().height > 50;
        })
        .map((figure) => figure.id),
    );
    const notices = await page.$$eval('p.notice', (paragraphs) =>
      paragraphs.map((paragraph) => paragraph.textContent ?? ''),
    );
    const viewport = (await page.evaluate('document.documentElement.clientWidth')) as number;
    const scroll = (await page.evaluate('document.documentElement.scrollWidth')) as number;
    const boxes = [
      ...(await page.$$eval('figure.chart-figure', (figures) =>
        figures.map((figure) => {
          const box = figure.querySelector('.chart svg')?.getBoundingClientRect();
          return { name: `chart ${figure.id}`, width: box?.width ?? 0, right: box?.right ?? 0 };
        }),
      )),
      ...(await page.$$eval('.table-wrap', (wraps) =>
        wraps.map((wrap) => {
          const box = wrap.getBoundingClientRect();
          return {
            name: `table box ${wrap.querySelector('table')?.id ?? '(no id)'}`,
            width: box.width,
            right: box.right,
          };
        }),
      )),
    ];
    const tooWide = boxes
      .filter((box) => box.width > viewport || box.right > viewport + 0.5)
      .map((box) => `${box.name}: ${Math.round(box.width)} px`);
    const widths = { viewport, scroll, tooWide };
    const legendChartIds = await page.$$eval('figure.chart-figure', (figures) =>
      figures.filter((figure) => figure.querySelector('.chart svg .role-legend') !== null).map((figure) => figure.id),
    );
    mkdirSync(dirname(screenshotPath), { recursive: true });
    await page.screenshot({ path: screenshotPath, fullPage: true });
    return {
      chartSvgCounts,
      markCount,
      consoleErrors,
      externalRequests,
      title: await page.title(),
      visibleTableIds,
      visibleChartIds,
      notices,
      viewportWidth: widths.viewport,
      pageScrollWidth: widths.scroll,
      tooWide: widths.tooWide,
      legendChartIds,
    };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
