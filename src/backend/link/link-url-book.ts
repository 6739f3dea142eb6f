import { parseSharedKey, sharedKey } from './link-object-keys';
import type { SharedVariant } from '../link-types';

/** A URL is asked for again this long before it stops working, so a tile never shows a broken image. */
export const URL_REFRESH_MARGIN_MS = 5 * 60_000;

/** What a lookup could not answer from the book: the item ids to ask `share-open` for again, per variant. */
export type UrlRefresh = Partial<Record<SharedVariant, string[]>>;

/**
 * The URLs a link's pages carried, each with when it stops working (the page's `expiresAt`). Keys are the
 * opaque ones of share-object-keys.ts. Pure bookkeeping: the adapter decides when to call the function.
 */
export class LinkUrlBook {
  private readonly urls = new Map<string, { url: string; expiresAt: number }>();

  /** Keeps `url` as the key's until `expiresAt` (ms since the epoch); a null url records nothing. */
  record(itemId: string, variant: SharedVariant, url: string | null, expiresAt: number): void {
    if (!url) return;
    this.urls.set(sharedKey(itemId, variant), { url, expiresAt });
  }

  /**
   * The keys' URLs that still have more than the margin to live, and, for the others, which item ids to
   * refresh by variant. Keys that are not the visitor's own are neither found nor refreshed.
   */
  lookup(keys: readonly string[], now: number): { found: Map<string, string>; refresh: UrlRefresh } {
    const found = new Map<string, string>();
    const refresh: UrlRefresh = {};
    for (const key of keys) {
      const parsed = parseSharedKey(key);
      if (!parsed) continue;
      const hit = this.urls.get(key);
      if (hit && hit.expiresAt - now > URL_REFRESH_MARGIN_MS) {
        found.set(key, hit.url);
        continue;
      }
      const ids = (refresh[parsed.variant] ??= []);
      if (!ids.includes(parsed.itemId)) ids.push(parsed.itemId);
    }
    return { found, refresh };
  }

  /** The earliest time any recorded URL stops working (for tests and for the page's own refresh). */
  earliestExpiry(): number | null {
    let min: number | null = null;
    for (const { expiresAt } of this.urls.values()) if (min === null || expiresAt < min) min = expiresAt;
    return min;
  }
}
