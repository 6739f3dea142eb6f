// The page bench/s3-bench.mjs loads in headless Chromium: the app's S3 engine (S3Files + SessionSigner) uploads
// the files chosen in the inputs straight to the bucket, timed here, inside the page.
import { S3Files } from '../../src/backend/s3/s3-files';
import { SessionSigner } from '../../src/backend/s3/session-signer';
import { barePut } from '../bare-put';

interface Target {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
}

interface Timed {
  ms: number;
  bytes: number;
  files: number;
}

declare global {
  interface Window {
    benchBig(target: Target, key: string): Promise<Timed>;
    benchMany(target: Target, prefix: string, filesInFlight: number, md5s?: string[]): Promise<Timed>;
    benchBarePut(url: string, asSlice?: boolean): Promise<Timed>;
    benchBareParts(urls: string[], partSize: number, inFlight: number): Promise<Timed & { etags: string[] }>;
    benchBareMany(urls: string[], filesInFlight: number): Promise<Timed>;
  }
}

function engine(t: Target): S3Files {
  const signer = new SessionSigner({
    endpoint: t.endpoint,
    region: t.region,
    bucket: t.bucket,
    credentials: async () => ({ accessKeyId: t.accessKeyId, secretAccessKey: t.secretAccessKey }),
  });
  // The app's default limits (8 MiB parts, 4 in flight, one PUT under 16 MiB) and retry policy.
  return new S3Files({ signer });
}

function chosen(id: string): File[] {
  const input = document.getElementById(id) as HTMLInputElement;
  return [...(input.files ?? [])];
}

/** What the app passes: progress and checkpoint callbacks (kept, not persisted: that is the queue's work). */
function callbacks() {
  let sent = 0;
  let checkpoints = 0;
  return {
    opts: {
      onProgress: (bytes: number) => {
        sent = bytes;
      },
      onCheckpoint: () => {
        checkpoints++;
      },
    },
    result: () => ({ sent, checkpoints }),
  };
}

window.benchBig = async (target, key) => {
  const [file] = chosen('big');
  if (!file) throw new Error('no file chosen');
  const files = engine(target);
  const cb = callbacks();
  const t0 = performance.now();
  const { bytes } = await files.upload({ key, blob: file, contentType: file.type, filename: file.name }, cb.opts);
  const ms = performance.now() - t0;
  if (cb.result().sent !== file.size) throw new Error(`progress ended at ${cb.result().sent} of ${file.size} bytes`);
  return { ms, bytes, files: 1 };
};

/**
 * `md5s`: each file's MD5 given, as the upload queue gives it (taken in the read that takes its SHA-256, in the
 * media worker, before the upload); without them the engine reads and hashes each file itself before its PUT.
 */
window.benchMany = async (target, prefix, filesInFlight, md5s) => {
  const list = chosen('many');
  if (list.length === 0) throw new Error('no files chosen');
  const files = engine(target);
  const queue = list.map((file, i) => ({ file, key: `${prefix}/${String(i).padStart(4, '0')}/original`, md5: md5s?.[i] }));
  let bytes = 0;
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const { file, key, md5 } = next;
      const r = await files.upload({ key, blob: file, contentType: file.type, filename: file.name, ...(md5 ? { contentMd5: md5 } : {}) }, callbacks().opts);
      bytes += r.bytes;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: filesInFlight }, worker));
  return { ms: performance.now() - t0, bytes, files: list.length };
};

/**
 * The browser's own floor: the whole chosen file in one XMLHttpRequest PUT to a URL signed elsewhere, no engine.
 * `asSlice`: the same bytes sent as a Blob (`file.slice()`) rather than as the File itself, as any part is sent.
 */
window.benchBarePut = async (url, asSlice = false) => {
  const [file] = chosen('big');
  if (!file) throw new Error('no file chosen');
  const t0 = performance.now();
  await barePut(url, asSlice ? file.slice() : file);
  return { ms: performance.now() - t0, bytes: file.size, files: 1 };
};

/** The chosen file as bare XMLHttpRequest part PUTs (URLs signed elsewhere), `inFlight` at once: a multipart upload with no engine. */
window.benchBareParts = async (urls, partSize, inFlight) => {
  const [file] = chosen('big');
  if (!file) throw new Error('no file chosen');
  const etags: string[] = [];
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < urls.length; i = next++) etags[i] = await barePut(urls[i]!, file.slice(i * partSize, Math.min(file.size, (i + 1) * partSize)));
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: inFlight }, lane));
  return { ms: performance.now() - t0, bytes: file.size, files: 1, etags };
};

/** The browser's floor for many small files: each chosen file in one bare XMLHttpRequest PUT, URLs signed elsewhere. */
window.benchBareMany = async (urls, filesInFlight) => {
  const list = chosen('many');
  const queue = list.map((file, i) => ({ file, url: urls[i]! }));
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await barePut(next.url, next.file);
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: filesInFlight }, worker));
  return { ms: performance.now() - t0, bytes: list.reduce((sum, f) => sum + f.size, 0), files: list.length };
};

document.body.dataset.ready = 'true';
