/**
 * FilesPort on the Origin Private File System: each object key is a path of nested directories under one
 * root directory, and each object is one file.
 *
 * [Note: Atomic local writes]
 * `createWritable()` already writes into a swap file and replaces the target only on `close()`, but
 * `getFileHandle(name, { create: true })` makes an empty file at once, which a crash would leave behind as
 * an object. So an upload writes to a hidden sibling (`.{name}.{random}.partial`) and moves it over the
 * key only when complete: a key either holds a whole object or nothing. Keys never have segments starting
 * with a dot, so hidden names cannot clash with objects; `abortUpload` removes any leftovers of a key.
 */
import { abortError, AppError, throwIfAborted } from '../../lib/app-error';
import type { CallOptions, FilesPort, UploadCheckpoint, UploadOptions, UploadRequest, UrlOptions } from '../ports';
import { guard } from './local-errors';

/**
 * Progress granularity: small enough for a smooth bar, large enough to keep writes efficient. Each write is a
 * round trip to the browser's file system; a 24 MP photo went in 7 writes at 1 MiB, and importing 30 of them
 * cost the browser process 7.3 s of CPU at 1 MiB and 6.3 s at 8 MiB (bench/import-bench.mjs).
 */
const CHUNK_BYTES = 8 * 1024 * 1024;

interface MovableFileHandle extends FileSystemFileHandle {
  move?: (newName: string) => Promise<void>;
}

interface ListableDirectoryHandle extends FileSystemDirectoryHandle {
  keys(): AsyncIterableIterator<string>;
}

function invalidKey(key: unknown): AppError {
  return new AppError('validation/invalid', `Not a valid storage key: ${String(key).slice(0, 200)}`, {
    details: { field: 'key' },
  });
}

/** Splits a key into directory segments and a file name, refusing anything that could escape or hide. */
export function splitKey(key: string): { dirs: string[]; name: string } {
  if (typeof key !== 'string' || key.length === 0 || key.length > 1024) throw invalidKey(key);
  const segments = key.split('/');
  for (const s of segments) {
    // Empty, '.', '..' and hidden names are refused; so are backslashes and control characters.
    if (s.length === 0 || s.startsWith('.') || s.includes('\\') || hasControl(s)) throw invalidKey(key);
  }
  const name = segments.pop()!;
  return { dirs: segments, name };
}

