// The page the import benchmarks (bench/import-bench.mjs, bench/import-s3.bench.ts) load in headless Chromium for
// the import's baselines, over the same photos the app is given: the media pipeline alone (the app's media client,
// as many files at once as the upload queue runs), bare writes of the same bytes to the origin's private file
// system (what the local backend's uploads come down to), and bare XMLHttpRequest PUTs of them to a bucket.
import { DEFAULT_LIMITS } from '../../src/config';
import { processMedia } from '../../src/media/media-client';
import { sniffType } from '../../src/media/sniff-type';
import { barePut } from '../bare-put';

declare global {
  interface Window {
    benchPipeline(): Promise<{ ms: number; made: number }>;
    benchWrite(): Promise<{ ms: number; bytes: number }>;
    /** Each chosen file in one PUT to `urls[i]` (presigned elsewhere), as many at once as the upload queue runs. */
    benchPut(urls: string[]): Promise<{ ms: number; bytes: number }>;
  }
}

const files = () => [...((document.getElementById('files') as HTMLInputElement).files ?? [])];

/** Runs `work` over every file, `lanes` at a time, in order. */
async function inLanes(all: File[], lanes: number, work: (f: File) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < all.length) await work(all[next++]!);
    }),
  );
}

window.benchPipeline = async () => {
  let made = 0;
  const t0 = performance.now();
  await inLanes(files(), DEFAULT_LIMITS.filesInFlight, async (f) => {
    const media = await processMedia(f, await sniffType(f));
    if (media.preview && media.thumb) made++;
  });
  return { ms: performance.now() - t0, made };
};

window.benchWrite = async () => {
  const root = await navigator.storage.getDirectory();
  const dir = await root.getDirectoryHandle('bench', { create: true });
  let bytes = 0;
  const t0 = performance.now();
  await inLanes(files(), DEFAULT_LIMITS.filesInFlight, async (f) => {
    const handle = await dir.getFileHandle(f.name, { create: true });
    await f.stream().pipeTo(await handle.createWritable());
    bytes += f.size;
  });
  const ms = performance.now() - t0;
  await root.removeEntry('bench', { recursive: true });
  return { ms, bytes };
};

window.benchPut = async (urls) => {
  const all = files();
  if (urls.length !== all.length) throw new Error(`${urls.length} URLs for ${all.length} files`);
  const url = new Map(all.map((f, i) => [f, urls[i]!]));
  let bytes = 0;
  const t0 = performance.now();
  await inLanes(all, DEFAULT_LIMITS.filesInFlight, (f) =>
    barePut(url.get(f)!, f).then(() => void (bytes += f.size)),
  );
  return { ms: performance.now() - t0, bytes };
};

document.body.dataset.ready = 'true';
