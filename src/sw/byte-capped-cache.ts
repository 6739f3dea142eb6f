/**
 * [Note: Thumbnails cached under a byte cap]
 * Thumbnails and previews seen online are kept in the service worker's Cache API under a cap in bytes,
 * least recently used out. Workbox's ExpirationPlugin counts entries, not bytes, and no maintained library
 * caps a Cache API cache by bytes, so this small module keeps its own index in IndexedDB: one record per
 * entry (key, bytes, last used) and one running total, updated in the same transaction.
 *
 * - The key is the object, not the URL: origin + path without the query. Presigned S3 URLs
 *   (X-Amz-Signature...) and Supabase Storage signed URLs (?token=...) change on every signing, and a
 *   thumbnail seen before must be found again offline or under a new signature.
 * - Only readable answers are kept: type 'basic' or 'cors' with status 200. An opaque answer's size is
 *   unknown to the page, and Chromium counts each one as about 7 MB against the origin's quota.
 * - What is kept is the signed-in person's: `clear()` empties the cache and its index at sign-out, and an
 *   answer asked for before it (a fetch still under way) is not kept after it; see [Note: What the device
 *   keeps belongs to one account].
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

export const DEFAULT_MAX_BYTES = 300 * 1024 * 1024;

interface Entry {
  key: string;
  bytes: number;
  usedAt: number;
}

interface IndexSchema extends DBSchema {
  entries: { key: string; value: Entry; indexes: { usedAt: number } };
  totals: { key: string; value: number };
}

const TOTAL = 'bytes';

/** The cache key of a URL: its origin and path, without the signing query or a fragment. */
export function objectCacheKey(url: string): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
}

/** True for an answer whose bytes may be kept: readable (same origin or CORS) and whole (200). */
export function isCacheableResponse(response: Response): boolean {
  return (response.type === 'basic' || response.type === 'cors') && response.status === 200;
}

export interface ByteCappedCacheOptions {
  cacheName: string;
  maxBytes?: number;
  /** The IndexedDB database holding the index; one per cache. */
  indexName?: string;
  now?: () => number;
}

export class ByteCappedCache {
  readonly maxBytes: number;
  private readonly cacheName: string;
  private readonly indexName: string;
  private readonly now: () => number;
  private db: Promise<IDBPDatabase<IndexSchema>> | null = null;
  /** Bumped by each clear(): a put marked before it keeps nothing. */
  private generation = 0;
  /** The puts under way, which a clear() waits for before it empties the cache. */
  private readonly writing = new Set<Promise<boolean>>();

  constructor(opts: ByteCappedCacheOptions) {
    this.cacheName = opts.cacheName;
    this.maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
    this.indexName = opts.indexName ?? `${opts.cacheName}-index`;
    this.now = opts.now ?? Date.now;
  }

  private index(): Promise<IDBPDatabase<IndexSchema>> {
    return (this.db ??= openDB<IndexSchema>(this.indexName, 1, {
      upgrade(db) {
        db.createObjectStore('entries', { keyPath: 'key' }).createIndex('usedAt', 'usedAt');
        db.createObjectStore('totals');
      },
    }));
  }

  /** The mark to give put() for an answer asked for now: if the cache is cleared before it arrives, it is not kept. */
  mark(): number {
    return this.generation;
  }

  /** The answer kept for this URL's object (whatever its signature), marked as just used. */
  async match(url: string): Promise<Response | undefined> {
    const key = objectCacheKey(url);
    const cache = await caches.open(this.cacheName);
    const found = await cache.match(key);
    if (!found) return undefined;
    const db = await this.index();
    const tx = db.transaction('entries', 'readwrite');
    const entry = await tx.store.get(key);
    if (entry) await tx.store.put({ ...entry, usedAt: this.now() });
    await tx.done;
    return found;
  }

  /**
   * Keeps a copy of the answer under its object's key, then drops the least recently used entries until the
   * total is back under the cap. Returns false (and keeps nothing) for an answer that is not cacheable or is
   * larger than the whole cap, or asked for before a clear() (`since`, from mark()).
   */
  put(url: string, response: Response, since: number = this.generation): Promise<boolean> {
    const writing = this.write(url, response, since);
    this.writing.add(writing);
    void writing.finally(() => this.writing.delete(writing)).catch(() => undefined);
    return writing;
  }

  private async write(url: string, response: Response, since: number): Promise<boolean> {
    if (!isCacheableResponse(response)) return false;
    const key = objectCacheKey(url);
    const body = await response.blob();
    if (body.size > this.maxBytes || since !== this.generation) return false;
    const headers = new Headers();
    const type = response.headers.get('content-type');
    if (type) headers.set('content-type', type);
    headers.set('content-length', String(body.size));
    const cache = await caches.open(this.cacheName);
    await cache.put(key, new Response(body, { status: 200, headers }));

    const db = await this.index();
    const tx = db.transaction(['entries', 'totals'], 'readwrite');
    const entries = tx.objectStore('entries');
    const totals = tx.objectStore('totals');
    const before = await entries.get(key);
    let total = ((await totals.get(TOTAL)) ?? 0) - (before?.bytes ?? 0) + body.size;
    await entries.put({ key, bytes: body.size, usedAt: this.now() });
    const evicted: string[] = [];
    if (total > this.maxBytes) {
      let cursor = await entries.index('usedAt').openCursor();
      while (cursor && total > this.maxBytes) {
        if (cursor.value.key !== key) {
          total -= cursor.value.bytes;
          evicted.push(cursor.value.key);
          await cursor.delete();
        }
        cursor = await cursor.continue();
      }
    }
    await totals.put(total, TOTAL);
    await tx.done;
    await Promise.all(evicted.map((k) => cache.delete(k)));
    return true;
  }

  /**
   * Empties the cache and its index. Puts under way finish first (and are emptied with the rest); answers
   * marked before this call and still on their way keep nothing when they arrive.
   */
  async clear(): Promise<void> {
    this.generation++;
    await Promise.allSettled([...this.writing]);
    await caches.delete(this.cacheName);
    const db = await this.index();
    const tx = db.transaction(['entries', 'totals'], 'readwrite');
    await Promise.all([tx.objectStore('entries').clear(), tx.objectStore('totals').clear(), tx.done]);
  }

  /** Lets go of the index's database connection (a page that only cleared the cache); a later call opens it again. */
  close(): void {
    const db = this.db;
    this.db = null;
    void db?.then((d) => d.close(), () => undefined);
  }

  /** The bytes the index counts, the sum of every kept answer's body. */
  async totalBytes(): Promise<number> {
    return (await (await this.index()).get('totals', TOTAL)) ?? 0;
  }

  /** The kept keys, least recently used first. */
  async keys(): Promise<string[]> {
    return (await (await this.index()).getAllFromIndex('entries', 'usedAt')).map((e) => e.key);
  }
}
