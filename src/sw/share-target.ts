/**
 * The web share target (the manifest's `share_target`): another app shares files into Shoebox as a POST of
 * `multipart/form-data` to /share-target, which this worker receives. See [Note: Receiving a share].
 */
import { registerRoute } from 'workbox-routing';
import { boundaryOf, readMultipart, type PartSink } from './multipart-stream';
import { SHARE_TARGET_PATH, shareTargetUrl } from '../lib/share-inbox-url';
import { UploadStore, type InboxShare } from '../upload/upload-store';

// [Note: Receiving a share]
// The files go to the upload queue's own database (an inbox of files not yet given an album) and the page
// is sent on with a 303 to /share-target?inbox=<id>, where the user picks the album.
// Memory: Request.formData() would hand back Files held in Chromium's blob memory, which pages to disk only
// past its limit (2 GB on 64-bit desktops, a hundredth of the RAM on Android): a 1 GB share took the browser
// process from 214 MB to 1.3 GB (scripts/measure-share-memory.mjs). So the body is read as a stream instead
// and each file written as it arrives to a scratch file in the origin private file system; the File read
// back from there is backed by that file, IndexedDB copies it disk to disk, and the scratch files go. The
// same 1 GB share then stays within a few tens of MB in every process. Where the origin private file system
// is missing, formData() is the way left. Before this worker controls the page the POST goes to the host
// instead, which answers with a redirect to /share-target?missed=1 (README, "Hosting").

// [Note: Scratch of a share cut short]
// The browser may stop the worker in the middle of a share (it stops idle or long-running workers, and a
// closed browser stops them all); the `finally` that removes the scratch directory then never runs, and its
// partial files would stay on the device for good. The inbox itself never holds half a share: the record is
// written in one IndexedDB put, after the whole body was read. So each share holds a Web Lock named after its
// scratch directory while it runs (the browser lets go of a stopped worker's locks), and every worker start
// and every new share removes the scratch directories whose lock nobody holds: leftovers of a stopped worker,
// never a share still being received, even by an older version of the worker that still runs.

type Fields = Pick<InboxShare, 'title' | 'text' | 'url'>;
const SCRATCH_PREFIX = 'share-';
/** Only this worker's scratch directories: the local backend keeps its files in the same file system. */
const SCRATCH_NAME = /^share-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const scratchLock = (scratchName: string) => `shoebox:${scratchName}`;
/** The DOM types this project builds with leave out a directory's async iteration. */
interface ListableDirectoryHandle extends FileSystemDirectoryHandle {
  keys(): AsyncIterableIterator<string>;
}
const FIELD_NAMES = new Set(['title', 'text', 'url']);
/** A shared title, text or link longer than this is cut: it is shown, never uploaded. */
const MAX_FIELD_BYTES = 64 * 1024;

/** An app sharing only text may send an empty, nameless file part: it is no file. */
const isNoFile = (name: string, size: number) => name === '' && size === 0;

async function receiveWithFormData(request: Request): Promise<{ files: File[]; fields: Fields }> {
  const form = await request.formData();
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === 'string' ? v : '';
  };
  const files = form.getAll('files').filter((v): v is File => typeof v !== 'string' && !isNoFile(v.name, v.size));
  return { files, fields: { title: text('title'), text: text('text'), url: text('url') } };
}

