/**
 * Text files stored compressed, end to end on the local backend: a CSV added through the app is stored
 * gzip-compressed (what the files store holds in OPFS is smaller, and is gzip), its text preview shows the
 * text, "Download original" saves the very bytes that were added, and so does the album's ZIP (streamed
 * through the service worker, its length announced before the first byte).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './csp-test';
import { addFiles, createAlbum, expectItemCount, tile } from './helpers';

const csv = Buffer.from(
  ['date,station,temperature,humidity', ...Array.from({ length: 30_000 }, (_, i) => `2026-11-${String((i % 28) + 1).padStart(2, '0')},Station ${i % 41},${(12 + ((i * 37) % 150) / 10).toFixed(1)},${40 + ((i * 7) % 55)}`)].join('\n') + '\n',
);

/** Every file the app keeps in OPFS under an album's folder: path and size, and its first two bytes. */
function storedOriginals(page: Page, albumId: string): Promise<{ path: string; size: number; head: number[] }[]> {
  return page.evaluate(async (album) => {
    type Dir = FileSystemDirectoryHandle & { entries(): AsyncIterable<[string, FileSystemHandle]> };
    const found: { path: string; size: number; head: number[] }[] = [];
    const walk = async (dir: Dir, path: string): Promise<void> => {
      for await (const [name, handle] of dir.entries()) {
        const here = `${path}/${name}`;
        if (handle.kind === 'directory') await walk(handle as Dir, here);
        else if (name === 'original' && here.includes(`/albums/${album}/`)) {
          const file = await (handle as FileSystemFileHandle).getFile();
          found.push({ path: here, size: file.size, head: [...new Uint8Array(await file.slice(0, 2).arrayBuffer())] });
        }
      }
    };
    await walk((await navigator.storage.getDirectory()) as Dir, '');
    return found;
  }, albumId);
}

test('a CSV is stored gzip-compressed, previews as text and downloads byte for byte', async ({ page }, info) => {
  const albumId = await createAlbum(page, 'Weather');
  await addFiles(page, [{ name: 'readings.csv', mimeType: 'text/csv', buffer: csv }]);
  await expectItemCount(page, 1);

  const stored = await storedOriginals(page, albumId);
  expect(stored).toHaveLength(1);
  expect(stored[0]!.head).toEqual([0x1f, 0x8b]);
  expect(stored[0]!.size).toBeLessThan(csv.length / 4);

  await tile(page, 'readings.csv').click();
  const viewer = page.getByRole('dialog', { name: 'readings.csv' });
  const preview = viewer.getByLabel('Text preview');
  await expect(preview).toContainText('date,station,temperature,humidity');
  await expect(preview).toContainText('2026-11-02,Station 1,');

  const download = page.waitForEvent('download');
  await viewer.getByRole('button', { name: 'Download original' }).click();
  const saved = info.outputPath('readings.csv');
  await (await download).saveAs(saved);
  expect(readFileSync(saved).equals(csv)).toBe(true);
});

test('the album as a ZIP through the service worker opens, and its CSV entry is the very file', async ({ page }, info) => {
  await page.addInitScript(() => {
    delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });
  await createAlbum(page, 'Weather archive');
  await addFiles(page, [{ name: 'readings.csv', mimeType: 'text/csv', buffer: csv }, { name: 'note.txt', mimeType: 'text/plain', buffer: Buffer.from('Back at six.\n') }]);
  await expectItemCount(page, 2);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 30_000 }).toBe(true);
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Download album as ZIP' }).click();
  const path = info.outputPath('album.zip');
  await (await downloading).saveAs(path);
  expect(execFileSync('unzip', ['-t', path], { encoding: 'utf8' })).toContain('No errors detected');
  expect(execFileSync('unzip', ['-p', path, 'readings.csv'], { maxBuffer: 1 << 26 }).equals(csv)).toBe(true);
  expect(execFileSync('unzip', ['-p', path, 'note.txt'], { encoding: 'utf8' })).toBe('Back at six.\n');
});
