/**
 * A one-line progress bar on stderr: done/total, rate, ETA. Silent when quiet, when
 * stderr is not a terminal, or until the work has run for a second. Library code
 * reports progress through a callback; only the CLI draws it.
 */
export class ProgressBar {
  private readonly started = Date.now();
  private lastDraw = 0;
  private drawn = false;
  constructor(
    private readonly label: string,
    private readonly total: number,
    private readonly quiet = false,
    private readonly unit = 'tasks',
  ) {}

  private get enabled(): boolean {
    return !this.quiet && Boolean(process.stderr.isTTY);
  }

  update(done: number): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (now - this.started < 1000 || (now - this.lastDraw < 100 && done < this.total)) return;
    this.lastDraw = now;
    const seconds = (now - this.started) / 1000;
    const rate = done / seconds;
    const eta = rate > 0 ? (this.total - done) / rate : Number.POSITIVE_INFINITY;
    const width = 28;
    const filled = this.total > 0 ? Math.round((width * done) / this.total) : width;
    const bar = `${'#'.repeat(filled)}${'-'.repeat(width - filled)}`;
    const etaText = Number.isFinite(eta) ? `${eta.toFixed(0)}s` : '?';
    process.stderr.write(
      `\r${this.label} [${bar}] ${done}/${this.total} ${rate.toFixed(1)} ${this.unit}/s ETA ${etaText}   `,
    );
    this.drawn = true;
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
