import { afterEach, describe, expect, it, vi } from 'vitest';
import { Heartbeat } from '../../src/cli/heartbeat.js';
import { etaText, ProgressBar } from '../../src/cli/progress.js';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('etaText(done, total, seconds)', () => {
  it('says "estimating" before the first task and while under 5% of the tasks and 20 s have gone', () => {
    expect(etaText(0, 100, 50)).toBe('estimating');
    // 1 of 1,000 tasks after 10 s would extrapolate to 9,990 s: the kind of first ETA that was absurd.
    expect(etaText(1, 1000, 10)).toBe('estimating');
  });
  it('extrapolates the mean rate once 5% are done or 20 s have gone: (total − done) × seconds / done', () => {
    expect(etaText(10, 100, 10)).toBe('90s');
    expect(etaText(1, 100, 20)).toBe('33 min');
  });
});

describe('ProgressBar on a stderr that is not a terminal', () => {
  it('update(done) writes a plain line at most every 5 s, with the count, the share and the ETA', () => {
    vi.useFakeTimers({ now: 0 });
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    const isTTY = process.stderr.isTTY;
    Object.defineProperty(process.stderr, 'isTTY', { value: false, configurable: true });
    try {
      const bar = new ProgressBar('audits: demo', 200, false, 'audits');
      for (let second = 1; second <= 12; second++) {
        vi.setSystemTime(second * 1000);
        bar.update(second * 10);
      }
      bar.finish();
    } finally {
      Object.defineProperty(process.stderr, 'isTTY', { value: isTTY, configurable: true });
    }
    expect(lines).toEqual([
      'audits: demo: 50/200 audits (25%), 5 s, ETA 15s\n',
      'audits: demo: 100/200 audits (50%), 10 s, ETA 10s\n',
    ]);
  });
});

describe('Heartbeat(write, seconds)', () => {
  it('writes "still running" for a stage silent for `seconds`, and nothing while progress comes', () => {
    vi.useFakeTimers({ now: 0 });
    const lines: string[] = [];
    const heartbeat = new Heartbeat((line) => lines.push(line), 5);
    heartbeat.touch('paper-b: training ccd/boosted-trees');
    vi.advanceTimersByTime(4000);
    expect(lines).toEqual([]);
    vi.advanceTimersByTime(2000);
    expect(lines).toEqual(['paper-b: training ccd/boosted-trees (still running, 5 s since this stage began)\n']);
    heartbeat.touch('paper-b: training ccd/boosted-trees');
    vi.advanceTimersByTime(3000);
    expect(lines).toHaveLength(1);
    heartbeat.stop();
    vi.advanceTimersByTime(60_000);
    expect(lines).toHaveLength(1);
  });

  it('enter(stage) without a line (a bar between its lines) does not postpone it: the log hears every 5 s', () => {
    vi.useFakeTimers({ now: 0 });
    const lines: string[] = [];
    const heartbeat = new Heartbeat((line) => lines.push(line), 5);
    heartbeat.touch('paper-b-pir: one audit per label transport');
    for (let second = 1; second <= 6; second++) {
      vi.advanceTimersByTime(1000);
      heartbeat.enter('paper-b-pir: CCD labels through the VOPRF transfer');
    }
    expect(lines).toEqual([
      'paper-b-pir: CCD labels through the VOPRF transfer (still running, 4 s since this stage began)\n',
    ]);
    heartbeat.stop();
  });
});
