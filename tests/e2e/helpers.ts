import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';

export const fixture = (name: string) => join(import.meta.dirname, '..', 'fixtures', name);
export const fixtureBytes = (name: string) => readFileSync(fixture(name));

export async function createAlbum(page: Page, title: string, description = ''): Promise<string> {
  await page.goto('/');
  await page.getByRole('button', { name: /new album|create your first album/i }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New album' });
  await dialog.getByLabel('Title').fill(title);
  if (description) await dialog.getByLabel(/Description/).fill(description);
  await dialog.getByRole('button', { name: 'Create album' }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const id = page.url().split('/albums/')[1]?.split(/[/?]/)[0];
  if (!id) throw new Error(`no album id in ${page.url()}`);
  return id;
}

export async function addFiles(page: Page, files: Parameters<Locator['setInputFiles']>[0]): Promise<void> {
  await page.getByTestId('add-files-input').first().setInputFiles(files);
}

/** Waits until the album header says it holds `count` items. */
export async function expectItemCount(page: Page, count: number, timeout = 60_000): Promise<void> {
  await expect(page.getByText(new RegExp(`^${count.toLocaleString('en-US')} items? ·`))).toBeVisible({ timeout });
}

export function tile(page: Page, filename: string): Locator {
  return page.getByRole('gridcell', { name: filename, exact: true });
}

/** The colour of a point of a tile's thumbnail as drawn by the browser, at (fx, fy) fractions of its size. */
export async function thumbPixel(t: Locator, fx: number, fy: number): Promise<[number, number, number]> {
  const img = t.locator('img.tile__thumb');
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
  return img.evaluate(
    (el: HTMLImageElement, [x, y]) => {
      const c = document.createElement('canvas');
      c.width = el.naturalWidth;
      c.height = el.naturalHeight;
      const ctx = c.getContext('2d');
      if (!ctx) throw new Error('no 2d context');
      ctx.drawImage(el, 0, 0);
      const d = ctx.getImageData(Math.floor(c.width * x), Math.floor(c.height * y), 1, 1).data;
      return [d[0] ?? 0, d[1] ?? 0, d[2] ?? 0] as [number, number, number];
    },
    [fx, fy] as const,
  );
}

export async function thumbSize(t: Locator): Promise<{ w: number; h: number }> {
  const img = t.locator('img.tile__thumb');
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0);
  return img.evaluate((el: HTMLImageElement) => ({ w: el.naturalWidth, h: el.naturalHeight }));
}

/** Where a JPEG's metadata segments (APPn, COM) end: the place-removal may change bytes only before this. */
function jpegMetadataEnd(bytes: Buffer): number {
  let at = 2;
  while (at + 4 <= bytes.length && bytes[at] === 0xff) {
    const marker = bytes[at + 1]!;
    if (!((marker >= 0xe0 && marker <= 0xef) || marker === 0xfe)) break;
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  return at;
}

/**
 * An original stored from `source` in an album that removes location (the default): the same length, no GPS tag
 * left for ExifTool to read, and not a byte changed past the metadata segments — the picture is the same.
 */
export function expectSameApartFromLocation(stored: Buffer, source: Buffer, name: string): void {
  expect(stored.length, name).toBe(source.length);
  const end = jpegMetadataEnd(source);
  expect(Buffer.compare(stored.subarray(end), source.subarray(end)), `${name}: bytes past the metadata`).toBe(0);
  const dir = mkdtempSync(join(tmpdir(), 'shoebox-gps-'));
  try {
    const path = join(dir, 'photo.jpg');
    writeFileSync(path, stored);
    expect(execFileSync('exiftool', ['-gps:all', '-a', '-s', path], { encoding: 'utf8' }).trim(), `${name}: GPS tags`).toBe('');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Waits until the service worker controls the page and has precached the shell, so the app opens offline. */
export async function workerReady(page: Page, timeoutMs = 30_000): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise<void>((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }));
    }
  });
  await expect.poll(() => page.evaluate(async () => !!(await caches.match('/index.html', { ignoreSearch: true }))), { timeout: timeoutMs }).toBe(true);
}

/**
 * The save dialog cannot be driven: `showSaveFilePicker` then hands out a file in the site's private storage,
 * named `picked-<suggested name>`, which `pickedFile` reads back.
 */
export async function stubSavePicker(page: Page): Promise<void> {
  await page.addInitScript(() => {
    (window as unknown as { showSaveFilePicker: unknown }).showSaveFilePicker = async ({ suggestedName }: { suggestedName: string }) =>
      (await navigator.storage.getDirectory()).getFileHandle(`picked-${suggestedName}`, { create: true });
  });
}

/** The bytes of the file `stubSavePicker` handed out for `name`. */
export async function pickedFile(page: Page, name: string): Promise<Buffer> {
  const base64 = await page.evaluate(async (picked) => {
    const file = await (await (await navigator.storage.getDirectory()).getFileHandle(`picked-${picked}`)).getFile();
    let s = '';
    for (const b of new Uint8Array(await file.arrayBuffer())) s += String.fromCharCode(b);
    return btoa(s);
  }, name);
  return Buffer.from(base64, 'base64');
}

/**
 * Downloads the open album as one ZIP with XMP sidecars named `IMG_1.JPG.xmp` (`full`) or `IMG_1.xmp` (`stem`),
 * from the album screen with nothing open, and waits for it to be written (to the file `stubSavePicker` gives).
 */
export async function downloadZipWithSidecars(page: Page, naming: 'full' | 'stem'): Promise<void> {
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  await page.getByRole('menuitem', { name: 'With XMP sidecars…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Download with XMP sidecars' });
  await dialog.getByLabel(naming === 'full' ? /IMG_1\.JPG\.xmp/ : /IMG_1\.xmp/).check();
  await dialog.getByLabel('One ZIP file').check();
  await dialog.getByRole('button', { name: 'Download' }).click();
  await expect(page.getByTestId('download-panel')).toContainText('Download complete', { timeout: 30_000 });
}
