import { afterEach, describe, expect, it } from 'vitest';
import { createLocalBackend } from '../backend/local/create-local-backend';
import { overrideLimits } from '../config';
import { resetLimits } from '../testing/limits';
import { AppError } from '../lib/app-error';
import { digestFile, hashFile } from '../media/media-client';
import { inflatedStream } from '../lib/inflate-capped';
import { md5Base64 } from '../testing/md5-base64';
import {
  ACTIVE,
  allSettled,
  binaryFile,
  disposeEngines,
  filesInBucket,
  gatedProcess,
  jpeg,
  newEngine,
  readyItems,
  recordUploads,
  sameBytes,
  setup,
  stateOf,
  textFile,
  until,
} from '../testing/engine-test-kit';
import type { UploadTaskView } from './upload-engine';

afterEach(() => {
  disposeEngines();
  resetLimits();
});

describe('UploadEngine with the local backend and the real media pipeline', () => {
  it('uploads photos and a text file; every file becomes exactly one ready item with its bytes', async () => {
    const { n, backend, album } = await setup();
    const engine = newEngine({ backend, dbName: n.queueDb });
    await engine.start();
    const files = [
      await jpeg('beach.jpg', 640, 480, 10),
      await jpeg('forest.jpg', 480, 640, 140),
      await jpeg('sunset.jpg', 800, 600, 280),
      textFile('notes.txt', 'Bring sunscreen.\n'),
    ];
    const views = await engine.enqueue(album.id, files);
    expect(views.map((v) => v.filename)).toEqual(['beach.jpg', 'forest.jpg', 'sunset.jpg', 'notes.txt']);
    expect(views.every((v) => v.state === 'queued')).toBe(true);

    const s = await until(engine, allSettled);
    expect(s.tasks.map((t) => t.state)).toEqual(['done', 'done', 'done', 'done']);
    expect(s.totals).toMatchObject({ filesTotal: 4, filesDone: 4, filesFailed: 0, running: false });
    expect(s.totals.bytesDone).toBe(s.totals.bytesTotal);
    expect(s.totals.bytesTotal).toBe(files.reduce((sum, f) => sum + f.size, 0));

    const items = await readyItems(backend, album.id);
    expect(items.map((i) => i.id).sort()).toEqual(views.map((v) => v.id).sort());
    for (const [i, file] of files.entries()) {
      const item = items.find((it) => it.id === views[i]?.id);
      expect(item?.status).toBe('ready');
      expect(item?.filename).toBe(file.name);
      expect(item?.bytes).toBe(file.size);
      expect(item?.sha256).toBe(await hashFile(file));
      const original = await backend.files.read(item?.originalKey ?? '');
      expect(original.size).toBe(file.size);
    }
    const beach = items.find((it) => it.filename === 'beach.jpg');
    expect(beach).toMatchObject({ kind: 'image', width: 640, height: 480 });
    expect(beach?.thumbKey).not.toBeNull();
    expect(beach?.previewKey).not.toBeNull();
    expect((await backend.files.read(beach?.thumbKey ?? '')).size).toBeGreaterThan(0);
    const notes = items.find((it) => it.filename === 'notes.txt');
    expect(notes).toMatchObject({ kind: 'file', thumbKey: null, previewKey: null });

    // The uploads list keeps each photo's thumbnail, and its thumbhash, until the upload leaves the list.
    const beachView = s.tasks.find((t) => t.filename === 'beach.jpg')!;
    expect(beachView.thumbhash).toBe(beach?.thumbhash);
    expect(beachView.thumbhash).toBeTruthy();
    const thumb = await engine.thumbnail(beachView.id);
    expect(thumb?.type).toBe('image/webp');
    const bitmap = await createImageBitmap(thumb!);
    expect([bitmap.width, bitmap.height]).toEqual([480, 360]);
    expect(s.tasks.find((t) => t.filename === 'notes.txt')).toMatchObject({ thumbhash: null });
    expect(views[0]?.thumbhash).toBeUndefined();
    expect(await engine.thumbnail(s.tasks.find((t) => t.filename === 'notes.txt')!.id)).toBeUndefined();
    await engine.remove(beachView.id);
    expect(await engine.thumbnail(beachView.id)).toBeUndefined();
  });

  it('a queue whose done uploads are listed elsewhere (a guest\'s) keeps none of their copies, not even the thumbnail', async () => {
    const { n, backend, album } = await setup();
    const engine = newEngine({ backend, dbName: n.queueDb, keepThumbnails: false });
    await engine.start();
    const [view] = await engine.enqueue(album.id, [await jpeg('beach.jpg', 640, 480, 10)]);
    const s = await until(engine, allSettled);
    expect(s.tasks[0]?.state).toBe('done');
    expect(s.tasks[0]?.thumbhash).toBeTruthy();
    expect(await engine.thumbnail(view!.id)).toBeUndefined();
  });

  it("a photo's original goes to the bucket with the MD5 taken in the read that hashed it, its previews with theirs; a compressed copy with none", async () => {
    const { n, backend: local, album } = await setup();
    const backend = filesInBucket(local);
    const sent = recordUploads(backend);
    const engine = newEngine({ backend, dbName: n.queueDb });
    await engine.start();
    const photo = await jpeg('beach.jpg', 640, 480, 10);
    const csv = textFile('trips.csv', 'date,place\n'.repeat(400));
    const [photoView, csvView] = await engine.enqueue(album.id, [photo, csv]);
    await until(engine, allSettled);
    const photoSent = sent.filter((r) => r.key.includes(photoView!.id));
    expect(photoSent.find((r) => r.key.endsWith('/original'))).toMatchObject({ contentMd5: await md5Base64(photo), size: photo.size });
    // The preview and the thumbnail each with the MD5 the media worker took of its bytes as it made them.
    const derived = photoSent.filter((r) => !r.key.endsWith('/original'));
    expect(derived).toHaveLength(2);
    for (const r of derived) expect(r.contentMd5, r.key).toBe(await md5Base64(await backend.files.read(r.key)));
    // The CSV goes up gzip-compressed: the MD5 of the file as given is not that of what is sent.
    const csvSent = sent.find((r) => r.key.includes(csvView!.id) && r.key.endsWith('/original'));
    expect(csvSent!.size).toBeLessThan(csv.size);
    expect(csvSent!.contentMd5).toBeUndefined();
  });

  it('takes no MD5 of an original kept on this device: no request carries it', async () => {
    const { n, backend, album } = await setup();
    const sent = recordUploads(backend);
    const engine = newEngine({ backend, dbName: n.queueDb });
    await engine.start();
    const photo = await jpeg('beach.jpg', 640, 480, 10);
    const [view] = await engine.enqueue(album.id, [photo]);
    expect((await until(engine, allSettled)).tasks[0]?.state).toBe('done');
    const original = sent.find((r) => r.key.includes(view!.id) && r.key.endsWith('/original'));
    expect(original).toMatchObject({ contentMd5: undefined });
    expect(new Uint8Array(await (await backend.files.read(original!.key)).arrayBuffer())).toEqual(new Uint8Array(await photo.arrayBuffer()));
  });

  it('stores a CSV gzip-compressed and a short note as it is; both read back as the very bytes, also after a reload mid-upload', async () => {
    const { n, backend, album } = await setup();
    const first = newEngine({ backend, dbName: n.queueDb });
    await first.start();
    const rows = Array.from({ length: 40_000 }, (_, i) => `${i},2026-11-${String((i % 28) + 1).padStart(2, '0')},sensor-${i % 17},${((i * 7919) % 1000) / 10}\n`).join('');
    const files = [textFile('readings.csv', rows), textFile('note.txt', 'Back at six.\n')];
    const views = await first.enqueue(album.id, files);
    // Stopped once the compressed copy is made (as a closed tab would stop it): the next engine sends that copy.
    await until(first, (q) => q.tasks.some((t) => t.id === views[0]!.id && (t.state === 'uploading' || t.state === 'finalizing' || t.state === 'done')));
    first.dispose();
    const second = newEngine({ backend: createLocalBackend(n.backend), dbName: n.queueDb });
    await second.start();
    const s = await until(second, allSettled);
    expect(s.tasks.map((t) => t.state)).toEqual(['done', 'done']);
    expect(s.totals.bytesDone).toBe(s.totals.bytesTotal);

    const items = await readyItems(backend, album.id);
    const csv = items.find((i) => i.filename === 'readings.csv')!;
    const note = items.find((i) => i.filename === 'note.txt')!;
    expect(csv).toMatchObject({ bytes: files[0]!.size, storedEncoding: 'gzip', sha256: await hashFile(files[0]!) });
    const stored = await backend.files.read(csv.originalKey);
    expect(stored.size).toBe(csv.storedBytes);
    expect(stored.size).toBeLessThan(files[0]!.size / 3);
    const back = await new Response(inflatedStream(stored.stream(), { bytes: csv.bytes })).blob();
    expect(await sameBytes(back, files[0]!)).toBe(true);
    expect(note.storedEncoding).toBeUndefined();
    expect(await sameBytes(await backend.files.read(note.originalKey), files[1]!)).toBe(true);
  });

  it('refuses an empty or too large file with its error, keeps it in the queue, and refuses an oversized batch whole', async () => {
    const { n, backend, album } = await setup();
    overrideLimits({ maxUploadBytes: 4096, maxFilesPerBatch: 3 });
    const engine = newEngine({ backend, dbName: n.queueDb });
    await engine.start();

    const tooMany = [textFile('a.txt', 'a'), textFile('b.txt', 'b'), textFile('c.txt', 'c'), textFile('d.txt', 'd')];
    await expect(engine.enqueue(album.id, tooMany)).rejects.toMatchObject({ code: 'validation/invalid' });
    expect(engine.getSnapshot().tasks).toHaveLength(0);

    const [empty, big, fine] = await engine.enqueue(album.id, [
      new File([], 'empty.txt', { type: 'text/plain' }),
      binaryFile('big.bin', 5000, 7),
      textFile('fine.txt', 'fine'),
    ]);
    expect(empty?.state).toBe('failed');
    expect(empty?.error).toMatchObject({ code: 'upload/empty', retryable: false });
    expect(big?.error).toMatchObject({ code: 'upload/too-large', retryable: false });

    const s = await until(engine, allSettled);
    expect(stateOf(s, fine?.id ?? '')).toBe('done');
    expect(s.totals).toMatchObject({ filesTotal: 3, filesDone: 1, filesFailed: 2 });
    await expect(engine.retry(empty?.id ?? '')).rejects.toBeInstanceOf(AppError);
    expect((await readyItems(backend, album.id)).map((i) => i.filename)).toEqual(['fine.txt']);

    // The failed tasks survive a reload with their errors, until the user removes them.
    engine.dispose();
    const again = newEngine({ backend, dbName: n.queueDb });
    await again.start();
    const reloaded = again.getSnapshot();
    expect(reloaded.tasks.map((t) => [t.filename, t.state, t.error?.code ?? null])).toEqual([
      ['empty.txt', 'failed', 'upload/empty'],
      ['big.bin', 'failed', 'upload/too-large'],
      ['fine.txt', 'done', null],
    ]);
    await again.remove(empty?.id ?? '');
    await again.clearFinished();
    expect(again.getSnapshot().tasks.map((t) => t.filename)).toEqual(['big.bin']);
  });

  it('works on three files at once; pause, resume and cancel act on one file without touching the others', async () => {
    const { n, backend, album } = await setup();
    const gate = gatedProcess();
    const engine = newEngine({ backend, dbName: n.queueDb, process: gate.process });
    await engine.start();
    const files = await Promise.all([0, 1, 2, 3, 4].map((i) => jpeg(`p${i}.jpg`, 320, 240, i * 60)));
    const views = await engine.enqueue(album.id, files);
    const id = (i: number) => views[i]?.id ?? '';

    let s = await until(engine, (q) => q.tasks.filter((t) => t.state === 'processing').length === 3);
    expect(s.tasks.filter((t) => ACTIVE.has(t.state))).toHaveLength(3);
    expect(s.tasks.filter((t) => t.state === 'queued')).toHaveLength(2);
    expect(s.totals.running).toBe(true);

    await engine.pause(id(0));
    await engine.cancel(id(1));
    expect(stateOf(engine.getSnapshot(), id(0))).toBe('paused');
    expect(stateOf(engine.getSnapshot(), id(1))).toBe('canceled');
    // The two freed slots go to the files waiting in line.
    await until(engine, (q) => stateOf(q, id(3)) === 'processing' && stateOf(q, id(4)) === 'processing');

    gate.open();
    s = await until(engine, (q) => [2, 3, 4].every((i) => stateOf(q, id(i)) === 'done'));
    expect(stateOf(s, id(0))).toBe('paused');
    expect(s.totals.running).toBe(false);
    expect(s.totals.paused).toBe(true);

    await engine.resume(id(0));
    s = await until(engine, (q) => stateOf(q, id(0)) === 'done');
    expect(s.totals).toMatchObject({ filesTotal: 4, filesDone: 4 });

    const items = await readyItems(backend, album.id);
    expect(items.map((i) => i.id).sort()).toEqual([0, 2, 3, 4].map(id).sort());
  });

  it('asks before the page is left while added files are still being stored, and not after', async () => {
    const { n, backend, album } = await setup();
    const engine = newEngine({ backend, dbName: n.queueDb });
    await engine.start();
    await engine.pauseAll();
    const leaving = () => {
      const ev = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(ev);
      return ev.defaultPrevented;
    };
    expect(leaving()).toBe(false);
    const adding = engine.enqueue(album.id, [binaryFile('film.bin', 32 * 1024 * 1024, 3)]);
    expect(leaving()).toBe(true);
    await adding;
    expect(leaving()).toBe(false);
  });

  it('pauses and resumes the whole queue', async () => {
    const { n, backend, album } = await setup();
    const gate = gatedProcess();
    const engine = newEngine({ backend, dbName: n.queueDb, process: gate.process });
    await engine.start();
    const views = await engine.enqueue(album.id, [textFile('1.txt', 'one'), textFile('2.txt', 'two'), textFile('3.txt', 'three'), textFile('4.txt', 'four')]);
    await until(engine, (q) => q.tasks.filter((t) => t.state === 'processing').length === 3);
    await engine.pauseAll();
    let s = await until(engine, (q) => q.tasks.every((t) => t.state === 'paused'), 2000);
    expect(s.tasks.map((t) => t.state)).toEqual(['paused', 'paused', 'paused', 'paused']);
    expect(s.totals).toMatchObject({ paused: true, running: false });
    // The paused tasks stopped their work: opening the gate lets none of it go on.
    gate.open();
    await gate.opened;
    expect(gate.passed()).toBe(0);
    expect(engine.getSnapshot().tasks.every((t) => t.state === 'paused')).toBe(true);

    await engine.resumeAll();
    s = await until(engine, allSettled);
    expect(s.tasks.map((t) => t.state)).toEqual(['done', 'done', 'done', 'done']);
    expect((await readyItems(backend, album.id)).map((i) => i.id).sort()).toEqual(views.map((v) => v.id).sort());
  });

  it('a failed file stays in the queue with a retryable error, and retry finishes it', async () => {
    const { n, backend, album } = await setup();
    // Reading fails once (as an unreadable disk would), then works: the real hasher on the second try.
    let failures = 1;
    const hash: typeof digestFile = async (blob, opts) => {
      if (failures > 0) {
        failures -= 1;
        throw new AppError('upload/interrupted', 'The file could not be read.');
      }
      return digestFile(blob, opts);
    };
    const engine = newEngine({ backend, dbName: n.queueDb, hash, concurrency: 1 });
    await engine.start();
    const [first, second] = await engine.enqueue(album.id, [await jpeg('a.jpg', 200, 100, 30), textFile('b.txt', 'b')]);
    let s = await until(engine, allSettled);
    expect(stateOf(s, first?.id ?? '')).toBe('failed');
    expect(s.tasks[0]?.error).toMatchObject({ code: 'upload/interrupted', retryable: true });
    expect(stateOf(s, second?.id ?? '')).toBe('done');
    expect(s.totals.filesFailed).toBe(1);

    await engine.retry(first?.id ?? '');
    s = await until(engine, (q) => stateOf(q, first?.id ?? '') === 'done');
    expect(s.tasks[0]?.error).toBeNull();
    expect(s.totals).toMatchObject({ filesDone: 2, filesFailed: 0 });
    expect(await readyItems(backend, album.id)).toHaveLength(2);
  });

  it('starts again after a dispose (as React runs effects twice in development) and keeps one runner', async () => {
    const { n, backend, album } = await setup();
    const engine = newEngine({ backend, dbName: n.queueDb });
    void engine.start();
    engine.dispose();
    await engine.start();
    await expect.poll(() => engine.isRunner).toBe(true);
    const views = await engine.enqueue(album.id, [textFile('again.txt', 'again')]);
    await until(engine, allSettled);
    expect(engine.getSnapshot().tasks.map((t) => t.state)).toEqual(['done']);
    expect((await readyItems(backend, album.id)).map((i) => i.id)).toEqual([views[0]?.id]);
  });

  it('after a crash mid-upload a new engine resumes the queue and stores each file exactly once', async () => {
    const { n, backend, album } = await setup();
    const first = newEngine({ backend, dbName: n.queueDb });
    await first.start();
    const files = [
      binaryFile('big-1.bin', 64 * 1024 * 1024, 1),
      binaryFile('big-2.bin', 8 * 1024 * 1024, 2),
      await jpeg('small.jpg', 400, 300, 200),
      textFile('readme.txt', 'read me'),
    ];
    const views = await first.enqueue(album.id, files);
    // "Crash" while bytes are on their way: nothing is cleaned up, as when a tab is killed.
    const isHalfSent = (t: UploadTaskView) => t.state === 'uploading' && t.bytesDone > 0 && t.bytesDone < t.bytes;
    const crashedAt = await until(first, (q) => q.tasks.some(isHalfSent));
    first.dispose();
    const halfSent = crashedAt.tasks.find(isHalfSent);
    expect((await backend.items.getItem(album.id, halfSent?.id ?? '')).status).toBe('uploading');

    const backendAfterReload = createLocalBackend(n.backend);
    const second = newEngine({ backend: backendAfterReload, dbName: n.queueDb });
    await second.start();
    const s = await until(second, allSettled);
    expect(s.tasks.map((t) => t.state)).toEqual(['done', 'done', 'done', 'done']);

    const items = await readyItems(backendAfterReload, album.id);
    expect(items).toHaveLength(files.length);
    expect(items.map((i) => i.id).sort()).toEqual(views.map((v) => v.id).sort());
    for (const [i, file] of files.entries()) {
      const item = items.find((it) => it.id === views[i]?.id);
      const stored = await backendAfterReload.files.read(item?.originalKey ?? '');
      expect(stored.size).toBe(file.size);
      expect(await sameBytes(stored, file)).toBe(true);
    }
    const album2 = await backendAfterReload.albums.getAlbum(album.id);
    expect(album2.itemCount).toBe(files.length);
  });

  it('only the tab holding the lock runs the queue; the other follows it, sends it commands, and takes over when it closes', async () => {
    const { n, backend, album } = await setup();
    const lockName = `${n.queueDb}:lock`;
    const gateA = gatedProcess();
    const gateB = gatedProcess();
    gateB.open();
    const a = newEngine({ backend, dbName: n.queueDb, lockName, process: gateA.process });
    const b = newEngine({ backend: createLocalBackend(n.backend), dbName: n.queueDb, lockName, process: gateB.process });
    await a.start();
    await b.start();
    expect(a.isRunner).toBe(true);
    expect(b.isRunner).toBe(false);

    // Files added in the following tab are run by the running one.
    const views = await b.enqueue(album.id, [textFile('x.txt', 'x'), textFile('y.txt', 'y')]);
    await until(b, (q) => q.tasks.length === 2 && q.tasks.every((t) => t.state === 'processing'));
    await b.pause(views[0]?.id ?? '');
    await until(a, (q) => stateOf(q, views[0]?.id ?? '') === 'paused');
    gateA.open();
    await until(b, (q) => stateOf(q, views[1]?.id ?? '') === 'done');
    expect(gateA.calls()).toBe(2);
    expect(gateB.calls()).toBe(0);

    // The running tab closes: the other one takes over and finishes the paused file once resumed.
    a.dispose();
    await expect.poll(() => b.isRunner, { timeout: 10_000 }).toBe(true);
    await b.resume(views[0]?.id ?? '');
    await until(b, allSettled);
    expect(gateB.calls()).toBe(1);
    expect((await readyItems(backend, album.id)).map((i) => i.id).sort()).toEqual(views.map((v) => v.id).sort());
  });
});
