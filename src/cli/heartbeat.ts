/**
 * A heartbeat for long stages that report nothing themselves (a model training on a
 * worker, a calibration, a search): every `seconds`, when no progress has come for that
 * long, one plain stderr line says which stage is still running and for how long, so
 * a log (`2>log`) never goes silent. Stops with stop(); never keeps the process alive.
 */
export class Heartbeat {
  private stage = '';
  private stageStarted = Date.now();
  private lastSign = Date.now();
  private readonly timer: ReturnType<typeof setInterval>;

  /**
   * @param write where a line goes (process.stderr.write in the CLI)
   * @param seconds the longest silence before a line
   * @param quiet write nothing
   */
  constructor(
    private readonly write: (line: string) => void,
    private readonly seconds = 5,
    quiet = false,
  ) {
    this.timer = setInterval(() => this.beat(), 1000);
    this.timer.unref();
    if (quiet) clearInterval(this.timer);
  }

  /** touch(stage): `stage` wrote a line (a new stage restarts its clock). */
  touch(stage: string): void {
    this.enter(stage);
    this.lastSign = Date.now();
  }

  /**
   * enter(stage): progress came from `stage` but wrote no line (a progress bar between its lines), so the
   * silence goes on counting: the log hears from the heartbeat unless a line comes within `seconds`.
   */
  enter(stage: string): void {
    if (stage === this.stage) return;
    this.stage = stage;
    this.stageStarted = Date.now();
  }

  private beat(): void {
    const now = Date.now();
    if (this.stage === '' || now - this.lastSign < this.seconds * 1000) return;
    this.lastSign = now;
    this.write(
      `${this.stage} (still running, ${Math.round((now - this.stageStarted) / 1000)} s since this stage began)\n`,
    );
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
