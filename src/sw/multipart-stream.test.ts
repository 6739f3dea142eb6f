import { describe, expect, it } from 'vitest';
import { boundaryOf, readMultipart, type PartHeaders } from './multipart-stream';

/** The body as a stream cut into pieces of `size` bytes (so delimiters fall across pieces). */
function pieces(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

async function parse(body: Uint8Array, boundary: string, size: number) {
  const parts: { headers: PartHeaders; bytes: Uint8Array }[] = [];
  await readMultipart(pieces(body, size), boundary, async (headers) => {
    const chunks: Uint8Array[] = [];
    return {
      write: async (b) => void chunks.push(b),
      close: async () => void parts.push({ headers, bytes: new Uint8Array(await new Blob(chunks as BlobPart[]).arrayBuffer()) }),
    };
  });
  return parts;
}

describe('Reading a shared multipart body as a stream', () => {
  it('gives back every field and file, byte for byte, however the body is cut', async () => {
    const photo = new Uint8Array(40_000).map((_, i) => (i * 7919) % 256);
    // Bytes that look like the start of a delimiter inside a file.
    const tricky = new TextEncoder().encode('a\r\n--not the boundary\r\n-\r\n--');
    const form = new FormData();
    form.append('title', 'Holiday "2026"');
    form.append('files', new File([photo], 'beach photo.jpg', { type: 'image/jpeg' }));
    form.append('files', new File([tricky], 'notes.txt', { type: 'text/plain' }));
    form.append('files', new File([], 'empty.bin', { type: 'application/octet-stream' }));
    const res = new Response(form);
    const boundary = boundaryOf(res.headers.get('content-type'));
    expect(boundary).toBeTruthy();
    const body = new Uint8Array(await res.arrayBuffer());
    for (const size of [5, 64, 4096, body.length]) {
      const parts = await parse(body, boundary ?? '', size);
      expect(parts.map((p) => [p.headers.name, p.headers.filename, p.headers.type, p.bytes.length])).toEqual([
        ['title', null, '', 14],
        ['files', 'beach photo.jpg', 'image/jpeg', photo.length],
        ['files', 'notes.txt', 'text/plain', tricky.length],
        ['files', 'empty.bin', 'application/octet-stream', 0],
      ]);
      expect(new TextDecoder().decode(parts[0]?.bytes)).toBe('Holiday "2026"');
      expect(parts[1]?.bytes).toEqual(photo);
      expect(parts[2]?.bytes).toEqual(tricky);
    }
  }, 30_000);

  it('refuses a body cut short, rather than keeping half a file as if whole', async () => {
    const form = new FormData();
    form.append('files', new File([new Uint8Array(10_000)], 'cut.jpg', { type: 'image/jpeg' }));
    const res = new Response(form);
    const body = new Uint8Array(await res.arrayBuffer());
    await expect(parse(body.slice(0, 5_000), boundaryOf(res.headers.get('content-type')) ?? '', 1024)).rejects.toThrow();
  });
});
