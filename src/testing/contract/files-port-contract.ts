/**
 * The FilesPort contract: objects go up whole, come back byte for byte, can be shown through URLs, and
 * go away when removed or canceled. Keys come from reserved items, as in the app.
 */
import { describe, expect, it } from 'vitest';
import type { Backend } from '../../backend/ports';
import { expectAbortError, expectAppError, reserveInput } from './contract-fixtures';

/** Deterministic bytes, so a mix-up of chunks or objects shows. */
function sampleBytes(size: number, seed: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  let x = seed | 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

/** SHA-256 of the bytes, in hex: equal contents give equal strings, and a failure prints briefly. */
async function digestOf(data: Blob | Uint8Array<ArrayBuffer>): Promise<string> {
  const buffer = data instanceof Blob ? await data.arrayBuffer() : data;
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', buffer));
  return Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('');
}

async function reservedKeys(b: Backend): Promise<{ albumId: string; original: string; thumb: string }> {
  const album = await b.albums.createAlbum({ title: 'Files' });
  const [item] = await b.itemWrites.reserveItems(album.id, [reserveInput()]);
  return { albumId: album.id, original: item!.originalKey, thumb: item!.originalKey.replace(/original$/, 'thumb.webp') };
}

/**
 * What urls() gives for a key with no object. 'omitted': the key is left out (the local backend, and
 * Supabase Storage's batch signing, look the objects up). 'answer-404': every key gets a URL, because the
 * URL is presigned locally without asking the bucket; fetching it answers 404 and the UI shows a placeholder.
 */
export type MissingObjectUrls = 'omitted' | 'answer-404';

export interface FilesPortContractOptions {
  missingObjectUrls?: MissingObjectUrls;
}

/**
 * Keys that hold no object show a user nothing: no URL at all, or URLs (including `stale` ones given out
 * while the objects existed) that answer 404, never the old bytes.
 */
async function expectNothingAt(b: Backend, keys: string[], missing: MissingObjectUrls, stale?: Map<string, string>): Promise<void> {
  const urls = await b.files.urls(keys);
  if (missing === 'omitted') {
    expect(urls.size).toBe(0);
    return;
  }
  expect([...urls.keys()]).toEqual(keys);
  for (const url of [...urls.values(), ...(stale?.values() ?? [])]) expect((await fetch(url)).status).toBe(404);
}

export function describeFilesPortContract(
  name: string,
  makeBackend: () => Promise<Backend> | Backend,
  { missingObjectUrls: missing = 'omitted' }: FilesPortContractOptions = {},
): void {
  describe(`FilesPort contract: ${name}`, () => {
    it('stores an object whole and reads it back byte for byte, reporting progress up to its size', async () => {
      const b = await makeBackend();
      const { original } = await reservedKeys(b);
      const bytes = sampleBytes(3 * 1024 * 1024 + 17, 7);
      const progress: number[] = [];
      const result = await b.files.upload(
        { key: original, blob: new Blob([bytes], { type: 'image/jpeg' }), contentType: 'image/jpeg', filename: 'a.jpg' },
        { onProgress: (sent) => progress.push(sent) },
      );
      expect(result.bytes).toBe(bytes.length);
      expect(progress.length).toBeGreaterThan(0);
      expect(progress[progress.length - 1]).toBe(bytes.length);
      for (let i = 1; i < progress.length; i++) expect(progress[i]!).toBeGreaterThanOrEqual(progress[i - 1]!);
      expect(await digestOf(await b.files.read(original))).toBe(await digestOf(bytes));
    });

    it('replaces an object uploaded again under the same key', async () => {
      const b = await makeBackend();
      const { thumb } = await reservedKeys(b);
      await b.files.upload({ key: thumb, blob: new Blob([sampleBytes(5000, 1)]), contentType: 'image/webp' });
      expect((await b.files.urls([thumb])).get(thumb)).toBeDefined();
      const second = sampleBytes(2000, 2);
      await b.files.upload({ key: thumb, blob: new Blob([second]), contentType: 'image/webp' });
      expect(await digestOf(await b.files.read(thumb))).toBe(await digestOf(second));
      const after = (await b.files.urls([thumb])).get(thumb);
      expect(after).toBeDefined();
      expect(await digestOf(await (await fetch(after!)).blob())).toBe(await digestOf(second));
    });

    it('gives URLs for many objects in one call, leaving out the ones it cannot serve', async () => {
      const b = await makeBackend();
      const { original, thumb } = await reservedKeys(b);
      const bytes = sampleBytes(1234, 3);
      await b.files.upload({ key: thumb, blob: new Blob([bytes]), contentType: 'image/webp' });
      const urls = await b.files.urls([thumb, original, thumb]);
      expect([...urls.keys()]).toEqual(missing === 'omitted' ? [thumb] : [thumb, original]);
      if (missing === 'answer-404') expect((await fetch(urls.get(original)!)).status).toBe(404);
      const response = await fetch(urls.get(thumb)!);
      expect(await digestOf(await response.blob())).toBe(await digestOf(bytes));
    });

    it('removes objects: they can no longer be read or linked', async () => {
      const b = await makeBackend();
      const { original, thumb } = await reservedKeys(b);
      await b.files.upload({ key: original, blob: new Blob([sampleBytes(100, 4)]), contentType: 'image/jpeg' });
      await b.files.upload({ key: thumb, blob: new Blob([sampleBytes(100, 5)]), contentType: 'image/webp' });
      // Under 'answer-404', URLs handed out before the removal (thumbnails still on screen) must answer 404 too.
      const before = await b.files.urls([original, thumb]);
      await b.files.remove([original, thumb]);
      await b.files.remove([original]);
      await expectNothingAt(b, [original, thumb], missing, before);
      await expectAppError(b.files.read(original), 'item/not-found');
    });

    it('stops an upload when its signal fires and leaves no object behind', async () => {
      const b = await makeBackend();
      const { original, thumb } = await reservedKeys(b);
      const controller = new AbortController();
      const upload = b.files.upload(
        { key: original, blob: new Blob([sampleBytes(6 * 1024 * 1024, 6)]), contentType: 'image/jpeg' },
        { signal: controller.signal, onProgress: () => controller.abort() },
      );
      await expectAbortError(upload);
      await b.files.abortUpload(original, undefined);
      await expectNothingAt(b, [original], missing);
      await expectAppError(b.files.read(original), 'item/not-found');

      await expectAbortError(b.files.upload({ key: thumb, blob: new Blob(['x']), contentType: 'image/webp' }, { signal: AbortSignal.abort() }));
      await expectNothingAt(b, [thumb], missing);
    });
  });
}
