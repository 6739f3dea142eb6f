import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.mjs';
import { expect, test } from './csp-test';

interface ManifestImage {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
  form_factor?: string;
  label?: string;
}
interface Manifest {
  [member: string]: unknown;
  display_override: string[];
  icons: ManifestImage[];
  screenshots: ManifestImage[];
  shortcuts: { name: string; url: string; icons: ManifestImage[] }[];
}

/** The manifest as the page links it (main.tsx adds the link on every page but a public link's). */
async function linkedManifest(page: Page): Promise<Manifest> {
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBeTruthy();
  return page.evaluate(async (url) => (await (await fetch(url)).json()) as Manifest, href!);
}

/** What the browser makes of an image: its HTTP status and type, and its size once decoded. */
async function decode(page: Page, src: string) {
  return page.evaluate(async (url) => {
    const res = await fetch(url);
    const found = { status: res.status, type: res.headers.get('content-type') };
    if (!res.ok) return { ...found, width: 0, height: 0 };
    const bitmap = await createImageBitmap(await res.blob());
    return { ...found, width: bitmap.width, height: bitmap.height };
  }, src);
}

/**
 * Reads an icon's pixels. `outsideSafeZone`: how many pixels outside the circle of radius 40% (the part any
 * maskable shape keeps) differ from the top-left pixel, the background. `colours`: the distinct colours of
 * the visible pixels; `transparent`: how many pixels are fully transparent.
 */
async function iconPixels(page: Page, src: string) {
  return page.evaluate(async (url) => {
    const bitmap = await createImageBitmap(await (await fetch(url)).blob());
    const { width: w, height: h } = bitmap;
    const ctx = new OffscreenCanvas(w, h).getContext('2d')!;
    ctx.drawImage(bitmap, 0, 0);
    const d = ctx.getImageData(0, 0, w, h).data;
    const colours = new Set<string>();
    let outsideSafeZone = 0;
    let transparent = 0;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = (y * w + x) * 4;
        const far = Math.hypot(x + 0.5 - w / 2, y + 0.5 - h / 2) > 0.4 * w;
        const differs = [0, 1, 2, 3].some((c) => Math.abs(d[i + c]! - d[c]!) > 8);
        if (far && differs) outsideSafeZone++;
        if (d[i + 3] === 0) transparent++;
        else if (d[i + 3] === 255) colours.add(`${d[i]},${d[i + 1]},${d[i + 2]}`);
      }
    }
    return { outsideSafeZone, colours: [...colours], transparent, total: w * h };
  }, src);
}

test('Chromium finds nothing in the way of installing Shoebox, and parses its manifest without complaint', async ({ baseURL }) => {
  // A profile on disk: Chromium installs nothing from an incognito one, which is what test contexts are.
  const profile = mkdtempSync(join(tmpdir(), 'shoebox-install-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath(), args: chromiumArgs, baseURL });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Albums' })).toBeVisible();
    // Installability asks for a service worker that controls the page.
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 30_000 }).toBe(true);

    const cdp = await context.newCDPSession(page);
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: { message: string; critical: number }[]; data?: string };
    expect(new URL(manifest.url).pathname).toBe('/manifest.webmanifest');
    expect(manifest.errors).toEqual([]);
    expect(manifest.data, 'the manifest Chromium read').toBeTruthy();

    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

