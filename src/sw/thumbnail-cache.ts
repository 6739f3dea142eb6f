import { ByteCappedCache, isCacheableResponse } from './byte-capped-cache';

/** The Cache Storage cache of thumbnails and previews; its index is the IndexedDB database `<name>-index`. */
export const THUMBNAIL_CACHE = 'shoebox-thumbnails';

/** What the page posts to the worker at sign-out: the worker empties the cache and answers on the port given. */
export const FORGET_THUMBNAILS = 'FORGET_THUMBNAILS';

export function isForgetThumbnails(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === FORGET_THUMBNAILS;
}

/** Thumbnails, previews and video posters (objectKeys in src/backend/ports.ts), wherever the bucket is. */
const CACHED_OBJECT = /\/albums\/[^/]+\/[^/]+\/(?:thumb|preview|poster)\.webp$/;

export function isThumbnailRequest(request: Request, url: URL, ownOrigin: string): boolean {
  return request.method === 'GET' && url.origin !== ownOrigin && CACHED_OBJECT.test(url.pathname);
}

/**
 * Cache first, by object (see [Note: Thumbnails cached under a byte cap]). A tile's <img> asks without CORS,
 * which would give an opaque answer; the worker asks the bucket with CORS instead (the bucket allows the app's
 * origin, as uploads need) so that the answer is readable, countable and cacheable, and only if that fails
 * passes the page's own request through, uncached.
 */
export async function thumbnailResponse(cache: ByteCappedCache, request: Request, keep: (p: Promise<unknown>) => void): Promise<Response> {
  // Asked for now: should the person sign out before the answer comes, it is not kept.
  const asked = cache.mark();
  const hit = await cache.match(request.url).catch(() => undefined);
  if (hit) return hit;
  let answer: Response;
  try {
    answer = await fetch(request.url, { mode: 'cors', credentials: 'omit', signal: request.signal });
  } catch {
    return fetch(request);
  }
  if (isCacheableResponse(answer)) keep(cache.put(request.url, answer.clone(), asked).catch(() => false));
  return answer;
}
