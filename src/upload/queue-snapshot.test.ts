import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueueSnapshots } from './queue-snapshot';
import { etaSeconds, SpeedMeter } from './upload-progress';
import type { TaskState, UploadTask } from './upload-task';

const MB = 1_000_000;

/** A deterministic spread of numbers in [0, 1). */
function spread(seed: number) {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

/**
 * An import of camera photos as the queue runs it: three files at a time, each read and made into previews
 * (0.8–2.0 s) and then sent (4–6 MB at 40 MB/s, progress every 100 ms). Returns when each byte went.
 */
function importRun(files: number) {
  const rnd = spread(7);
  const samples: { t: number; sent: number }[] = [];
  const slots = [0, 0, 0];
  const sends: { start: number; end: number; bytes: number }[] = [];
  let total = 0;
  for (let i = 0; i < files; i++) {
    const slot = slots.indexOf(Math.min(...slots));
    const bytes = Math.round((4 + 2 * rnd()) * MB);
    const start = slots[slot]! + 800 + 1200 * rnd();
    const end = start + (bytes / (40 * MB)) * 1000;
    sends.push({ start, end, bytes });
    slots[slot] = end;
    total += bytes;
  }
  const finished = Math.max(...slots);
  const sentAt = (t: number) => sends.reduce((n, s) => n + (t >= s.end ? s.bytes : t <= s.start ? 0 : (s.bytes * (t - s.start)) / (s.end - s.start)), 0);
  for (let t = 0; t <= finished; t += 100) samples.push({ t, sent: sentAt(t) });
  return { samples, total, finished };
}

describe("the queue's time left", () => {
  it('halfway through an import of 300 photos, is within 20% of the time that actually remained', () => {
    const { samples, total, finished } = importRun(300);
    // The queue's own meter, as QueueSnapshots keeps it.
    const meter = new SpeedMeter();
    let checked = false;
    for (const { t, sent } of samples) {
      meter.push(sent, t);
      if (!checked && sent >= total / 2) {
        checked = true;
        const left = etaSeconds(total - sent, meter.rate(t))!;
        const actual = (finished - t) / 1000;
        expect(Math.abs(left - actual) / actual).toBeLessThan(0.2);
      }
      // Between two files' bytes there is still a figure: the queue is getting through them.
      if (sent > total / 4 && sent < total) expect(meter.rate(t)).toBeGreaterThan(0);
    }
    expect(checked).toBe(true);
  });
});

describe('QueueSnapshots', () => {
  afterEach(() => vi.useRealTimers());

  const task = (state: TaskState, bytesDone: number): UploadTask => ({ id: 'a', albumId: 'x', filename: 'a.jpg', bytes: 10 * MB, state, bytesDone, error: null, createdAt: '2026-01-01T00:00:00Z' }) as UploadTask;

  it('shows the speed and time left while a file is being made into previews, between the bytes of others', async () => {
    vi.useFakeTimers({ toFake: ['performance', 'setTimeout', 'setInterval'] });
    let tasks = [task('uploading', 0)];
    const snapshots = new QueueSnapshots({ tasks: () => tasks, isOffline: () => false });
    for (let i = 1; i <= 10; i++) {
      vi.advanceTimersByTime(100);
      snapshots.trackProgress('a', (i - 1) * 0.4 * MB, i * 0.4 * MB);
    }
    // The file's bytes have gone quiet while the next is worked on.
    tasks = [task('processing', 4 * MB)];
    vi.advanceTimersByTime(1500);
    snapshots.notify(true);
    await Promise.resolve();
    const { totals } = snapshots.current();
    expect(totals.running).toBe(true);
    expect(totals.speedBps).toBeGreaterThan(0);
    expect(totals.etaSeconds).not.toBeNull();
  });

  it('while every file being worked on waits to be tried again, gives the soonest retry, not a time left of nought', async () => {
    const at = Date.now() + 8000;
    const waits = new Map<string, number>([['a', at]]);
    const finishing = (id: string): UploadTask => ({ ...task('finalizing', 10 * MB), id });
    let tasks = [finishing('a'), { ...task('done', 10 * MB), id: 'c' }];
    const snapshots = new QueueSnapshots({ tasks: () => tasks, isOffline: () => false, retryAt: (id) => waits.get(id) ?? null });
    const totals = async () => {
      snapshots.notify(true);
      await Promise.resolve();
      return snapshots.current().totals;
    };
    // Every byte is sent: without the retry the queue would say "finishing".
    expect(await totals()).toMatchObject({ running: true, etaSeconds: 0, retryAt: at });

    waits.set('b', at - 3000);
    tasks = [finishing('a'), finishing('b')];
    expect((await totals()).retryAt).toBe(at - 3000);

    // One file still moving: the queue is not waiting.
    waits.delete('b');
    expect((await totals()).retryAt).toBeNull();
  });
});
