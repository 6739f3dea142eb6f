/**
 * The viewer's text preview of a file stored gzip-compressed shows the file's text (never markup rendered as
 * HTML), and one whose stored bytes inflate past the file's size says the file does not match, at once.
 */
import { gzip } from 'pako';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, expect, test } from 'vitest';
import { BackendContext } from '../../backend/backend-context';
import type { AlbumBackend } from '../../backend/ports';
import type { Item } from '../../domain/entities';
import { errorText } from '../../lib/error-messages';
import { FilePreview } from './file-preview';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
afterEach(() => flushSync(() => root.render(null)));

function item(over: Partial<Item>): Item {
  return {
    id: 'i', albumId: 'a', uploaderId: 'u', kind: 'file', status: 'ready', filename: 'ride.gpx', mime: 'application/xml', bytes: 0, sha256: null,
    width: null, height: null, durationMs: null, takenAt: null, originalKey: 'albums/a/i/original', previewKey: null, thumbKey: null, thumbhash: null,
    metadata: {}, createdAt: '2026-11-27T10:00:00Z', deletedAt: null, ...over,
  };
}

/** A backend whose files port holds exactly one stored object. */
function holding(stored: Uint8Array): AlbumBackend {
  const files: AlbumBackend['files'] = { read: async () => new Blob([stored as Uint8Array<ArrayBuffer>]), urls: async () => new Map() };
  return { files } as unknown as AlbumBackend;
}

function show(backend: AlbumBackend, shown: Item) {
  flushSync(() =>
    root.render(
      <BackendContext.Provider value={{ backend, session: null }}>
        <FilePreview item={shown} url={undefined} />
      </BackendContext.Provider>,
    ),
  );
}

test('a GPX stored compressed previews as its text, markup shown as characters', async () => {
  const gpx = `<?xml version="1.0"?>\n<gpx><trk><name>Coast <b>ride</b></name>${'<trkpt lat="38.69" lon="-9.21"/>\n'.repeat(20_000)}</trk></gpx>\n`;
  const bytes = new TextEncoder().encode(gpx);
  show(holding(gzip(bytes)), item({ bytes: bytes.length, storedEncoding: 'gzip' }));
  const preview = () => host.querySelector('pre[aria-label="Text preview"]');
  await expect.poll(() => preview()?.textContent ?? '', { timeout: 5000 }).toContain('<name>Coast <b>ride</b></name>');
  // Only the head is shown (256 KiB of a larger file), and nothing of it became an element.
  expect(preview()!.textContent!.length).toBeLessThan(bytes.length);
  expect(preview()!.querySelector('b, trk, name')).toBeNull();
});

test('stored bytes that inflate past the file size show the mismatch within 100 ms, and no text', async () => {
  const bomb = gzip(new Uint8Array(64 * 1024 * 1024));
  const t0 = performance.now();
  show(holding(bomb), item({ filename: 'notes.txt', mime: 'text/plain', bytes: 1024, storedEncoding: 'gzip' }));
  const alert = () => host.querySelector('[role="alert"]')?.textContent ?? '';
  await expect.poll(alert, { timeout: 5000, interval: 5 }).toBe(errorText('upload/integrity').title);
  expect(performance.now() - t0).toBeLessThan(100);
  expect(host.querySelector('pre[aria-label="Text preview"]')).toBeNull();
});
