import { describe, expect, it } from 'vitest';
import { SpeedMeter, etaSeconds, queueTotals } from './upload-progress';

const MB = 1_000_000;

describe('SpeedMeter', () => {
  it('measures a steady transfer', () => {
    const m = new SpeedMeter();
    for (let t = 0; t <= 10_000; t += 250) m.push((t / 1000) * 2 * MB, t);
    expect(m.rate(10_000)).toBeCloseTo(2 * MB, -3);
  });

  it('has no speed before two samples', () => {
    const m = new SpeedMeter();
    expect(m.rate(0)).toBe(0);
    m.push(500, 0);
    expect(m.rate(100)).toBe(0);
  });

  it('smooths a jumpy transfer instead of showing each burst', () => {
    const m = new SpeedMeter({ windowMs: 4000, smoothingMs: 2000 });
    let bytes = 0;
    const seen: number[] = [];
    // 8 MiB parts landing once a second: 8 MB/s on average, in bursts.
    for (let t = 0; t <= 20_000; t += 100) {
      if (t > 0 && t % 1000 === 0) bytes += 8 * MB;
      m.push(bytes, t);
      if (t >= 8000) seen.push(m.rate(t));
    }
    for (const v of seen) {
      expect(v).toBeGreaterThan(5 * MB);
      expect(v).toBeLessThan(11 * MB);
    }
  });

  it('follows a change of speed within a few seconds', () => {
    const m = new SpeedMeter();
    let bytes = 0;
    let t = 0;
    for (; t <= 10_000; t += 200) m.push((bytes += 0.2 * MB), t); // 1 MB/s
    for (; t <= 25_000; t += 200) m.push((bytes += 0.8 * MB), t); // 4 MB/s
    expect(m.rate(25_000)).toBeGreaterThan(3.6 * MB);
    expect(m.rate(25_000)).toBeLessThan(4.2 * MB);
  });

  it('falls to zero when bytes stop moving', () => {
    const m = new SpeedMeter({ windowMs: 5000 });
    for (let t = 0; t <= 5000; t += 500) m.push(t * 1000, t);
    expect(m.rate(5000)).toBeGreaterThan(0);
    const later = m.rate(7500);
    expect(later).toBeLessThan(m.rate(5000));
    expect(m.rate(11_000)).toBe(0);
  });

  it('starts afresh when the counter goes back (an upload restarted)', () => {
    const m = new SpeedMeter();
    for (let t = 0; t <= 5000; t += 500) m.push(t * 10_000, t);
    m.push(0, 5500);
    expect(m.rate(5500)).toBe(0);
    m.push(1 * MB, 6500);
    expect(m.rate(6500)).toBeCloseTo(1 * MB, -3);
  });
});

describe('etaSeconds', () => {
  it('divides what is left by the speed, rounding up', () => {
    expect(etaSeconds(10 * MB, 2 * MB)).toBe(5);
    expect(etaSeconds(10 * MB + 1, 2 * MB)).toBe(6);
  });

  it('is unknown without speed and zero when nothing is left', () => {
    expect(etaSeconds(10, 0)).toBeNull();
    expect(etaSeconds(10, Number.NaN)).toBeNull();
    expect(etaSeconds(0, 0)).toBe(0);
  });
});

describe('queueTotals', () => {
  it('counts files and bytes across the queue, leaving canceled ones out', () => {
    const totals = queueTotals([
      { state: 'done', bytes: 100, bytesDone: 0 },
      { state: 'uploading', bytes: 200, bytesDone: 50 },
      { state: 'queued', bytes: 300, bytesDone: 0 },
      { state: 'failed', bytes: 400, bytesDone: 100 },
      { state: 'paused', bytes: 500, bytesDone: 250 },
      { state: 'canceled', bytes: 10_000, bytesDone: 9_000 },
    ]);
    expect(totals).toEqual({
      filesTotal: 5,
      filesDone: 1,
      filesFailed: 1,
      bytesTotal: 1500,
      bytesDone: 100 + 50 + 0 + 100 + 250,
      // Only queued and running tasks are on their way: 150 + 300.
      bytesRemaining: 450,
    });
  });

  it('never reports more done than the file holds', () => {
    const totals = queueTotals([{ state: 'uploading', bytes: 100, bytesDone: 180 }]);
    expect(totals.bytesDone).toBe(100);
    expect(totals.bytesRemaining).toBe(0);
  });
});
