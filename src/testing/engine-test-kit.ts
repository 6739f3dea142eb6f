/** What the upload engine's browser tests share: engines that are disposed after each test, files, gates. */
import { createLocalBackend } from '../backend/local/create-local-backend';
import { withOverrides } from './contract/contract-fixtures';
import type { Backend } from '../backend/ports';
import type { Item } from '../domain/entities';
import { processMedia } from '../media/media-client';
import { UploadEngine, type QueueSnapshot, type UploadEngineDeps } from '../upload/upload-engine';
import type { TaskState } from '../upload/upload-task';

const engines: UploadEngine[] = [];

/** Disposes every engine made by `newEngine`: for `afterEach`. */
export function disposeEngines(): void {
  for (const e of engines.splice(0)) e.dispose();
}

let seq = 0;
export function names() {
  const tag = `${Date.now().toString(36)}-${seq++}`;
  return {
    queueDb: `test-uploads-${tag}`,
    backend: { dbName: `test-local-${tag}`, opfsDir: `test-local-${tag}`, channelName: `test-local-${tag}` },
  };
}

export function newEngine(deps: UploadEngineDeps): UploadEngine {
  const e = new UploadEngine(deps);
  engines.push(e);
  return e;
}

export function describeQueue(s: QueueSnapshot): string {
  return JSON.stringify(s.tasks.map((t) => [t.filename, t.state, t.error?.code ?? null]));
}

/** Resolves with the first snapshot that satisfies the predicate. */
export function until(engine: Pick<UploadEngine, 'subscribe' | 'getSnapshot'>, predicate: (s: QueueSnapshot) => boolean, timeoutMs = 40_000): Promise<QueueSnapshot> {
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

export const SETTLED: ReadonlySet<TaskState> = new Set(['done', 'failed', 'canceled']);
export const ACTIVE: ReadonlySet<TaskState> = new Set(['reading', 'processing', 'uploading', 'finalizing']);
export const allSettled = (s: QueueSnapshot) => s.tasks.length > 0 && s.tasks.every((t) => SETTLED.has(t.state));
export const stateOf = (s: QueueSnapshot, id: string) => s.tasks.find((t) => t.id === id)?.state;

export async function jpeg(name: string, width: number, height: number, hue: number): Promise<File> {
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

export function textFile(name: string, text: string): File {
  return new File([text], name, { type: 'text/plain' });
}

/** Incompressible-looking bytes of a given size (an xorshift sequence), so uploads take real work. */
export function binaryFile(name: string, bytes: number, seed: number): File {
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

export async function sameBytes(a: Blob, b: Blob): Promise<boolean> {
  if (a.size !== b.size) return false;
  const [x, y] = await Promise.all([a.arrayBuffer(), b.arrayBuffer()]);
  const u = new Uint8Array(x);
  const v = new Uint8Array(y);
  for (let i = 0; i < u.length; i++) if (u[i] !== v[i]) return false;
  return true;
}

/** The real media pipeline, held at a gate until the test opens it: the way to catch a task mid-flight. */
export function gatedProcess() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  let calls = 0;
  let passed = 0;
  const process: typeof processMedia = async (file, sniffed, opts) => {
    calls += 1;
    await new Promise<void>((resolve, reject) => {
      const signal = opts?.signal;
      const onAbort = () => reject(new DOMException('The operation was aborted.', 'AbortError'));
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      void opened.then(() => {
        signal?.removeEventListener('abort', onAbort);
        if (signal?.aborted) return;
        passed += 1;
        resolve();
      });
    });
    return processMedia(file, sniffed, opts);
  };
  /**
   * `passed`: how many calls went on through the gate rather than stopping at their signal. Once `opened` has
   * resolved to a caller, every call waiting then has gone on or not.
   */
  return { process, open, opened, calls: () => calls, passed: () => passed };
}

/** The backend with some calls of one of its ports replaced. */
export function withPort<K extends 'items' | 'itemWrites' | 'albums' | 'files'>(backend: Backend, name: K, overrides: Partial<Backend[K]>): Backend {
  return { ...backend, [name]: withOverrides(backend[name], overrides) };
}

/**
 * The backend as one whose files are kept in a bucket (Supabase + S3) rather than on this device, and, with
 * `networkRequired`, whose calls need the network: the engine reads what a backend declares, not its kind.
 */
export function filesInBucket(backend: Backend, opts: { networkRequired?: boolean } = {}): Backend {
  const capabilities = { ...backend.capabilities, storage: { onDevice: false, sidecars: true } };
  return { ...backend, capabilities: opts.networkRequired ? { ...capabilities, network: { required: true } } : capabilities };
}

/** Each request the engine hands `backend.files.upload`, in order (the backend still sends it): key, MD5, size. */
export function recordUploads(backend: Backend): { key: string; contentMd5: string | undefined; size: number }[] {
  const sent: { key: string; contentMd5: string | undefined; size: number }[] = [];
  const upload = backend.files.upload.bind(backend.files);
  backend.files.upload = (req, opts) => {
    sent.push({ key: req.key, contentMd5: req.contentMd5, size: req.blob.size });
    return upload(req, opts);
  };
  return sent;
}

/** An answer still on its way: it never arrives, and the call rejects once its signal aborts. */
export function answerLostOnAbort(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => {
    const abort = () => reject(new DOMException('The operation was aborted.', 'AbortError'));
    if (signal?.aborted) abort();
    else signal?.addEventListener('abort', abort, { once: true });
  });
}

export function signalled() {
  let fire: () => void = () => {};
  const fired = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { fire, fired };
}

export async function readyItems(backend: Backend, albumId: string): Promise<Item[]> {
  const page = await backend.items.listItems(albumId, { sort: 'added', limit: 1000 });
  return page.rows;
}

export async function setup() {
  const n = names();
  const backend = createLocalBackend(n.backend);
  const album = await backend.albums.createAlbum({ title: 'Summer' });
  return { n, backend, album };
}
