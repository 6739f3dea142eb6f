// The page bench/exif-bench.mjs loads in headless Chromium: it starts the worker (exif-worker.ts), where both
// readers run, and relays the benchmark's calls to it.
import type { Request, Response } from './exif-worker';

declare global {
  interface Window {
    exifBenchSetup(base: string, count: number, tails: number): Promise<number>;
    exifBenchRun(contender: Request['contender']): Promise<Response>;
  }
}

const worker = new Worker(new URL('./exif-worker.ts', import.meta.url), { type: 'module' });
let pending: ((r: Response) => void) | null = null;
worker.onmessage = (e: MessageEvent<Response>) => pending?.(e.data);
const ask = (request: Request) =>
  new Promise<Response>((resolve, reject) => {
    pending = (r) => (r.error ? reject(new Error(r.error)) : resolve(r));
    worker.postMessage(request);
  });

window.exifBenchSetup = async (base, count, tails) => {
  const fetchBytes = async (path: string) => new Uint8Array(await (await fetch(`${base}${path}`)).arrayBuffer());
  const heads = await fetchBytes('/heads.bin');
  const index = (await (await fetch(`${base}/heads.json`)).json()) as { offset: number; length: number; tail: number }[];
  const tailBytes = await Promise.all(Array.from({ length: tails }, (_, i) => fetchBytes(`/tail-${i}.bin`)));
  if (index.length !== count) throw new Error('heads.json does not match');
  return (await ask({ kind: 'setup', heads, index, tails: tailBytes })).count!;
};
window.exifBenchRun = (contender) => ask({ kind: 'run', contender });
document.body.dataset.ready = 'true';
