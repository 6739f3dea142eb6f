import type { TaskState } from './upload-task';

export interface SpeedMeterOptions {
  /** Rates are measured over this much recent time. */
  windowMs?: number;
  /** Time constant of the exponential smoothing applied on top of the windowed rate. */
  smoothingMs?: number;
}

interface Sample {
  t: number;
  bytes: number;
}

/**
 * Transfer speed from a growing byte counter: the rate over a sliding window, smoothed by an exponential
 * moving average so the number a user reads does not jump with every part. Time is passed in, so the
 * math is pure and testable; when samples stop arriving the speed falls to zero within one window.
 */
export class SpeedMeter {
  private readonly windowMs: number;
  private readonly smoothingMs: number;
  private samples: Sample[] = [];
  private ema: number | null = null;
  private emaAt = 0;

  constructor(opts: SpeedMeterOptions = {}) {
    this.windowMs = opts.windowMs ?? 5000;
    this.smoothingMs = opts.smoothingMs ?? 2000;
  }

  reset(): void {
    this.samples = [];
    this.ema = null;
  }

  /** Records the counter's value at time `t` (ms). A counter that goes back (a restart) starts afresh. */
  push(bytes: number, t: number): void {
    const last = this.samples[this.samples.length - 1];
    if (last !== undefined && (bytes < last.bytes || t < last.t)) this.reset();
    const prev = this.samples[this.samples.length - 1];
    if (prev !== undefined && prev.t === t) prev.bytes = bytes;
    else this.samples.push({ t, bytes });
    this.trim(t);
    const raw = this.windowRate(t);
    if (raw === null) return;
    if (this.ema === null) this.ema = raw;
    else {
      const alpha = 1 - Math.exp(-(t - this.emaAt) / this.smoothingMs);
      this.ema += alpha * (raw - this.ema);
    }
    this.emaAt = t;
  }

  /** Bytes per second at time `now`. */
  rate(now: number): number {
    if (this.ema === null) return 0;
    // No news since the last sample: the windowed rate (measured up to now) caps the smoothed one, so a
    // stalled transfer shows its speed falling instead of the last good value.
    if (now > this.emaAt) {
      this.trim(now);
      const raw = this.windowRate(now) ?? 0;
      return Math.max(0, Math.min(this.ema, raw));
    }
    return Math.max(0, this.ema);
  }

  /** Keeps one sample at or before the window's start as the baseline. */
  private trim(now: number): void {
    const start = now - this.windowMs;
    while (this.samples.length > 2 && (this.samples[1] as Sample).t <= start) this.samples.shift();
  }

  private windowRate(now: number): number | null {
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    if (first === undefined || last === undefined || first === last) return null;
    const from = Math.max(first.t, now - this.windowMs);
    // The baseline may lie before the window: scale its bytes to the window's start.
    let baseBytes = first.bytes;
    if (from > first.t) {
      const second = this.samples[1] as Sample;
      const span = second.t - first.t;
      const f = span > 0 ? Math.min(1, (from - first.t) / span) : 1;
      baseBytes = first.bytes + f * (second.bytes - first.bytes);
    }
    const dt = now - from;
    if (dt <= 0) return null;
    return ((last.bytes - baseBytes) * 1000) / dt;
  }
}

/** Seconds left at the given speed, rounded up; null when there is no speed to judge by. */
export function etaSeconds(remainingBytes: number, speedBps: number): number | null {
  if (remainingBytes <= 0) return 0;
  if (!Number.isFinite(speedBps) || speedBps <= 0) return null;
  return Math.ceil(remainingBytes / speedBps);
}

export interface TaskProgressInput {
  state: TaskState;
  bytes: number;
  bytesDone: number;
}

export interface QueueTotalsBase {
  filesTotal: number;
  filesDone: number;
  filesFailed: number;
  bytesTotal: number;
  bytesDone: number;
  /** Bytes still to send for tasks that are queued or running (paused and failed ones wait for the user). */
  bytesRemaining: number;
}

/**
 * Whole-queue counts. Canceled tasks are left out; failed ones count in the total (the user still has to
 * act on them), so the bar does not claim 100 % while a file is missing.
 */
export function queueTotals(tasks: readonly TaskProgressInput[]): QueueTotalsBase {
  const totals: QueueTotalsBase = { filesTotal: 0, filesDone: 0, filesFailed: 0, bytesTotal: 0, bytesDone: 0, bytesRemaining: 0 };
  for (const t of tasks) {
    if (t.state === 'canceled') continue;
    totals.filesTotal += 1;
    totals.bytesTotal += t.bytes;
    const done = t.state === 'done' ? t.bytes : Math.min(t.bytes, Math.max(0, t.bytesDone));
    totals.bytesDone += done;
    if (t.state === 'done') totals.filesDone += 1;
    else if (t.state === 'failed') totals.filesFailed += 1;
    else if (t.state !== 'paused') totals.bytesRemaining += t.bytes - done;
  }
  return totals;
}
