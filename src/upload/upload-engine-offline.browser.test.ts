/** The upload engine with no network, or none that answers: what it does follows what the backend declares. */
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../lib/app-error';
import { ACTIVE, allSettled, disposeEngines, filesInBucket, newEngine, readyItems, setup, stateOf, textFile, until, withPort } from '../testing/engine-test-kit';

afterEach(() => {
  disposeEngines();
});

describe('UploadEngine offline, by what the backend declares', () => {
  afterEach(() => {
    window.dispatchEvent(new Event('online'));
  });

  it('a backend that keeps albums on the device uploads while the browser is offline', async () => {
    const { n, backend, album } = await setup();
    expect(backend.capabilities.network.required).toBe(false);
    const engine = newEngine({ backend, dbName: n.queueDb });
    await engine.start();
    window.dispatchEvent(new Event('offline'));
    await engine.enqueue(album.id, [textFile('list.txt', 'Milk\n')]);
    const s = await until(engine, allSettled);
    expect(s.tasks.map((t) => t.state)).toEqual(['done']);
    expect(s.totals.offline).toBe(false);
  });

  it('a backend that needs the network holds uploads while offline and sends them once online', async () => {
    const { n, backend: local, album } = await setup();
    const backend = filesInBucket(local, { networkRequired: true });
    const engine = newEngine({ backend, dbName: n.queueDb });
    await engine.start();
    window.dispatchEvent(new Event('offline'));
    // The file is read and processed on the device, then its task goes back in line for the network: nothing
    // runs any more until `online`.
    let worked = false;
    const waitingForNetwork = until(engine, (s) => {
      const state = s.tasks[0]?.state;
      if (state && ACTIVE.has(state)) worked = true;
      return worked && state === 'queued' && !s.totals.running;
    });
    const [view] = await engine.enqueue(album.id, [textFile('list.txt', 'Milk\n')]);
    const waiting = await waitingForNetwork;
    expect(stateOf(waiting, view!.id)).toBe('queued');
    expect(waiting.totals.offline).toBe(true);
    expect(await readyItems(backend, album.id)).toEqual([]);

    window.dispatchEvent(new Event('online'));
    const s = await until(engine, allSettled);
    expect(s.tasks.map((t) => t.state)).toEqual(['done']);
    expect((await readyItems(backend, album.id)).map((i) => i.filename)).toEqual(['list.txt']);
  });

  it('when the browser still says online, a request without an answer and a silent network hold the queue until a probe is answered', async () => {
    const { n, backend: local, album } = await setup();
    const network = { up: false, probes: 0 };
    const cutOff = (signal?: AbortSignal) => {
      if (!network.up) return Promise.reject(new AppError('backend/unreachable', 'no answer', { retryable: true }));
      return signal?.aborted ? Promise.reject(new DOMException('aborted', 'AbortError')) : null;
    };
    const backend = withPort(filesInBucket(local, { networkRequired: true }), 'itemWrites', {
      reserveItems: (albumId, items, opts) => cutOff(opts?.signal) ?? local.itemWrites.reserveItems(albumId, items, opts),
      finalizeItem: (albumId, id, facts, opts) => cutOff(opts?.signal) ?? local.itemWrites.finalizeItem(albumId, id, facts, opts),
    });
    const probe = () => {
      network.probes += 1;
      return Promise.resolve(network.up);
    };
    const engine = newEngine({ backend, dbName: n.queueDb, probe });
    await engine.start();
    const seen = new Set<string>();
    engine.subscribe(() => {
      for (const t of engine.getSnapshot().tasks) seen.add(t.state);
    });
    expect(navigator.onLine).toBe(true);

    const [view] = await engine.enqueue(album.id, [textFile('list.txt', 'Milk\n'), textFile('eggs.txt', 'Eggs\n')]);
    const waiting = await until(engine, (s) => s.totals.offline && !s.totals.running);
    expect(waiting.tasks.map((t) => t.state)).toEqual(['queued', 'queued']);
    expect(await readyItems(backend, album.id)).toEqual([]);
    const probesWhileDown = network.probes;
    await expect.poll(() => network.probes, { timeout: 10_000 }).toBeGreaterThan(probesWhileDown);
    expect(engine.getSnapshot().totals.offline).toBe(true);

    network.up = true;
    const s = await until(engine, allSettled, 90_000);
    expect(s.tasks.map((t) => t.state)).toEqual(['done', 'done']);
    expect(s.totals.offline).toBe(false);
    expect(seen.has('failed')).toBe(false);
    expect((await readyItems(backend, album.id)).map((i) => i.id)).toContain(view!.id);
  }, 120_000);

  it('a server that does not answer while the network does fails the upload (retryable), once its retries are spent, instead of waiting as if offline', async () => {
    const { n, backend: local, album } = await setup();
    let asked = 0;
    const backend = withPort(filesInBucket(local, { networkRequired: true }), 'itemWrites', {
      reserveItems: () => {
        asked += 1;
        return Promise.reject(new AppError('backend/unreachable', 'HTTP 503', { retryable: true }));
      },
    });
    // The real probe: a HEAD request to this page's own origin, which answers.
    const engine = newEngine({ backend, dbName: n.queueDb, retry: { retries: 2, baseMs: 5, maxMs: 20 } });
    await engine.start();
    await engine.enqueue(album.id, [textFile('list.txt', 'Milk\n')]);
    const s = await until(engine, allSettled);
    expect(s.tasks.map((t) => [t.state, t.error?.code, t.error?.retryable])).toEqual([['failed', 'backend/unreachable', true]]);
    expect(asked).toBe(3);
    expect(s.totals.offline).toBe(false);
  });
});
