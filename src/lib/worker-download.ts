/**
 * [Note: Downloads served by the service worker]
 * Where a page cannot write a file itself (no File System Access), an archive made in the page is handed
 * to the service worker as a transferable ReadableStream (postMessage with a MessagePort for the answer),
 * then the page opens `/__download/<id>/<name>` and the worker answers that request with the stream as
 * its body, `Content-Length` from the predicted size and `Content-Disposition: attachment`: the browser
 * saves it as a normal download, with real progress, and the bytes flow page → worker → disk without
 * being gathered anywhere. A handed stream is kept for one minute at most and served once.
 */
export const DOWNLOAD_PATH = '/__download/';

export interface WorkerDownloadMessage {
  type: 'shoebox:download';
  id: string;
  filename: string;
  size: number;
  mime: string;
  stream: ReadableStream<Uint8Array>;
}

export function isWorkerDownloadMessage(data: unknown): data is WorkerDownloadMessage {
  if (typeof data !== 'object' || data === null) return false;
  const m = data as Partial<WorkerDownloadMessage>;
  return m.type === 'shoebox:download' && typeof m.id === 'string' && typeof m.filename === 'string' && typeof m.size === 'number' && m.stream instanceof ReadableStream;
}

/** RFC 6266 with RFC 5987's `filename*`, and a plain-ASCII name for clients that ignore it. */
export function attachmentDisposition(filename: string): string {
  const ascii = filename.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_').trim() || 'download';
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
