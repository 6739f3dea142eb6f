import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isAbortError } from '../lib/app-error';
import { fileDigests, WHOLE_READ_MAX_BYTES } from './file-digests';

const sha256Hex = async (blob: Blob, opts?: Parameters<typeof fileDigests>[1]) => (await fileDigests(blob, opts)).sha256;

function pseudoRandomBytes(length: number, seed = 7): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

describe('fileDigests', () => {
  it('matches the known digests of the empty string and "abc"', async () => {
    expect(await sha256Hex(new Blob([]))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(await sha256Hex(new Blob(['abc']))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('hashes a file too large to read whole in several slices, exactly like a one-shot hash, reporting progress per slice', async () => {
    const data = pseudoRandomBytes(WHOLE_READ_MAX_BYTES + 9 * 1024 * 1024 + 123);
    const progress: number[] = [];
    const hex = await sha256Hex(new Blob([data as BlobPart]), { onProgress: (b) => progress.push(b) });
    expect(hex).toBe(createHash('sha256').update(data).digest('hex'));
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress.at(-1)).toBe(data.length);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });

  /** `blob`, counting the bytes read from it, whether slice by slice or whole. */
  function counted(blob: Blob): { blob: Blob; read: () => number } {
    let reads = 0;
    const proxy = new Proxy(blob, {
      get(target, prop) {
        if (prop === 'slice') {
          return (start?: number, end?: number) => {
            reads += Math.min(end ?? target.size, target.size) - (start ?? 0);
            return target.slice(start, end);
          };
        }
        if (prop === 'arrayBuffer') {
          reads += target.size;
          return () => target.arrayBuffer();
        }
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    return { blob: proxy, read: () => reads };
  }

  it.each([
    ['a camera photo, read whole', 7 * 1024 * 1024 + 17],
    ['a video, read slice by slice', WHOLE_READ_MAX_BYTES + 5 * 1024 * 1024 + 17],
  ])('gives the MD5 as Content-MD5 has it, when asked, from the same single read: %s', async (_, size) => {
    const data = pseudoRandomBytes(size);
    const file = counted(new Blob([data as BlobPart]));
    const progress: number[] = [];
    expect(await fileDigests(file.blob, { md5: true, onProgress: (b) => progress.push(b) })).toEqual({
      sha256: createHash('sha256').update(data).digest('hex'),
      md5: createHash('md5').update(data).digest('base64'),
    });
    expect(file.read()).toBe(data.length);
    expect(progress.at(-1)).toBe(data.length);
    expect((await fileDigests(new Blob(['abc']))).md5).toBeNull();
  });

  it('never reads a file larger than a photo whole', async () => {
    const blob = new Blob([pseudoRandomBytes(WHOLE_READ_MAX_BYTES + 12 * 1024 * 1024) as BlobPart]);
    let largest = 0;
    const spy = new Proxy(blob, {
      get(target, prop) {
        if (prop === 'slice') {
          return (start?: number, end?: number) => {
            const part = target.slice(start, end);
            largest = Math.max(largest, part.size);
            return part;
          };
        }
        if (prop === 'arrayBuffer' || prop === 'bytes' || prop === 'stream') throw new Error('read the whole file');
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    await sha256Hex(spy);
    expect(largest).toBeGreaterThan(0);
    expect(largest).toBeLessThanOrEqual(8 * 1024 * 1024);
  });

  it('stops with an AbortError when aborted part-way', async () => {
    const controller = new AbortController();
    const blob = new Blob([pseudoRandomBytes(WHOLE_READ_MAX_BYTES + 16 * 1024 * 1024) as BlobPart]);
    const seen: number[] = [];
    const run = sha256Hex(blob, {
      signal: controller.signal,
      onProgress: (b) => {
        seen.push(b);
        controller.abort();
      },
    });
    const error = await run.then(() => null, (e: unknown) => e);
    expect(isAbortError(error)).toBe(true);
    expect(seen).toHaveLength(1);
  });
});
