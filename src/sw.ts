/**
 * The service worker: the app shell precached so Shoebox opens offline, navigations answered with index.html
 * (the SPA routes) except those of src/sw/navigation-denylist.ts, thumbnails and previews kept under a byte
 * cap ([Note: Thumbnails cached under a byte cap]), and the downloads of [Note: Downloads served by the
 * service worker]. A new version waits until the page says it is safe to take over (src/features/app-update).
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { registerShareTarget } from './sw/share-target';
import { attachmentDisposition, DOWNLOAD_PATH, isWorkerDownloadMessage, type WorkerDownloadMessage } from './lib/worker-download';
import { ByteCappedCache } from './sw/byte-capped-cache';
import { isDecoderAsset } from './sw/decoder-assets';
import { NAVIGATION_DENYLIST } from './sw/navigation-denylist';
import { isForgetThumbnails, isThumbnailRequest, THUMBNAIL_CACHE, thumbnailResponse } from './sw/thumbnail-cache';

// This file is type-checked with the page's DOM types; these are the few worker types it uses.
interface ExtendableMessage { data: unknown; ports: readonly MessagePort[]; waitUntil(p: Promise<unknown>): void }
interface ServiceWorkerScope {
  __WB_MANIFEST: Parameters<typeof precacheAndRoute>[0];
  skipWaiting(): Promise<void>;
  addEventListener(type: 'message', listener: (event: ExtendableMessage) => void): void;
}
const sw = globalThis as unknown as ServiceWorkerScope;

// A first install takes control of the open pages at once (downloads need a controller). A new version waits:
// the page posts SKIP_WAITING when no upload runs and no typed text would be lost.
clientsClaim();
cleanupOutdatedCaches();

function isSkipWaiting(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'SKIP_WAITING';
}

const thumbnails = new ByteCappedCache({ cacheName: THUMBNAIL_CACHE });

const waiting = new Map<string, { message: WorkerDownloadMessage; timer: ReturnType<typeof setTimeout> }>();

sw.addEventListener('message', (event) => {
  if (isSkipWaiting(event.data)) {
    event.waitUntil(sw.skipWaiting());
    return;
  }
  if (isForgetThumbnails(event.data)) {
    // Signed out: what the last person saw goes, and so do the answers to their requests still on the way.
    const port = event.ports[0];
    event.waitUntil(thumbnails.clear().then(() => port?.postMessage({ done: true }), (e: unknown) => port?.postMessage({ done: false, error: String(e) })));
    return;
  }
  if (!isWorkerDownloadMessage(event.data)) return;
  const message = event.data;
  const timer = setTimeout(() => {
    waiting.delete(message.id);
    void message.stream.cancel('not collected');
  }, 60_000);
  waiting.set(message.id, { message, timer });
  event.ports[0]?.postMessage({ ready: message.id });
});

// Registered before the navigation fallback: a download is opened like a page, and the first matching route answers.
registerRoute(
  ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith(DOWNLOAD_PATH),
  async ({ url }) => {
    const id = decodeURIComponent(url.pathname.slice(DOWNLOAD_PATH.length).split('/')[0] ?? '');
    const found = waiting.get(id);
    if (!found) return new Response('This download has ended. Start it again from the album.', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
    waiting.delete(id);
    clearTimeout(found.timer);
    const { stream, size, filename, mime } = found.message;
    return new Response(stream, {
      headers: {
        'Content-Type': mime,
        'Content-Length': String(size),
        'Content-Disposition': attachmentDisposition(filename),
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'no-store',
      },
    });
  },
);

registerShareTarget();
// Written as `self.__WB_MANIFEST` for the build to find and fill in with the precache list.
precacheAndRoute((self as unknown as ServiceWorkerScope).__WB_MANIFEST);
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: NAVIGATION_DENYLIST }));

// The late decoders (HEIF, JPEG XL, TIFF: scripts and WebAssembly) are not precached: fetched when the first such
// photo is met, then kept for offline use ([Note: Pictures the browser cannot decode] in src/media/heif-decode.ts).
// Names carry a hash, so a cached file is never stale.
registerRoute(({ url, sameOrigin }) => sameOrigin && isDecoderAsset(url.pathname), new CacheFirst({ cacheName: 'shoebox-decoders' }));

registerRoute(
  ({ request, url }) => isThumbnailRequest(request, url, self.location.origin),
  ({ request, event }) => thumbnailResponse(thumbnails, request, (p) => event.waitUntil(p)),
);
