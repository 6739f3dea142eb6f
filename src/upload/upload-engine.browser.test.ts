import { afterEach, describe, expect, it } from 'vitest';
import { createLocalBackend } from '../backend/local/create-local-backend';
import type { Backend, DataPort, Item } from '../backend/ports';
import { overrideLimits, resetLimits } from '../config';
import { AppError } from '../lib/app-error';
import { hashFile, processMedia } from '../media/media-client';
import { UploadEngine, type QueueSnapshot, type UploadEngineDeps, type UploadTaskView } from './upload-engine';
import type { TaskState } from './upload-task';

const engines: UploadEngine[] = [];

afterEach(() => {
  for (const e of engines.splice(0)) e.dispose();
  resetLimits();
});

let seq = 0;
function names() {
  const tag = `${Date.now().toString(36)}-${seq++}`;
  return {
    queueDb: `test-uploads-${tag}`,
    backend: { dbName: `test-local-${tag}`, opfsDir: `test-local-${tag}`, channelName: `test-local-${tag}` },
  };
}

function newEngine(deps: UploadEngineDeps): UploadEngine {
  const e = new UploadEngine(deps);
  engines.push(e);
  return e;
}

function describeQueue(s: QueueSnapshot): string {
  return JSON.stringify(s.tasks.map((t) => [t.filename, t.state, t.error?.code ?? null]));
}

/** Resolves with the first snapshot that satisfies the predicate. */
function until(engine: UploadEngine, predicate: (s: QueueSnapshot) => boolean, timeoutMs = 40_000): Promise<QueueSnapshot> {
  return new Promise((resolve, reject) => {
    let unsubscribe = () => {};
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`Timed out; queue: ${describeQueue(engine.getSnapshot())}`));
    }, timeoutMs);
    const check = () => {
      const s = engine.getSnapshot();
      if (!predicate(s)) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(s);
    };
    unsubscribe = engine.subscribe(check);
    check();
  });
}

const SETTLED: ReadonlySet<TaskState> = new Set(['done', 'failed', 'canceled']);
const ACTIVE: ReadonlySet<TaskState> = new Set(['reading', 'processing', 'uploading', 'finalizing']);
const allSettled = (s: QueueSnapshot) => s.tasks.length > 0 && s.tasks.every((t) => SETTLED.has(t.state));
const stateOf = (s: QueueSnapshot, id: string) => s.tasks.find((t) => t.id === id)?.state;

async function jpeg(name: string, width: number, height: number, hue: number): Promise<File> {
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2d context');
  const g = ctx.createLinearGradient(0, 0, width, height);
  g.addColorStop(0, `hsl(${hue} 80% 50%)`);
  g.addColorStop(1, `hsl(${(hue + 120) % 360} 80% 30%)`);
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, width, height);
  const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.9 });
  return new File([blob], name, { type: 'image/jpeg' });
}

function textFile(name: string, text: string): File {
  return new File([text], name, { type: 'text/plain' });
}

/** Incompressible-looking bytes of a given size (an xorshift sequence), so uploads take real work. */
function binaryFile(name: string, bytes: number, seed: number): File {
  const words = new Uint32Array(Math.ceil(bytes / 4));
  let x = seed >>> 0 || 1;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    words[i] = x >>> 0;
  }
  return new File([new Uint8Array(words.buffer, 0, bytes)], name, { type: 'application/octet-stream' });
}

async function sameBytes(a: Blob, b: Blob): Promise<boolean> {
  if (a.size !== b.size) return false;
  const [x, y] = await Promise.all([a.arrayBuffer(), b.arrayBuffer()]);
  const u = new Uint8Array(x);
  const v = new Uint8Array(y);
  for (let i = 0; i < u.length; i++) if (u[i] !== v[i]) return false;
  return true;
}

/** The real media pipeline, held at a gate until the test opens it: the way to catch a task mid-flight. */
function gatedProcess() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  let calls = 0;
  const process: typeof processMedia = async (file, sniffed, opts) => {
    calls += 1;
    await new Promise<void>((resolve, reject) => {
      const signal = opts?.signal;
      const onAbort = () => reject(new DOMException('The operation was aborted.', 'AbortError'));
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      void opened.then(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
    });
    return processMedia(file, sniffed, opts);
  };
  return { process, open, calls: () => calls };
}