async function receiveStreamed(body: ReadableStream<Uint8Array>, boundary: string, scratch: FileSystemDirectoryHandle): Promise<{ files: File[]; fields: Fields }> {
  const files: File[] = [];
  const fields: Fields = { title: '', text: '', url: '' };
  let n = 0;
  await readMultipart(body, boundary, async (part): Promise<PartSink> => {
    if (part.name === 'files' && part.filename !== null) {
      const filename = part.filename;
      const handle = await scratch.getFileHandle(String(n++), { create: true });
      const writable = await handle.createWritable();
      return {
        write: (bytes) => writable.write(bytes as Uint8Array<ArrayBuffer>),
        close: async () => {
          await writable.close();
          const stored = await handle.getFile();
          // A Blob made of another refers to its bytes: the new File is still the scratch file on disk.
          if (!isNoFile(filename, stored.size)) files.push(new File([stored], filename, { type: part.type, lastModified: Date.now() }));
        },
      };
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    return {
      write: async (bytes) => {
        if (size >= MAX_FIELD_BYTES) return;
        chunks.push(bytes);
        size += bytes.length;
      },
      close: async () => {
        if (!FIELD_NAMES.has(part.name)) return;
        const value = new TextDecoder().decode(await new Blob(chunks as BlobPart[]).arrayBuffer()).slice(0, MAX_FIELD_BYTES);
        fields[part.name as keyof Fields] = value;
      },
    };
  });
  return { files, fields };
}

async function keep(share: InboxShare): Promise<void> {
  const store = await UploadStore.open();
  try {
    await store.putShare(share);
  } finally {
    store.close();
  }
}

async function scratchRoot(): Promise<FileSystemDirectoryHandle | null> {
  return typeof navigator.storage?.getDirectory === 'function' ? await navigator.storage.getDirectory().catch(() => null) : null;
}

/** Removes the scratch directories no running share holds; see [Note: Scratch of a share cut short]. */
export async function sweepScratch(): Promise<void> {
  const root = await scratchRoot();
  if (!root || !navigator.locks) return;
  const names: string[] = [];
  for await (const name of (root as ListableDirectoryHandle).keys()) if (SCRATCH_NAME.test(name)) names.push(name);
  for (const name of names) {
    await navigator.locks.request(scratchLock(name), { ifAvailable: true }, async (lock) => {
      if (lock) await root.removeEntry(name, { recursive: true }).catch(() => undefined);
    });
  }
}

async function receiveShare(request: Request): Promise<Response> {
  const id = crypto.randomUUID();
  const scratchName = `${SCRATCH_PREFIX}${id}`;
  await sweepScratch().catch(() => undefined);
  // Held for the whole share, so that no sweep takes this share's scratch for a leftover.
  if (!navigator.locks) return receiveShareInto(request, id, scratchName);
  return navigator.locks.request(scratchLock(scratchName), () => receiveShareInto(request, id, scratchName));
}

async function receiveShareInto(request: Request, id: string, scratchName: string): Promise<Response> {
  const boundary = boundaryOf(request.headers.get('Content-Type'));
  const root = await scratchRoot();
  try {
    let received: { files: File[]; fields: Fields };
    try {
      received =
        root && boundary && request.body
          ? await receiveStreamed(request.body, boundary, await root.getDirectoryHandle(scratchName, { create: true }))
          : await receiveWithFormData(request);
    } catch (e) {
      if (e instanceof DOMException && e.name === 'QuotaExceededError') return Response.redirect(shareTargetUrl({ failed: 'quota' }), 303);
      // The body could not be read (the sharing app went away mid-way): nothing arrived.
      return Response.redirect(shareTargetUrl({ missed: true }), 303);
    }
    try {
      const fileIds = received.files.map(() => crypto.randomUUID());
      await keep({ id, createdAt: new Date().toISOString(), files: received.files, fileIds, ...received.fields });
    } catch (e) {
      const quota = e instanceof DOMException && e.name === 'QuotaExceededError';
      return Response.redirect(shareTargetUrl({ failed: quota ? 'quota' : 'storage' }), 303);
    }
    return Response.redirect(shareTargetUrl({ inbox: id }), 303);
  } finally {
    // IndexedDB has its own copies once the share is kept; failed or not, the scratch files go.
    await root?.removeEntry(scratchName, { recursive: true }).catch(() => undefined);
  }
}

/** Registers the POST route; called before the navigation route, which would otherwise answer first. */
export function registerShareTarget(): void {
  // At every start of the worker: what a worker stopped mid-share left behind goes.
  void sweepScratch().catch(() => undefined);
  registerRoute(({ url, sameOrigin }) => sameOrigin && url.pathname === SHARE_TARGET_PATH, ({ request }) => receiveShare(request), 'POST');
}
