import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './csp-test';
import { addFiles, createAlbum, expectItemCount, expectSameApartFromLocation, fixtureBytes, downloadZipWithSidecars, pickedFile, stubSavePicker } from './helpers';

// Three photos whose names collide without case, and one that hides its real extension behind a bidi override.
const photos = [
  { name: 'Beach.jpg', mimeType: 'image/jpeg', buffer: fixtureBytes('orientation-1.jpg') },
  { name: 'beach.JPG', mimeType: 'image/jpeg', buffer: fixtureBytes('orientation-3.jpg') },
  { name: 'photo\u202Egpj.exe', mimeType: 'image/jpeg', buffer: fixtureBytes('orientation-6.jpg') },
];
// Each test writes its archive into a folder of its own, removed after it: tests may run in any order.
const folders: string[] = [];
function scratchFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'shoebox-zip-e2e-'));
  folders.push(dir);
  return dir;
}
test.afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function albumWithSelection(page: Page, title: string) {
  await createAlbum(page, title);
  await addFiles(page, photos);
  await expectItemCount(page, 3);
  const cells = page.getByRole('gridcell');
  await cells.nth(0).click({ modifiers: ['ControlOrMeta'] });
  await cells.nth(2).click({ modifiers: ['Shift'] });
  await expect(page.getByText('3 selected')).toBeVisible();
}

/**
 * The archive passes `unzip -t` and holds the photos (as stored: the place removed, the picture untouched) under safe names that differ without case
 * (which of the two beaches comes first follows the album's order), beside a manifest that maps each name
 * as given to its entry.
 */
function checkArchive(path: string) {
  expect(execFileSync('unzip', ['-t', path], { encoding: 'utf8' })).toContain('No errors detected');
  const names = execFileSync('unzip', ['-Z1', path], { encoding: 'utf8' }).trim().split('\n');
  expect(names.map((n) => n.toLowerCase()).sort()).toEqual(['beach (2).jpg', 'beach.jpg', 'manifest.json', 'photo_gpj.exe']);
  const manifest = JSON.parse(execFileSync('unzip', ['-p', path, 'manifest.json'], { encoding: 'utf8' })) as { items: { entry: string; filename: string; bytes: number; kind: string }[] };
  expect(manifest.items.map((i) => i.entry).sort()).toEqual(names.filter((n) => n !== 'manifest.json').sort());
  for (const photo of photos) {
    const listed = manifest.items.find((i) => i.filename === photo.name);
    expect(listed, photo.name).toMatchObject({ bytes: photo.buffer.length, kind: 'image' });
    expectSameApartFromLocation(execFileSync('unzip', ['-p', path, listed!.entry], { maxBuffer: 1 << 26 }), photo.buffer, photo.name);
  }
}

test('a selection downloads as one ZIP through the service worker where no file can be picked', async ({ page }) => {
  await page.addInitScript(() => {
    delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });
  await albumWithSelection(page, 'Zip through the worker');
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 30_000 }).toBe(true);
  const downloading = page.waitForEvent('download');
  await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'Download' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('Zip through the worker.zip');
  const path = join(scratchFolder(), 'worker.zip');
  await download.saveAs(path);
  checkArchive(path);
  await expect(page.getByTestId('download-panel')).toContainText('Download complete');
  // The selection stays, so another action can follow.
  await expect(page.getByText('3 selected')).toBeVisible();
});

test('the whole album is written to the file the user picks (File System Access)', async ({ page }) => {
  await stubSavePicker(page);
  await createAlbum(page, 'Zip to a file');
  await addFiles(page, photos);
  await expectItemCount(page, 3);
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Download album as ZIP' }).click();
  await expect(page.getByTestId('download-panel')).toContainText('Download complete', { timeout: 30_000 });
  await expect(page.getByTestId('download-panel')).toContainText('3 of 3 files');
  const picked = await pickedFile(page, 'Zip to a file.zip');
  const path = join(scratchFolder(), 'picked.zip');
  writeFileSync(path, picked);
  expect(readFileSync(path).length).toBeGreaterThan(0);
  checkArchive(path);
});

test('a ZIP that cannot be written says why, stops, and keeps the selection', async ({ page }) => {
  await page.addInitScript(() => {
    (window as unknown as { showSaveFilePicker: unknown }).showSaveFilePicker = async () => ({
      createWritable: async () => {
        throw new DOMException('The disk is full', 'QuotaExceededError');
      },
    });
  });
  await albumWithSelection(page, 'Zip to a full disk');
  await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'Download' }).click();
  const panel = page.getByTestId('download-panel');
  await expect(panel).toContainText('The download stopped.');
  await expect(panel.getByRole('alert')).toHaveAttribute('data-error-code', 'storage/denied');
  await expect(panel).not.toContainText('Downloading');
  await expect(page.getByText('3 selected')).toBeVisible();
  await expect(page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'Download' })).toBeEnabled();
});

test('with XMP sidecars: each photo has one beside it, named for Lightroom, with the title given in the viewer', async ({ page }) => {
  await stubSavePicker(page);
  await createAlbum(page, 'Sidecars');
  await addFiles(page, photos.slice(0, 2));
  await expectItemCount(page, 2);
  await page.getByRole('gridcell', { name: 'Beach.jpg', exact: true }).click();
  await page.getByRole('button', { name: 'Details' }).click();
  await page.getByLabel('Title', { exact: true }).fill('Harbour <at> dusk');
  await page.getByLabel('Title', { exact: true }).press('Enter');
  await expect(page.getByText('Title saved').first()).toBeVisible();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await downloadZipWithSidecars(page, 'stem');
  const picked = await pickedFile(page, 'Sidecars.zip');
  const path = join(scratchFolder(), 'sidecars.zip');
  writeFileSync(path, picked);
  expect(execFileSync('unzip', ['-t', path], { encoding: 'utf8' })).toContain('No errors detected');
  const names = execFileSync('unzip', ['-Z1', path], { encoding: 'utf8' }).trim().split('\n');
  // Both photos are dated by their camera, so both have a sidecar; the second, named apart from the first, keeps its own.
  const sidecars = names.filter((n) => n.endsWith('.xmp'));
  expect(sidecars).toHaveLength(2);
  // Each beside its photo, named after the photo's entry without its extension.
  const manifest = JSON.parse(execFileSync('unzip', ['-p', path, 'manifest.json'], { encoding: 'utf8' })) as { items: { entry: string; filename: string }[] };
  const stems = manifest.items.map((i) => `${i.entry.slice(0, i.entry.lastIndexOf('.'))}.xmp`);
  expect([...sidecars].sort()).toEqual([...stems].sort());
  const titled = manifest.items.find((i) => i.filename === 'Beach.jpg')!;
  const xmp = execFileSync('unzip', ['-p', path, `${titled.entry.slice(0, titled.entry.lastIndexOf('.'))}.xmp`]);
  const tags = (JSON.parse(execFileSync('exiftool', ['-j', '-XMP:all', '-'], { input: xmp, encoding: 'utf8' })) as Record<string, unknown>[])[0]!;
  expect(tags.Title).toBe('Harbour <at> dusk');
  // The camera's 18:30:05 at +02:00, written as its clock read it, with the offset.
  expect(tags.DateCreated).toBe('2023:07:14 18:30:05+02:00');
  expect(Object.keys(tags).filter((k) => /GPS|Location|City|Country/i.test(k))).toEqual([]);
});