/** The backend with some data calls replaced; every other call goes to the real one. */
function withData(backend: Backend, overrides: Partial<DataPort>): Backend {
  const data = new Proxy(backend.data, {
    get(target, prop) {
      const own = (overrides as Record<PropertyKey, unknown>)[prop];
      if (own !== undefined) return own;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { ...backend, data };
}

/** An answer still on its way: it never arrives, and the call rejects once its signal aborts. */
function answerLostOnAbort(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => {
    const abort = () => reject(new DOMException('The operation was aborted.', 'AbortError'));
    if (signal?.aborted) abort();
    else signal?.addEventListener('abort', abort, { once: true });
  });
}

function signalled() {
  let fire: () => void = () => {};
  const fired = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { fire, fired };
}

async function readyItems(backend: Backend, albumId: string): Promise<Item[]> {
  const page = await backend.data.listItems(albumId, { sort: 'added', limit: 1000 });
  return page.rows;
}

async function setup() {
  const n = names();
  const backend = createLocalBackend(n.backend);
  const album = await backend.data.createAlbum({ title: 'Summer' });
  return { n, backend, album };
}

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
      .poll(async () => backend.data.getItem(album.id, id).then((item) => item.status))
      .toBe('failed');
    expect(await readyItems(backend, album.id)).toHaveLength(0);
    expect((await backend.data.getAlbum(album.id)).itemCount).toBe(0);
    const snapshot = engine.getSnapshot();
    expect(engine.getSnapshot()).toBe(snapshot);
  });

  it('canceling while the item is being reserved frees the reservation even though its answer never came', async () => {
    const { n, backend, album } = await setup();
    const reserved = signalled();
    const slow = withData(backend, {
      reserveItems: async (albumId, inputs, opts) => {
        await backend.data.reserveItems(albumId, inputs);
        reserved.fire();
        return answerLostOnAbort(opts?.signal);
      },
    });
    const engine = newEngine({ backend: slow, dbName: n.queueDb });
    await engine.start();
    const [note] = await engine.enqueue(album.id, [textFile('note.txt', 'a note')]);
    const id = note?.id ?? '';
    await reserved.fired;
    expect((await backend.data.getItem(album.id, id)).status).toBe('uploading');

    await engine.cancel(id);
    expect(stateOf(engine.getSnapshot(), id)).toBe('canceled');
    // The row no longer holds a place in the album.
    await expect.poll(() => backend.data.getItem(album.id, id).then((item) => item.status)).toBe('failed');
  });

  it('a cancel that arrives after the item was finalized leaves the item and all its bytes in the album', async () => {
    const { n, backend, album } = await setup();
    const finalized = signalled();
    const slow = withData(backend, {
      finalizeItem: async (albumId, itemId, input, opts) => {
        await backend.data.finalizeItem(albumId, itemId, input);
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
    expect(stateOf(engine.getSnapshot(), id)).toBe('canceled');
    const [item] = await readyItems(backend, album.id);
    expect(item?.id).toBe(id);
    expect(await sameBytes(await backend.files.read(item?.originalKey ?? ''), file)).toBe(true);
    expect((await backend.files.read(item?.thumbKey ?? '')).size).toBeGreaterThan(0);
    expect((await backend.files.read(item?.previewKey ?? '')).size).toBeGreaterThan(0);
    expect((await backend.data.getAlbum(album.id)).itemCount).toBe(1);
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
    gate.open();
    await new Promise((r) => setTimeout(r, 300));
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
    const hash: typeof hashFile = async (blob, opts) => {
      if (failures > 0) {
        failures -= 1;
        throw new AppError('upload/interrupted', 'The file could not be read.');
      }
      return hashFile(blob, opts);
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
    expect((await backend.data.getItem(album.id, halfSent?.id ?? '')).status).toBe('uploading');

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
    const album2 = await backendAfterReload.data.getAlbum(album.id);
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
