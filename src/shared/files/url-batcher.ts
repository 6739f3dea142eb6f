import type { QueryClient } from '@tanstack/react-query';
import type { FilesPort } from '../../backend/ports';

/** The query key root under which fetched URLs are kept (shared with useObjectUrls). */
const URLS_ROOT = 'object-urls';

/**
 * Collects the object keys that tiles ask for during one frame and fetches their URLs in one `files.urls` call
 * (one call per page of thumbnails, not one per tile). URLs are kept until shortly before they expire.
 */
export class UrlBatcher {
  private readonly urls = new Map<string, { url: string; at: number }>();
  private readonly pending = new Set<string>();
  private readonly inFlight = new Set<string>();
  private readonly failed = new Set<string>();
  private readonly listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly files: Pick<FilesPort, 'urls'>,
    private readonly maxAgeMs = 45 * 60_000,
    private readonly batchSize = 200,
    /**
     * Given, each batch is fetched as a query, so URLs seen before are found there after a reload (the query
     * cache kept on the device): offline, a thumbnail the service worker kept draws from its old URL.
     */
    private readonly cache?: QueryClient,
  ) {}

  get(key: string): string | undefined {
    const hit = this.urls.get(key) ?? this.fromCache(key);
    if (hit && Date.now() - hit.at < this.maxAgeMs) return hit.url;
    this.request(key);
    return hit?.url;
  }

  request(key: string): void {
    if (this.inFlight.has(key) || this.pending.has(key) || this.failed.has(key)) return;
    this.pending.add(key);
    this.timer ??= setTimeout(() => void this.flush(), 16);
  }

  subscribe = (cb: () => void): (() => void) => {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  };

  /** Forget a key (its object was replaced or removed). */
  forget(key: string): void {
    this.urls.delete(key);
    this.failed.delete(key);
  }

  /** A URL for `key` from an earlier batch kept in the query cache, remembered with the time it was fetched. */
  private fromCache(key: string): { url: string; at: number } | undefined {
    if (!this.cache) return undefined;
    for (const query of this.cache.getQueryCache().findAll({ queryKey: [URLS_ROOT] })) {
      const url = (query.state.data as Map<string, string> | undefined)?.get(key);
      if (url) {
        const hit = { url, at: query.state.dataUpdatedAt };
        this.urls.set(key, hit);
        return hit;
      }
    }
    return undefined;
  }

  private async flush(): Promise<void> {
    this.timer = null;
    const keys = [...this.pending];
    this.pending.clear();
    for (let i = 0; i < keys.length; i += this.batchSize) {
      const batch = keys.slice(i, i + this.batchSize);
      batch.forEach((k) => this.inFlight.add(k));
      try {
        const got = this.cache
          ? await this.cache.fetchQuery({ queryKey: [URLS_ROOT, ...batch], queryFn: ({ signal }) => this.files.urls(batch, { signal }), staleTime: 0 })
          : await this.files.urls(batch);
        const at = Date.now();
        for (const k of batch) {
          const url = got.get(k);
          if (url) this.urls.set(k, { url, at });
          else this.failed.add(k);
        }
      } catch {
        // Leave them unrequested: the next render asks again.
      } finally {
        batch.forEach((k) => this.inFlight.delete(k));
      }
      this.listeners.forEach((l) => l());
    }
  }
}
