/** A file whose network stage fails for a moment is tried again on its own ([Note: A file's upload tried again]). */
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../lib/app-error';
import type { RetryPolicy } from '../lib/backoff';
import { allSettled, disposeEngines, filesInBucket, newEngine, readyItems, setup, textFile, until, withPort } from '../testing/engine-test-kit';

afterEach(() => {
  disposeEngines();
});

const quick: RetryPolicy = { retries: 3, baseMs: 5, maxMs: 20 };

describe('UploadEngine retries', () => {
  it('a 5xx from finishing the item, then an answer: the file arrives without anyone pressing Try again', async () => {
    const { n, backend: local, album } = await setup();
    let refusals = 2;
    const backend = withPort(filesInBucket(local, { networkRequired: true }), 'itemWrites', {
      finalizeItem: (albumId, id, facts, opts) => {
        if (refusals > 0) {
          refusals -= 1;
          return Promise.reject(new AppError('backend/unreachable', 'HTTP 500', { retryable: true }));
        }
        return local.itemWrites.finalizeItem(albumId, id, facts, opts);
      },
    });
    const engine = newEngine({ backend, dbName: n.queueDb, retry: quick });
    await engine.start();
    const seen = new Set<string>();
    engine.subscribe(() => {
      for (const t of engine.getSnapshot().tasks) seen.add(t.state);
    });
    const [view] = await engine.enqueue(album.id, [textFile('list.txt', 'Milk\n')]);
    const s = await until(engine, allSettled);
    expect(s.tasks.map((t) => [t.state, t.error])).toEqual([['done', null]]);
    expect(refusals).toBe(0);
    expect(seen.has('failed')).toBe(false);
    expect((await readyItems(backend, album.id)).map((i) => i.id)).toEqual([view!.id]);
  });

  it("waits at least the server's Retry-After before it asks again", async () => {
    const { n, backend: local, album } = await setup();
    const asked: number[] = [];
    const backend = withPort(filesInBucket(local, { networkRequired: true }), 'itemWrites', {
      reserveItems: (albumId, items, opts) => {
        asked.push(performance.now());
        if (asked.length === 1) return Promise.reject(new AppError('share/rate-limited', 'HTTP 429', { retryAfterMs: 400 }));
        return local.itemWrites.reserveItems(albumId, items, opts);
      },
    });
    const engine = newEngine({ backend, dbName: n.queueDb, retry: quick });
    await engine.start();
    await engine.enqueue(album.id, [textFile('list.txt', 'Milk\n')]);
    const s = await until(engine, allSettled);
    expect(s.tasks.map((t) => t.state)).toEqual(['done']);
    expect(asked).toHaveLength(2);
    expect(asked[1]! - asked[0]!).toBeGreaterThanOrEqual(400);
  });

  it('a refusal (4xx) is not asked again: the file stops at once with its error', async () => {
    const { n, backend: local, album } = await setup();
    let asked = 0;
    const backend = withPort(filesInBucket(local, { networkRequired: true }), 'itemWrites', {
      reserveItems: () => {
        asked += 1;
        return Promise.reject(new AppError('album/forbidden', 'HTTP 403'));
      },
    });
    const engine = newEngine({ backend, dbName: n.queueDb, retry: quick });
    await engine.start();
    await engine.enqueue(album.id, [textFile('list.txt', 'Milk\n')]);
    const s = await until(engine, allSettled);
    expect(s.tasks.map((t) => [t.state, t.error?.code])).toEqual([['failed', 'album/forbidden']]);
    expect(asked).toBe(1);
  });

  it('a file paused while it waits to be tried again stays paused, and resumes to the end', async () => {
    const { n, backend: local, album } = await setup();
    let asked = 0;
    const backend = withPort(filesInBucket(local, { networkRequired: true }), 'itemWrites', {
      reserveItems: (albumId, items, opts) => {
        asked += 1;
        if (asked === 1) return Promise.reject(new AppError('backend/unreachable', 'HTTP 502', { retryable: true, retryAfterMs: 60_000 }));
        return local.itemWrites.reserveItems(albumId, items, opts);
      },
    });
    // A long wait (the server's Retry-After): the pause comes during it.
    const engine = newEngine({ backend, dbName: n.queueDb, retry: quick });
    await engine.start();
    const [view] = await engine.enqueue(album.id, [textFile('list.txt', 'Milk\n')]);
    await expect.poll(() => asked).toBe(1);
    // The queue says when it will try again.
    const waiting = await until(engine, (s) => s.tasks[0]?.retryAt !== null);
    expect(waiting.tasks[0]?.state).toBe('uploading');
    expect(waiting.tasks[0]!.retryAt! - Date.now()).toBeGreaterThan(50_000);
    await engine.pause(view!.id);
    const paused = await until(engine, (s) => s.tasks[0]?.state === 'paused' && !s.totals.running);
    expect(paused.tasks[0]?.error).toBeNull();
    expect(paused.tasks[0]?.retryAt).toBeNull();
    expect(asked).toBe(1);
    await engine.resume(view!.id);
    const s = await until(engine, allSettled);
    expect(s.tasks.map((t) => t.state)).toEqual(['done']);
    expect(asked).toBe(2);
  });

  it("the storage adapter's own wait to send a part again shows as the file's wait, and ends when it goes", async () => {
    const { n, backend: local, album } = await setup();
    const bucket = filesInBucket(local, { networkRequired: true });
    const upload = bucket.files.upload.bind(bucket.files);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let waited = false;
    // As the S3 adapter does while every request of the file waits out its backoff (src/backend/s3/retry-watch.ts).
    const backend = withPort(bucket, 'files', {
      upload: async (req, opts) => {
        if (!waited) {
          waited = true;
          opts?.onRetry?.(Date.now() + 60_000);
          await held;
          opts?.onRetry?.(null);
        }
        return upload(req, opts);
      },
    });
    const engine = newEngine({ backend, dbName: n.queueDb, retry: quick });
    await engine.start();
    await engine.enqueue(album.id, [textFile('list.txt', 'Milk\n')]);
    const waiting = await until(engine, (s) => s.tasks[0]?.retryAt !== null);
    expect(waiting.tasks[0]?.state).toBe('uploading');
    expect(waiting.tasks[0]!.retryAt! - Date.now()).toBeGreaterThan(50_000);
    expect(waiting.totals.retryAt).toBe(waiting.tasks[0]!.retryAt);
    release();
    await until(engine, (s) => s.tasks[0]?.retryAt === null);
    const s = await until(engine, allSettled);
    expect(s.tasks.map((t) => [t.state, t.error, t.retryAt])).toEqual([['done', null, null]]);
  });
});
