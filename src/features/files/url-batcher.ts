import type { FilesPort } from '../../backend/ports';

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
    private readonly files: FilesPort,
    private readonly maxAgeMs = 45 * 60_000,
    private readonly batchSize = 200,
  ) {}

  get(key: string): string | undefined {
    const hit = this.urls.get(key);
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

  private async flush(): Promise<void> {
    this.timer = null;
    const keys = [...this.pending];
    this.pending.clear();
    for (let i = 0; i < keys.length; i += this.batchSize) {
      const batch = keys.slice(i, i + this.batchSize);
      batch.forEach((k) => this.inFlight.add(k));
      try {
        const got = await this.files.urls(batch);
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
