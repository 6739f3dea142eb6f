/** Edited items' sidecars: merged over what the bucket holds, one write per item at once, the latest edit last. */
import { afterEach, expect, test, vi } from 'vitest';
import type { Item } from '../domain/entities';
import { AppError } from '../lib/app-error';
import { SidecarWriter } from './sidecar-writer';

const item = (id: string, title: string, status: Item['status'] = 'ready', editedAt?: string) =>
  ({ id, albumId: 'a', status, metadata: { title }, takenAt: null, ...(editedAt ? { editedAt } : {}) }) as unknown as Item;

/** A bucket in memory whose reads and writes wait until released, so writes can be caught in flight. */
function bucket(initial: Record<string, string> = {}, failRead?: AppError, failUpload?: () => AppError | null) {
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
        const refused = failUpload?.();
        if (refused) throw refused;
        const text = await req.blob.text();
        log.push(`${req.key} ${req.contentType} ${/<rdf:li xml:lang="x-default">([^<]*)/.exec(text)?.[1] ?? ''}`);
        objects.set(req.key, text);
        return { bytes: req.blob.size };
      },
    },
  };
}

/**
 * Lets the bucket's calls through until every write is settled. Bounded by time, not by turns: the writer loads
 * its XMP module with its first write, which on a busy machine takes far longer than a few turns.
 */
async function drain(b: ReturnType<typeof bucket>, writer: SidecarWriter) {
  let done = false;
  void writer.settled().then(() => (done = true));
  for (const start = Date.now(); !done && Date.now() - start < 10_000; ) {
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

/** An outbox in memory, as sidecar-outbox.ts keeps one in IndexedDB. */
function memoryOutbox() {
  const owed = new Map<string, Item>();
  return {
    owed,
    outbox: {
      keep: async (items: readonly Item[]) => void items.forEach((i) => owed.set(i.id, i)),
      settled: async (i: Item) => void (owed.get(i.id) === i && owed.delete(i.id)),
      owed: async () => [...owed.values()],
      close: () => undefined,
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

test('a write that failed on the way is kept and made good later; one refused for good is given up', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  let offline = true;
  const b = bucket({}, undefined, () => (offline ? new AppError('offline', 'You are offline.') : null));
  const o = memoryOutbox();
  const writer = new SidecarWriter(b.files);
  writer.useOutbox(Promise.resolve(o.outbox));
  writer.write([item('1', 'Tram')]);
  await vi.advanceTimersByTimeAsync(0);
  b.releaseAll();
  await vi.advanceTimersByTimeAsync(0);
  await writer.settled();
  expect(b.objects.size).toBe(0);
  expect([...o.owed.keys()]).toEqual(['1']);

  offline = false;
  await vi.advanceTimersByTimeAsync(15_000);
  b.releaseAll();
  await vi.advanceTimersByTimeAsync(0);
  await writer.settled();
  expect(b.log).toEqual(['albums/a/1/original.xmp application/octet-stream Tram']);
  expect(o.owed.size).toBe(0);

  const refused = bucket({}, undefined, () => new AppError('storage/denied', 'Not yours.'));
  const o2 = memoryOutbox();
  const w2 = new SidecarWriter(refused.files);
  w2.useOutbox(Promise.resolve(o2.outbox));
  w2.write([item('2', 'Boat')]);
  await vi.advanceTimersByTimeAsync(0);
  refused.releaseAll();
  await vi.advanceTimersByTimeAsync(0);
  await w2.settled();
  expect(o2.owed.size).toBe(0);
});

test('what an outbox holds from before is written as soon as it is used', async () => {
  const b = bucket();
  const o = memoryOutbox();
  o.owed.set('7', item('7', 'Left owed'));
  const writer = new SidecarWriter(b.files);
  writer.useOutbox(Promise.resolve(o.outbox));
  await new Promise((r) => setTimeout(r, 1));
  await drain(b, writer);
  expect(b.log).toEqual(['albums/a/7/original.xmp application/octet-stream Left owed']);
  expect(o.owed.size).toBe(0);
});

test('an edit written late does not go over a later one another device wrote first', async () => {
  const later = new TextDecoder().decode(
    (await import('../lib/xmp-sidecar')).mergeXmpSidecar(null, { metadata: { title: 'Later' }, takenAt: null, editedAt: '2026-11-28T10:00:00.000Z' }),
  );
  const b = bucket({ 'albums/a/1/original.xmp': later });
  const writer = new SidecarWriter(b.files);
  writer.write([item('1', 'Earlier', 'ready', '2026-11-28T09:59:00.000Z')]);
  await drain(b, writer);
  expect(b.log).toEqual([]);
  expect(b.objects.get('albums/a/1/original.xmp')).toBe(later);
  writer.write([item('1', 'Latest', 'ready', '2026-11-28T10:01:00.000Z')]);
  await drain(b, writer);
  expect(b.log).toEqual(['albums/a/1/original.xmp application/octet-stream Latest']);
});