test('the manifest names the app and how it opens, and every icon, screenshot and shortcut icon loads as the image it declares', async ({ page }) => {
  await page.goto('/');
  const manifest = await linkedManifest(page);
  const images = [...manifest.icons, ...manifest.screenshots, ...manifest.shortcuts.flatMap((s) => s.icons)];
  expect(images.length).toBeGreaterThanOrEqual(10);
  for (const image of images) {
    const [width, height] = image.sizes.split('x').map(Number);
    expect(await decode(page, image.src), image.src).toEqual({ status: 200, type: image.type, width, height });
  }

  // Who the app is, where it starts and how its window opens: the display modes Chromium knows.
  expect(manifest).toMatchObject({ id: '/', start_url: '/', scope: '/', display: 'standalone', name: 'Shoebox', short_name: 'Shoebox' });
  expect(manifest.description).toBeTruthy();
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
  expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);
  expect(manifest.display_override).toContain('standalone');
  const displayModes = ['fullscreen', 'standalone', 'minimal-ui', 'browser', 'window-controls-overlay', 'tabbed', 'borderless', 'picture-in-picture'];
  for (const mode of manifest.display_override) expect(displayModes, `display_override "${mode}"`).toContain(mode);

  const purposes = (purpose: string) => manifest.icons.filter((i) => (i.purpose ?? 'any').split(' ').includes(purpose)).map((i) => i.sizes);
  expect(purposes('any')).toEqual(expect.arrayContaining(['192x192', '512x512']));
  expect(purposes('maskable')).toEqual(expect.arrayContaining(['192x192', '512x512']));
  expect(purposes('monochrome').length).toBeGreaterThan(0);

  // Each form factor has a screenshot of the right shape, which Chromium shows only between 320 and 3840 px
  // and no more than 2.3 times as long as wide.
  for (const factor of ['wide', 'narrow']) {
    const shot = manifest.screenshots.find((s) => s.form_factor === factor);
    expect(shot, `a ${factor} screenshot`).toBeTruthy();
    expect(shot!.label).toBeTruthy();
    const [w, h] = shot!.sizes.split('x').map(Number) as [number, number];
    expect(factor === 'wide' ? w > h : h > w, `${factor} screenshot's orientation`).toBe(true);
    expect(Math.min(w, h)).toBeGreaterThanOrEqual(320);
    expect(Math.max(w, h)).toBeLessThanOrEqual(3840);
    expect(Math.max(w, h) / Math.min(w, h)).toBeLessThanOrEqual(2.3);
  }

  // Cut to a circle, a squircle or a rounded square, a maskable icon loses nothing of its mark.
  for (const icon of manifest.icons.filter((i) => i.purpose === 'maskable')) {
    const pixels = await iconPixels(page, icon.src);
    expect(pixels.outsideSafeZone, `${icon.src}: mark pixels outside the safe zone`).toBe(0);
    expect(pixels.transparent, `${icon.src}: transparent pixels (shown black once masked)`).toBe(0);
  }
  // A monochrome icon is one colour on transparency: the system paints it with its own colour.
  for (const icon of manifest.icons.filter((i) => i.purpose === 'monochrome')) {
    const pixels = await iconPixels(page, icon.src);
    expect(pixels.colours, `${icon.src}: colours of its opaque pixels`).toHaveLength(1);
    expect(pixels.transparent / pixels.total).toBeGreaterThan(0.3);
  }
});

test("each of the installed app's shortcuts opens the screen it names", async ({ page }) => {
  await page.goto('/');
  const { shortcuts } = await linkedManifest(page);
  expect(shortcuts.map((s) => s.name).sort()).toEqual(['Add photos', 'Albums', 'Uploads']);
  const url = (name: string) => shortcuts.find((s) => s.name === name)!.url;

  await page.goto(url('Albums'));
  await expect(page.getByRole('heading', { level: 1, name: 'Albums' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await page.goto(url('Uploads'));
  await expect(page.getByRole('heading', { level: 1, name: 'Uploads' })).toBeVisible();

  // Add photos: straight into a new album, whose screen then takes the photos.
  await page.goto(url('Add photos'));
  const dialog = page.getByRole('dialog', { name: 'New album' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Title')).toBeFocused();
  // The request is spent: the address no longer asks for it, so a reload does not open the dialog again.
  await expect.poll(() => new URL(page.url()).search).toBe('');
  await dialog.getByLabel('Title').fill('From the shortcut');
  await dialog.getByRole('button', { name: 'Create album' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'From the shortcut' })).toBeVisible();
  await expect(page.getByTestId('add-files-input').first()).toBeAttached();
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'Albums' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});
