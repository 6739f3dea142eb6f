/** Edited items' sidecars: merged over what the bucket holds, one write per item at once, the latest edit last. */
import { expect, test } from 'vitest';
import type { Item } from '../domain/entities';
import { AppError } from '../lib/app-error';
import { SidecarWriter } from './sidecar-writer';

const item = (id: string, title: string, status: Item['status'] = 'ready') =>
  ({ id, albumId: 'a', status, metadata: { title }, takenAt: null }) as unknown as Item;

/** A bucket in memory whose reads and writes wait until released, so writes can be caught in flight. */
function bucket(initial: Record<string, string> = {}, failRead?: AppError) {
  const objects = new Map(Object.entries(initial));
  const log: string[] = [];
  let release: (() => void)[] = [];
  const gate = () => new Promise<void>((r) => release.push(r));
  return {
    objects,
    log,
    releaseAll: () => {
      const r = release;
      release = [];
      r.forEach((f) => f());
    },
    files: {
      async read(key: string) {
        await gate();
        if (failRead) throw failRead;
        const text = objects.get(key);
        if (text === undefined) throw new AppError('item/not-found', 'gone');
        return new Blob([text]);
      },
      async upload(req: { key: string; blob: Blob; contentType: string }) {
        const text = await req.blob.text();
        log.push(`${req.key} ${req.contentType} ${/<rdf:li xml:lang="x-default">([^<]*)/.exec(text)?.[1] ?? ''}`);
        objects.set(req.key, text);
        return { bytes: req.blob.size };
      },
    },
  };
}

async function drain(b: ReturnType<typeof bucket>, writer: SidecarWriter) {
  let done = false;
  void writer.settled().then(() => (done = true));
  for (let i = 0; i < 50 && !done; i++) {
    b.releaseAll();
    await new Promise((r) => setTimeout(r, 1));
  }
  expect(done).toBe(true);
}

test('each edited item gets its sidecar once, the latest edit winning, and an edit during a write is written after it', async () => {
  const b = bucket();
  const writer = new SidecarWriter(b.files);
  writer.write([item('1', 'first'), item('2', 'two'), item('3', 'not yet', 'uploading')]);
  writer.write([item('1', 'second')]);
  await drain(b, writer);
  // Item 1 was already being written when its second edit came: written again after, never before.
  expect(b.log).toEqual([
    'albums/a/1/original.xmp application/octet-stream first',
    'albums/a/2/original.xmp application/octet-stream two',
    'albums/a/1/original.xmp application/octet-stream second',
  ]);
});

test('what the stored sidecar keeps is merged with the edit', async () => {
  const b = bucket({
    'albums/a/1/original.xmp':
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/" crs:Exposure2012="+0.35"/></rdf:RDF></x:xmpmeta>',
  });
  const writer = new SidecarWriter(b.files);
  writer.write([item('1', 'Tram')]);
  await drain(b, writer);
  const stored = b.objects.get('albums/a/1/original.xmp')!;
  expect(stored).toContain('crs:Exposure2012="+0.35"');
  expect(stored).toContain('>Tram</rdf:li>');
});

test('a sidecar that could not be read is not written over', async () => {
  const b = bucket({ 'albums/a/1/original.xmp': '<kept/>' }, new AppError('backend/unreachable', 'offline', { retryable: true }));
  const writer = new SidecarWriter(b.files);
  writer.write([item('1', 'Tram')]);
  await drain(b, writer);
  expect(b.log).toEqual([]);
  expect(b.objects.get('albums/a/1/original.xmp')).toBe('<kept/>');
});
