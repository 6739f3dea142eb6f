import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isAbortError } from '../lib/app-error';
import { fileDigests } from './file-digests';

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

  it('hashes a file of several slices exactly like a one-shot hash, reporting progress per slice', async () => {
    const data = pseudoRandomBytes(9 * 1024 * 1024 + 123);
    const progress: number[] = [];
    const hex = await sha256Hex(new Blob([data as BlobPart]), { onProgress: (b) => progress.push(b) });
    expect(hex).toBe(createHash('sha256').update(data).digest('hex'));
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress.at(-1)).toBe(data.length);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });

  it('gives the MD5 as Content-MD5 has it, when asked, from the same single read', async () => {
    const data = pseudoRandomBytes(5 * 1024 * 1024 + 17);
    let reads = 0;
    const blob = new Blob([data as BlobPart]);
    const counted = new Proxy(blob, {
      get(target, prop) {
        if (prop === 'slice') {
          return (start?: number, end?: number) => {
            reads += (end ?? target.size) - (start ?? 0);
            return target.slice(start, end);
          };
        }
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    expect(await fileDigests(counted, { md5: true })).toEqual({
      sha256: createHash('sha256').update(data).digest('hex'),
      md5: createHash('md5').update(data).digest('base64'),
    });
    expect(reads).toBe(data.length);
    expect((await fileDigests(new Blob(['abc']))).md5).toBeNull();
  });

  it('never reads the whole file at once', async () => {
    const blob = new Blob([pseudoRandomBytes(12 * 1024 * 1024) as BlobPart]);
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
    const blob = new Blob([pseudoRandomBytes(16 * 1024 * 1024) as BlobPart]);
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