function hasControl(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

function isNotFound(e: unknown): boolean {
  const name = e instanceof DOMException || e instanceof Error ? e.name : '';
  return name === 'NotFoundError' || name === 'TypeMismatchError';
}

function notStored(key: string, cause?: unknown): AppError {
  return new AppError('item/not-found', 'This file is not stored on this device.', {
    details: { key },
    ...(cause === undefined ? {} : { cause }),
  });
}

function canMove(): boolean {
  return typeof FileSystemFileHandle !== 'undefined' && 'move' in FileSystemFileHandle.prototype;
}

export class LocalFiles implements FilesPort {
  private root: Promise<FileSystemDirectoryHandle> | null = null;
  /** Directory handles by path; OPFS handles name a path, so a cached one stays valid if recreated. */
  private readonly dirs = new Map<string, FileSystemDirectoryHandle>();
  /** One object URL per key, revoked when the object is removed or replaced. */
  private readonly objectUrls = new Map<string, string>();

  constructor(private readonly rootName: string) {}

  upload(req: UploadRequest, opts: UploadOptions = {}): Promise<{ bytes: number }> {
    const { signal, onProgress } = opts;
    return guard(signal, async () => {
      const { dirs, name } = splitKey(req.key);
      // Without `move()` (older engines) write in place: still atomic in content, not in existence.
      const direct = !canMove();
      const opened = await this.withDirRetry(dirs, true, async (dir) => {
        const handle = await dir.getFileHandle(direct ? name : `.${name}.${crypto.randomUUID()}.partial`, { create: true });
        return { dir, handle };
      });
      if (!opened) throw notStored(req.key);
      const { dir: folder, handle } = opened;
      const size = req.blob.size;
      let writable: FileSystemWritableFileStream | null = null;
      try {
        writable = await handle.createWritable({ keepExistingData: false });
        let sent = 0;
        while (sent < size) {
          if (signal?.aborted) throw abortError('The upload was canceled.');
          const end = Math.min(size, sent + CHUNK_BYTES);
          await writable.write(req.blob.slice(sent, end));
          sent = end;
          onProgress?.(sent);
        }
        if (signal?.aborted) throw abortError('The upload was canceled.');
        const closing = writable;
        writable = null;
        await closing.close();
        if (!direct) await (handle as MovableFileHandle).move!(name);
      } catch (e) {
        if (writable) await writable.abort().catch(() => undefined);
        if (!direct) await folder.removeEntry(handle.name).catch(() => undefined);
        throw e;
      }
      this.revoke(req.key);
      if (size === 0) onProgress?.(0);
      return { bytes: size };
    });
  }

  urls(keys: string[], opts: UrlOptions = {}): Promise<Map<string, string>> {
    return guard(opts.signal, async () => {
      const unique = [...new Set(keys)];
      const found = await Promise.all(unique.map((key) => this.objectUrl(key)));
      throwIfAborted(opts.signal);
      const map = new Map<string, string>();
      unique.forEach((key, i) => {
        const url = found[i];
        if (url) map.set(key, url);
      });
      return map;
    });
  }

  read(key: string, opts: CallOptions = {}): Promise<Blob> {
    return guard(opts.signal, async () => {
      const file = await this.file(key);
      if (!file) throw notStored(key);
      return file;
    });
  }

  remove(keys: string[], opts: CallOptions = {}): Promise<void> {
    return guard(opts.signal, async () => {
      await Promise.all(
        keys.map(async (key) => {
          const { dirs, name } = splitKey(key);
          this.revoke(key);
          await this.withDirRetry(dirs, false, (dir) => ignoreNotFound(dir.removeEntry(name)));
        }),
      );
    });
  }

  abortUpload(key: string, _checkpoint: UploadCheckpoint | undefined, opts: CallOptions = {}): Promise<void> {
    return guard(opts.signal, async () => {
      const { dirs, name } = splitKey(key);
      await this.withDirRetry(dirs, false, async (dir) => {
        const leftovers: string[] = [];
        for await (const entry of (dir as ListableDirectoryHandle).keys()) {
          if (entry.startsWith(`.${name}.`)) leftovers.push(entry);
        }
        await Promise.all(leftovers.map((entry) => ignoreNotFound(dir.removeEntry(entry))));
      });
    });
  }

  /** Removes a whole directory of objects (an item's or an album's), for the data port. */
  async removeTree(prefix: string): Promise<void> {
    const { dirs, name } = splitKey(prefix);
    for (const key of [...this.objectUrls.keys()]) {
      if (key.startsWith(`${prefix}/`)) this.revoke(key);
    }
    for (const path of [...this.dirs.keys()]) {
      if (path === prefix || path.startsWith(`${prefix}/`)) this.dirs.delete(path);
    }
    await this.withDirRetry(dirs, false, (dir) => ignoreNotFound(dir.removeEntry(name, { recursive: true })));
  }

  private revoke(key: string): void {
    const url = this.objectUrls.get(key);
    if (url) {
      URL.revokeObjectURL(url);
      this.objectUrls.delete(key);
    }
  }

  private async objectUrl(key: string): Promise<string | null> {
    const cached = this.objectUrls.get(key);
    if (cached) return cached;
    let file: File | null;
    try {
      file = await this.file(key);
    } catch (e) {
      if (e instanceof AppError && e.code === 'validation/invalid') return null;
      throw e;
    }
    if (!file) return null;
    // Another call may have made one meanwhile: keep a single URL per key.
    const again = this.objectUrls.get(key);
    if (again) return again;
    // A blob: URL runs at the app's own origin: an uploaded SVG or HTML opened from it could run script here.
    // Originals are therefore typed as opaque bytes (images, video and downloads still work: those sniff the
    // content), and derived copies as the images they are.
    const url = URL.createObjectURL(new Blob([file], { type: safeObjectType(key) }));
    this.objectUrls.set(key, url);
    return url;
  }

  private async file(key: string): Promise<File | null> {
    const { dirs, name } = splitKey(key);
    return this.withDirRetry(dirs, false, async (dir) => {
      try {
        return await (await dir.getFileHandle(name)).getFile();
      } catch (e) {
        if (isNotFound(e)) return null;
        throw e;
      }
    });
  }

  private getRoot(): Promise<FileSystemDirectoryHandle> {
    if (!this.root) {
      const root = navigator.storage.getDirectory().then((opfs) => opfs.getDirectoryHandle(this.rootName, { create: true }));
      root.catch(() => {
        if (this.root === root) this.root = null;
      });
      this.root = root;
    }
    return this.root;
  }

  /** The directory at `dirs` (made when `create`), or null when it does not exist. */
  private async dir(dirs: string[], create: boolean): Promise<FileSystemDirectoryHandle | null> {
    const path = dirs.join('/');
    const cached = this.dirs.get(path);
    if (cached) return cached;
    let dir = await this.getRoot();
    for (const segment of dirs) {
      try {
        dir = await dir.getDirectoryHandle(segment, { create });
      } catch (e) {
        if (!create && isNotFound(e)) return null;
        throw e;
      }
    }
    this.dirs.set(path, dir);
    return dir;
  }

  /**
   * Runs `fn` in the directory; if a cached handle turns out to point at a directory that was removed
   * (by another tab, say), forgets the cache and tries once more from the root.
   */
  private async withDirRetry<T>(dirs: string[], create: boolean, fn: (dir: FileSystemDirectoryHandle) => Promise<T>): Promise<T | null> {
    for (let attempt = 0; ; attempt++) {
      const dir = await this.dir(dirs, create);
      if (!dir) return null;
      try {
        return await fn(dir);
      } catch (e) {
        if (attempt > 0 || !isNotFound(e)) throw e;
        this.dirs.clear();
        this.root = null;
      }
    }
  }
}

async function ignoreNotFound(p: Promise<void>): Promise<void> {
  try {
    await p;
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
}

/** The type a blob: URL is served with: never one a browser would render as a document. */
export function safeObjectType(key: string): string {
  return key.endsWith('.webp') ? 'image/webp' : 'application/octet-stream';
}
