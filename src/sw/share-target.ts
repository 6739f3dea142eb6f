/**
 * The web share target (the manifest's `share_target`): another app shares files into Shoebox as a POST of
 * `multipart/form-data` to /share-target, which this worker receives. See [Note: Receiving a share].
 */
import { registerRoute } from 'workbox-routing';
import { SHARE_TARGET_PATH, shareTargetUrl } from '../features/share-target/share-target-url';
import { UploadStore, type InboxShare } from '../upload/upload-store';

// [Note: Receiving a share]
// The files go to the upload queue's own database (an inbox of files not yet given an album) and the page
// is sent on with a 303 to /share-target?inbox=<id>, where the user picks the album. Memory: Chromium's
// Request.formData() hands back File objects backed by its blob storage (on disk once large), and storing a
// File in IndexedDB copies it blob to blob; nothing here reads the bytes, so a share of a gigabyte does not
// pass through the worker's memory. Before this worker controls the page the POST goes to the host instead,
// which answers with a redirect to /share-target?missed=1 (README, "Hosting").

/** The files of a share: an app sharing only text may send an empty, nameless file part. */
function sharedFiles(form: FormData): File[] {
  return form.getAll('files').filter((v): v is File => typeof v !== 'string' && !(v.size === 0 && v.name === ''));
}

function text(form: FormData, name: string): string {
  const v = form.get(name);
  return typeof v === 'string' ? v : '';
}

async function receiveShare(request: Request): Promise<Response> {
  let share: InboxShare;
  try {
    const form = await request.formData();
    share = { id: crypto.randomUUID(), createdAt: new Date().toISOString(), files: sharedFiles(form), title: text(form, 'title'), text: text(form, 'text'), url: text(form, 'url') };
  } catch {
    // The body could not be read (the sharing app went away mid-way): nothing arrived.
    return Response.redirect(shareTargetUrl({ missed: true }), 303);
  }
  try {
    const store = await UploadStore.open();
    try {
      await store.putShare(share);
    } finally {
      store.close();
    }
  } catch (e) {
    const quota = e instanceof DOMException && e.name === 'QuotaExceededError';
    return Response.redirect(shareTargetUrl({ failed: quota ? 'quota' : 'storage' }), 303);
  }
  return Response.redirect(shareTargetUrl({ inbox: share.id }), 303);
}

/** Registers the POST route; called before the navigation route, which would otherwise answer first. */
export function registerShareTarget(): void {
  registerRoute(({ url, sameOrigin }) => sameOrigin && url.pathname === SHARE_TARGET_PATH, ({ request }) => receiveShare(request), 'POST');
}
