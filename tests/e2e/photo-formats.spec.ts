/**
 * Photos Chromium cannot show itself, end to end on the local backend: dropped into an album, each becomes a
 * photo with a thumbnail made by the decoder the media worker loads for it, turned the right way up, and opens
 * in the viewer on its preview with the original offered for download.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './csp-test';
import { makeRawFixtures } from '../../scripts/make-raw-fixtures.mjs';
import { makeSidewaysTiff } from '../../scripts/make-tiff-fixtures.mjs';
import { addFiles, createAlbum, downloadZipWithSidecars, expectItemCount, fixture, pickedFile, stubSavePicker, thumbPixel, thumbSize, tile } from './helpers';

/** The orientation fixtures' corners once upright (scripts/make-fixtures.mjs): red top-left, green top-right. */
const isRed = ([r, g, b]: number[]) => r! > 170 && g! < 90 && b! < 90;
const isGreen = ([r, g, b]: number[]) => g! > 140 && r! < 90 && b! < 100;

test("a JPEG XL, a TIFF and a phone's HEIC show thumbnails the right way up and open in the viewer on their previews", async ({ page }, info) => {
  test.setTimeout(120_000);
  // The JPEG XL and the TIFF hold the sideways orientation fixture, stored 1,600 × 2,400 and turned by their
  // header; the HEIC is a grid of tiles, as phones write, stored turned with irot (decoded on two threads).
  const photos = [
    { name: 'sideways.jxl', mimeType: 'image/jxl', buffer: readFileSync(fixture('orientation-6.jxl')), previewWidth: 2048 },
    { name: 'sideways.tif', mimeType: 'image/tiff', buffer: readFileSync(makeSidewaysTiff(info.outputPath('tiff'))), previewWidth: 2048 },
    { name: 'upright.heic', mimeType: 'image/heic', buffer: readFileSync(fixture('camera/grid-turned.heic')), previewWidth: 200 },
  ];
  await createAlbum(page, 'Formats');
  await addFiles(page, photos);
  await expectItemCount(page, photos.length);

  for (const { name, previewWidth } of photos) {
    const t = tile(page, name);
    await expect(t).toHaveAttribute('data-kind', 'image');
    await expect(t.locator('img.tile__thumb')).toBeVisible();
    // Seen wider than tall, red top-left, green top-right.
    const { w, h } = await thumbSize(t);
    expect(w, name).toBeGreaterThan(h);
    expect(isRed(await thumbPixel(t, 0.05, 0.05)), name).toBe(true);
    expect(isGreen(await thumbPixel(t, 0.95, 0.05)), name).toBe(true);

    await t.click();
    const viewer = page.getByRole('dialog', { name });
    const shown = viewer.getByRole('img', { name });
    await expect(shown).toBeVisible();
    // The preview (2,048 px wide, or the picture's own width if smaller): the browser cannot show the original.
    await expect.poll(() => shown.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(previewWidth);
    await expect(viewer.getByRole('button', { name: 'Download original' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  }
});

test('camera raws show the preview the camera embedded, turned by the raw and opened in the viewer', async ({ page }, info) => {
  test.setTimeout(120_000);
  // Each holds orientation-1.jpg (2,400 × 1,600, red top-left) as its largest preview, with its own orientation.
  const dir = info.outputPath('raws');
  makeRawFixtures(dir);
  const raws = [
    { name: 'le.dng', mimeType: 'image/x-adobe-dng', red: [0.95, 0.05] },
    { name: 'sony.arw', mimeType: 'image/x-sony-arw', red: [0.95, 0.05] },
    { name: 'nikon.nef', mimeType: 'image/x-nikon-nef', red: [0.05, 0.95] },
  ] as const;
  await createAlbum(page, 'Raws');
  await addFiles(page, raws.map(({ name, mimeType }) => ({ name, mimeType, buffer: readFileSync(join(dir, name)) })));
  await expectItemCount(page, raws.length);

  for (const { name, red } of raws) {
    const t = tile(page, name);
    await expect(t).toHaveAttribute('data-kind', 'image');
    // Turned a quarter (6 clockwise, 8 anticlockwise): taller than wide, the red corner where the turn takes it.
    const { w, h } = await thumbSize(t);
    expect(h, name).toBeGreaterThan(w);
    expect(isRed(await thumbPixel(t, red[0], red[1])), name).toBe(true);

    await t.click();
    const viewer = page.getByRole('dialog', { name });
    const shown = viewer.getByRole('img', { name });
    // Its preview: 2,048 px on the long edge, upright.
    await expect.poll(() => shown.evaluate((el: HTMLImageElement) => [el.naturalWidth, el.naturalHeight])).toEqual([1365, 2048]);
    await expect(viewer.getByRole('button', { name: 'Download original' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  }
});

/** The text of each sidecar the app keeps in OPFS beside an original of the album. */
function storedSidecars(page: Page, albumId: string): Promise<string[]> {
  return page.evaluate(async (album) => {
    type Dir = FileSystemDirectoryHandle & { entries(): AsyncIterable<[string, FileSystemHandle]> };
    const found: string[] = [];
    const walk = async (dir: Dir, path: string): Promise<void> => {
      for await (const [name, handle] of dir.entries()) {
        const here = `${path}/${name}`;
        if (handle.kind === 'directory') await walk(handle as Dir, here);
        else if (name === 'original.xmp' && here.includes(`/albums/${album}/`)) found.push(await (await (handle as FileSystemFileHandle).getFile()).text());
      }
    };
    await walk((await navigator.storage.getDirectory()) as Dir, '');
    return found;
  }, albumId);
}

const exiftoolTags = (xmp: string) =>
  (JSON.parse(execFileSync('exiftool', ['-j', '-XMP:all', '-'], { input: Buffer.from(xmp), encoding: 'utf8' })) as Record<string, unknown>[])[0]!;

test("a raw's XMP sidecar added with it is no item of its own: its title, rating, keywords and date are the photo's", async ({ page }, info) => {
  test.setTimeout(120_000);
  await stubSavePicker(page);
  const dir = info.outputPath('raws');
  makeRawFixtures(dir);
  // As Lightroom writes a sidecar beside a raw (its GPS is never read: the item has no place to keep one).
  const sidecar = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"
  xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmlns:exif="http://ns.adobe.com/exif/1.0/"
  xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/" crs:Exposure2012="+0.35" crs:WhiteBalance="As Shot"
  xmp:Rating="4" xmp:Label="Red" photoshop:DateCreated="2019-07-04T18:30:00+01:00" exif:GPSLatitude="41,8.4N" exif:GPSLongitude="8,36.6W">
 <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Ribeira at dusk</rdf:li></rdf:Alt></dc:title>
 <dc:subject><rdf:Bag><rdf:li>Porto</rdf:li><rdf:li>river</rdf:li></rdf:Bag></dc:subject>
</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
  const albumId = await createAlbum(page, 'Porto');
  await addFiles(page, [
    { name: 'DSC_0001.NEF', mimeType: 'image/x-nikon-nef', buffer: readFileSync(join(dir, 'nikon.nef')) },
    { name: 'DSC_0001.xmp', mimeType: 'application/rdf+xml', buffer: Buffer.from(sidecar) },
  ]);
  await expectItemCount(page, 1);
  await expect(tile(page, 'DSC_0001.NEF')).toHaveAttribute('data-kind', 'image');
  await tile(page, 'DSC_0001.NEF').click();
  await page.getByRole('button', { name: 'Details' }).click();
  const details = page.getByRole('complementary', { name: 'Details' });
  await expect(details.getByLabel('Title', { exact: true })).toHaveValue('Ribeira at dusk');
  await expect(details.getByRole('radio', { name: '4 stars' })).toHaveAttribute('aria-checked', 'true');
  await expect(details.getByLabel('Label', { exact: true })).toHaveValue('Red');
  await expect(details.locator('.chip')).toHaveText(['Porto', 'river']);
  // The sidecar's capture time (Lightroom's Edit Capture Time lands there), not the preview's.
  await expect(details).toContainText('2019');

  // Stored beside the original, for desktop tools: Lightroom's develop settings kept, its place taken out (the
  // album removes locations).
  const [stored] = await storedSidecars(page, albumId);
  expect(exiftoolTags(stored!)).toMatchObject({ Exposure2012: '+0.35', WhiteBalance: 'As Shot', Title: 'Ribeira at dusk', Rating: 4, Label: 'Red', Subject: ['Porto', 'river'] });
  expect(Object.keys(exiftoolTags(stored!)).filter((k) => /GPS|Location|City|Country/i.test(k))).toEqual([]);

  // An edit is written there too, the develop settings still kept.
  await details.getByLabel('Title', { exact: true }).fill('Ribeira, blue hour');
  await details.getByLabel('Title', { exact: true }).press('Enter');
  await expect(page.getByText('Title saved').first()).toBeVisible();
  await expect.poll(async () => exiftoolTags((await storedSidecars(page, albumId))[0]!).Title).toBe('Ribeira, blue hour');
  expect(exiftoolTags((await storedSidecars(page, albumId))[0]!)).toMatchObject({ Exposure2012: '+0.35', Rating: 4, Label: 'Red', Subject: ['Porto', 'river'] });

  // Downloaded with sidecars, the photo's sidecar is that one: the develop settings come back with the edit.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await downloadZipWithSidecars(page, 'full');
  const zip = info.outputPath('porto.zip');
  writeFileSync(zip, await pickedFile(page, 'Porto.zip'));
  const inZip = execFileSync('unzip', ['-p', zip, 'DSC_0001.NEF.xmp'], { encoding: 'utf8' });
  expect(exiftoolTags(inZip)).toMatchObject({ Exposure2012: '+0.35', WhiteBalance: 'As Shot', Title: 'Ribeira, blue hour', Rating: 4 });
  expect(Object.keys(exiftoolTags(inZip)).filter((k) => /GPS|Location|City|Country/i.test(k))).toEqual([]);
});
