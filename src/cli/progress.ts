/** Seconds between the plain progress lines written when stderr is not a terminal. */
export const PLAIN_PROGRESS_SECONDS = 5;

/**
 * etaText(done, total, seconds) is the estimated time left, or "estimating" while the
 * rate says little: before the first task is done, and until 5% of the tasks or 20 s
 * have gone (the first tasks carry warm-up, and extrapolating them gave ETAs of hours
 * for minutes of work).
 */
export function etaText(done: number, total: number, seconds: number): string {
  if (done <= 0 || (done / total < 0.05 && seconds < 20)) return 'estimating';
  const eta = ((total - done) * seconds) / done;
  return eta >= 120 ? `${Math.round(eta / 60)} min` : `${eta.toFixed(0)}s`;
}

/**
 * A one-line progress bar on stderr: done/total, rate, ETA. On a terminal it redraws in
 * place; when stderr is not a terminal (a log file, CI) it writes a plain line every
 * PLAIN_PROGRESS_SECONDS instead. Silent when quiet, or until the work has run for a
 * second. Library code reports progress through a callback; only the CLI draws it.
 */
export class ProgressBar {
  private readonly started = Date.now();
  private lastDraw = 0;
  private drawn = false;
  private readonly terminal = Boolean(process.stderr.isTTY);
  constructor(
    private readonly label: string,
    private readonly total: number,
    private readonly quiet = false,
    private readonly unit = 'tasks',
  ) {}

  /** update(done): draws when it is time to; returns whether it wrote to stderr. */
  update(done: number): boolean {
    if (this.quiet) return false;
    const now = Date.now();
    const seconds = (now - this.started) / 1000;
    const rate = done / seconds;
    if (!this.terminal) {
      if (now - this.lastDraw < PLAIN_PROGRESS_SECONDS * 1000 || now - this.started < 1000) return false;
      this.lastDraw = now;
      const percent = this.total > 0 ? ((100 * done) / this.total).toFixed(0) : '100';
      process.stderr.write(
        `${this.label}: ${done}/${this.total} ${this.unit} (${percent}%), ${seconds.toFixed(0)} s, ` +
          `ETA ${etaText(done, this.total, seconds)}\n`,
      );
      return true;
    }
    if (now - this.started < 1000 || (now - this.lastDraw < 100 && done < this.total)) return false;
    this.lastDraw = now;
    const width = 28;
    const filled = this.total > 0 ? Math.round((width * done) / this.total) : width;
    const bar = `${'#'.repeat(filled)}${'-'.repeat(width - filled)}`;
    process.stderr.write(
      `\r${this.label} [${bar}] ${done}/${this.total} ${rate.toFixed(1)} ${this.unit}/s ` +
        `ETA ${etaText(done, this.total, seconds)}   `,
    );
    this.drawn = true;
    return true;
  }

  finish(): void {
    if (this.drawn) process.stderr.write('\n');
  }
}

/**
 * stagedProgress(label, quiet, unit) is a progress callback (stage, done, total) that
 * draws one ProgressBar per stage ("calibrate: tune", then "calibrate: certify", ...),
 * and finish() to end the last one.
 */
export function stagedProgress(label: string, quiet: boolean, unit: string) {
  let bar: ProgressBar | undefined;
  let current = '';
  return {
    update(stage: string, done: number, total: number): void {
      if (bar === undefined || stage !== current) {
        bar?.finish();
        bar = new ProgressBar(`${label}: ${stage}`, total, quiet, unit);
        current = stage;
      }
      bar.update(done);
    },
    finish(): void {
      bar?.finish();
    },
  };
}
