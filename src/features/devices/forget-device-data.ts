/**
 * Deleting what one account left in this browser (see [Note: What the device keeps belongs to one account]):
 * the thumbnails and previews the service worker cached, that account's upload queue and the sidecar writes it
 * still owed, and the shares that reached the inbox while it was signed in.
 */
import { ByteCappedCache } from '../../sw/byte-capped-cache';
import { FORGET_THUMBNAILS, THUMBNAIL_CACHE } from '../../sw/thumbnail-cache';
import { accountSidecarOutbox, SidecarOutbox } from '../../backend/sidecar-outbox';
import { accountUploadDb, DEFAULT_UPLOAD_DB, UploadStore } from '../../upload/upload-store';

/** How long the worker is given to answer before the page goes on without it (an older worker never answers). */
const WORKER_ANSWER_MS = 3_000;
/**
 * A step that takes longer goes on in the background: a queue's deletion waits for its last connection, which
 * a tab that has not yet heard of the sign-out may hold for a moment.
 */
const STEP_MS = 10_000;

function within<T>(ms: number, work: Promise<T>): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, ms, undefined)));
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** The active worker empties its cache, so that the answers its fetches still wait for are not kept either. */
async function askWorkerToForget(): Promise<void> {
  const worker = typeof navigator.serviceWorker === 'undefined' ? null : (await navigator.serviceWorker.getRegistration())?.active;
  if (!worker) return;
  const channel = new MessageChannel();
  const answered = new Promise<void>((resolve) => (channel.port1.onmessage = () => resolve()));
  worker.postMessage({ type: FORGET_THUMBNAILS }, [channel.port2]);
  await within(WORKER_ANSWER_MS, answered);
  channel.port1.close();
}

/** Empties the thumbnail cache, through the worker and from the page too (there may be no worker, or an older one). */
export async function forgetThumbnails(): Promise<void> {
  // Without Cache Storage (an insecure origin) there is no worker either, and nothing was cached.
  if (typeof caches === 'undefined') return;
  await askWorkerToForget().catch(() => undefined);
  const cache = new ByteCappedCache({ cacheName: THUMBNAIL_CACHE });
  try {
    await cache.clear();
  } finally {
    cache.close();
  }
}

async function inInbox(fn: (inbox: UploadStore) => Promise<void>): Promise<void> {
  const inbox = await UploadStore.open(DEFAULT_UPLOAD_DB);
  try {
    await fn(inbox);
  } finally {
    inbox.close();
  }
}

/**
 * Deletes what `userId` left in this browser: the cached thumbnails, their upload queue (its engine stopped
 * first, by UploadEngineProvider) and the shares received until `endedAt` (ISO time; those received after it
 * wait for whoever signs in next). On a backend with accounts the device's upload database holds no queue,
 * only one an older version left there: it goes too. Throws when a step failed, so that it is tried again.
 */
export async function forgetDeviceData(userId: string, endedAt: string): Promise<void> {
  const steps = await Promise.allSettled([
    within(STEP_MS, forgetThumbnails()),
    within(STEP_MS, UploadStore.remove(accountUploadDb(userId))),
    within(STEP_MS, SidecarOutbox.remove(accountSidecarOutbox(userId))),
    within(
      STEP_MS,
      inInbox(async (inbox) => {
        await inbox.deleteSharesUntil(endedAt);
        await inbox.clearTasks();
      }),
    ),
  ]);
  const failed = steps.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * Moves the queue an older version kept in the device's database (before each account had its own) into
 * `userId`'s. Returns how many uploads it held.
 */
export async function adoptDeviceQueue(userId: string): Promise<number> {
  let moved = 0;
  await inInbox(async (device) => {
    const own = await UploadStore.open(accountUploadDb(userId));
    try {
      moved = (await device.moveTasksTo(own)).length;
    } finally {
      own.close();
    }
  });
  return moved;
}
