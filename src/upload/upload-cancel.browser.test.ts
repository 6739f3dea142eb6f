import { afterEach, describe, expect, it } from 'vitest';
import {
  answerLostOnAbort,
  binaryFile,
  disposeEngines,
  jpeg,
  newEngine,
  readyItems,
  sameBytes,
  setup,
  signalled,
  stateOf,
  textFile,
  until,
  withPort,
} from '../testing/engine-test-kit';

afterEach(disposeEngines);

describe('Canceling an upload with the local backend and the real media pipeline', () => {
  it('canceling a file on its way up stores nothing: no item in the album, no bytes kept', async () => {
    const { n, backend, album } = await setup();
    const engine = newEngine({ backend, dbName: n.queueDb });
    await engine.start();
    const [big] = await engine.enqueue(album.id, [binaryFile('video-export.bin', 64 * 1024 * 1024, 9)]);
    const id = big?.id ?? '';
    // Some bytes are sent: the item is reserved and the original is half written.
    const midway = await until(engine, (q) => q.tasks[0]?.state === 'uploading' && q.tasks[0].bytesDone > 0);
    expect(midway.tasks[0]?.bytesDone).toBeLessThan(64 * 1024 * 1024);
    await engine.cancel(id);
    const s = await until(engine, (q) => stateOf(q, id) === 'canceled');
    expect(s.tasks[0]?.error).toBeNull();
    expect(s.totals).toMatchObject({ filesTotal: 0, running: false });
    // Nothing can bring it back but adding the file again.
    await expect(engine.resume(id)).rejects.toMatchObject({ code: 'validation/invalid' });
    await expect(engine.retry(id)).rejects.toMatchObject({ code: 'validation/invalid' });

    await expect
      .poll(async () => backend.files.read(`albums/${album.id}/${id}/original`).then(() => 'stored', () => 'gone'))
      .toBe('gone');
    await expect
      .poll(async () => backend.items.getItem(album.id, id).then((item) => item.status))
      .toBe('failed');
    expect(await readyItems(backend, album.id)).toHaveLength(0);
    expect((await backend.albums.getAlbum(album.id)).itemCount).toBe(0);
    const snapshot = engine.getSnapshot();
    expect(engine.getSnapshot()).toBe(snapshot);
  });

  it('canceling while the item is being reserved frees the reservation even though its answer never came', async () => {
    const { n, backend, album } = await setup();
    const reserved = signalled();
    const slow = withPort(backend, 'itemWrites', {
      reserveItems: async (albumId, inputs, opts) => {
        await backend.itemWrites.reserveItems(albumId, inputs);
        reserved.fire();
        return answerLostOnAbort(opts?.signal);
      },
    });
    const engine = newEngine({ backend: slow, dbName: n.queueDb });
    await engine.start();
    const [note] = await engine.enqueue(album.id, [textFile('note.txt', 'a note')]);
    const id = note?.id ?? '';
    await reserved.fired;
    expect((await backend.items.getItem(album.id, id)).status).toBe('uploading');

    await engine.cancel(id);
    expect(stateOf(engine.getSnapshot(), id)).toBe('canceled');
    // The row no longer holds a place in the album.
    await expect.poll(() => backend.items.getItem(album.id, id).then((item) => item.status)).toBe('failed');
  });

  it('a cancel that arrives after the item was finalized leaves the item and all its bytes in the album, and the queue says done', async () => {
    const { n, backend, album } = await setup();
    const finalized = signalled();
    const slow = withPort(backend, 'itemWrites', {
      finalizeItem: async (albumId, itemId, input, opts) => {
        await backend.itemWrites.finalizeItem(albumId, itemId, input);
        finalized.fire();
        return answerLostOnAbort(opts?.signal);
      },
    });
    const engine = newEngine({ backend: slow, dbName: n.queueDb });
    await engine.start();
    const file = await jpeg('late.jpg', 320, 240, 50);
    const [photo] = await engine.enqueue(album.id, [file]);
    const id = photo?.id ?? '';
    await finalized.fired;

    await engine.cancel(id);
    await until(engine, (s) => stateOf(s, id) === 'done');
    const [item] = await readyItems(backend, album.id);
    expect(item?.id).toBe(id);
    expect(await sameBytes(await backend.files.read(item?.originalKey ?? ''), file)).toBe(true);
    expect((await backend.files.read(item?.thumbKey ?? '')).size).toBeGreaterThan(0);
    expect((await backend.files.read(item?.previewKey ?? '')).size).toBeGreaterThan(0);
    expect((await backend.albums.getAlbum(album.id)).itemCount).toBe(1);
  });
});
