import AxeBuilder from '@axe-core/playwright';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Page } from '@playwright/test';
import { addFiles, createAlbum, expectItemCount, expectSameApartFromLocation, fixture, pickedFile, stubSavePicker, tile } from './helpers';
import { expect, test } from './supabase-world';

// A public link end to end: Ana makes a link with a password and an expiry (the share-links function), a
// visitor opens it in a browser of their own with no account (the share-open function in Deno, the Ceph
// bucket), sees the album after the password and opens the viewer; Ana revokes the link and the open page
// stops. With SHOTS_DIR set, the page is photographed at desktop and phone sizes along the way, from the
// photographs listed (colon-separated) in SHOTS_PHOTOS when given.

const PASSWORD = 'tide-pools-2026';
const photos = process.env.SHOTS_PHOTOS?.split(':').filter(Boolean) ?? [fixture('orientation-1.jpg'), fixture('orientation-6.jpg'), fixture('xmp.jpg')];
const shotsDir = process.env.SHOTS_DIR;

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** The page has laid itself out again at its new size: a frame has been drawn since. */
const redrawn = (page: Page) => page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));

async function shoot(page: Page, name: string): Promise<void> {
  if (!shotsDir) return;
  await page.screenshot({ path: `${shotsDir}/${name}-desktop.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await redrawn(page);
  await page.screenshot({ path: `${shotsDir}/${name}-phone.png` });
  await page.setViewportSize({ width: 1280, height: 800 });
  await redrawn(page);
}

const hasManifest = (page: Page) => page.evaluate(() => document.querySelector('link[rel="manifest"]') !== null);

test('a visitor with no account opens a protected link, sees the album and its viewer, and a revoked link stops the page', async ({ browser, world, signIn, visit }) => {
  test.setTimeout(240_000);
  const ana = await world.newPerson('Ana');
  const anaPage = await signIn(await browser.newContext({ viewport: { width: 1280, height: 800 } }), ana);
  const albumId = await createAlbum(anaPage, 'Algarve', 'A week by the sea');
  await addFiles(anaPage, photos);
  await expectItemCount(anaPage, photos.length, 120_000);
  for (const p of photos) await expect(tile(anaPage, basename(p)).locator('img.tile__thumb')).toBeVisible({ timeout: 60_000 });
  // Every page of the app but a link's carries the web app manifest.
  expect(await hasManifest(anaPage)).toBe(true);

  const api = await world.api(ana);
  const { data: session } = await api.auth.getSession();
  const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
  // From Ana's own browser, so the call goes through the project's gateway to the share-links function.
  const created = await anaPage.evaluate(
    async ({ url, jwt, body }) => {
      const res = await fetch(url, { method: 'POST', headers: { Authorization: `Bearer ${jwt}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`share-links ${res.status}: ${await res.text()}`);
      return (await res.json()) as { link: { id: string }; token: string };
    },
    {
      url: `${world.projectUrl}/functions/v1/share-links`,
      jwt: session.session!.access_token,
      body: { op: 'create', albumId, label: 'Family', password: PASSWORD, expiresAt, allowDownload: true, allowGuestUpload: false },
    },
  );

  // A fresh browser: no session, nothing kept.
  const page = await visit(await browser.newContext({ viewport: { width: 1280, height: 800 } }));
  await stubSavePicker(page);
  await page.goto(`/s/${created.token}`);
  const field = page.getByLabel('Password');
  await expect(field).toBeVisible();
  expect(await page.content()).not.toContain('Algarve');
  expect(await hasManifest(page)).toBe(false);
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  await shoot(page, 'password');

  await field.fill('not-the-password');
  await page.getByRole('button', { name: 'Open album' }).click();
  await expect(page.getByRole('alert')).toContainText('That password is not right.');
  await expect(field).toBeFocused();
  await expect(field).toHaveValue('not-the-password');
  await shoot(page, 'wrong-password');

  await field.fill(PASSWORD);
  await field.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Algarve' })).toBeVisible();
  await expect(page.getByText('A week by the sea')).toBeVisible();
  for (const p of photos) {
    const img = tile(page, basename(p)).locator('img.tile__thumb');
    await expect(img).toBeVisible();
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
  }
  expect(await hasManifest(page)).toBe(false);
  expect(await seriousViolations(page)).toEqual([]);
  await shoot(page, 'album');

  // The first tile in the grid's order, then the next one with the arrow key.
  const order = await page.getByRole('gridcell').evaluateAll((cells) => cells.map((c) => c.getAttribute('aria-label') ?? ''));
  await tile(page, order[0]!).click();
  const viewer = page.getByRole('dialog', { name: order[0]! });
  await expect(viewer).toBeVisible();
  await expect.poll(() => viewer.locator('img').first().evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
  await expect(page.getByTestId('comments-toggle')).toHaveCount(0);
  await expect(viewer.getByRole('button', { name: 'Download original' })).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('dialog', { name: order[1]! })).toBeVisible();
  await page.keyboard.press('i');
  await expect(page.getByRole('complementary', { name: 'Details' })).toContainText(/Added by\s*Ana/);
  expect(await page.content()).not.toContain(ana.email);
  await shoot(page, 'viewer');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Two photos selected download as one ZIP of their originals: it passes `unzip -t`, holds them byte for byte
  // under their names, and its manifest names no one.
  const cells = page.getByRole('gridcell');
  await cells.nth(0).click({ modifiers: ['ControlOrMeta'] });
  await cells.nth(1).click({ modifiers: ['ControlOrMeta'] });
  await expect(page.getByText('2 selected')).toBeVisible();
  await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'Download' }).click();
  await expect(page.getByTestId('download-panel')).toContainText('Download complete', { timeout: 60_000 });
  const zipBytes = await pickedFile(page, 'Algarve.zip');
  const zipDir = mkdtempSync(join(tmpdir(), 'shoebox-share-zip-'));
  try {
    const zipPath = join(zipDir, 'Algarve.zip');
    writeFileSync(zipPath, zipBytes);
    expect(execFileSync('unzip', ['-t', zipPath], { encoding: 'utf8' })).toContain('No errors detected');
    const entries = execFileSync('unzip', ['-Z1', zipPath], { encoding: 'utf8' }).trim().split('\n').sort();
    expect(entries).toEqual([...order.slice(0, 2), 'manifest.json'].sort());
    // The album removes location from originals (the default), and the fixtures carry a place.
    for (const name of order.slice(0, 2)) {
      const source = readFileSync(photos.find((p) => basename(p) === name)!);
      expectSameApartFromLocation(execFileSync('unzip', ['-p', zipPath, name], { maxBuffer: 1 << 26 }), source, name);
    }
    const manifest = execFileSync('unzip', ['-p', zipPath, 'manifest.json'], { encoding: 'utf8' });
    expect(manifest).not.toContain(ana.email);
    expect(manifest).not.toContain(ana.id);
  } finally {
    rmSync(zipDir, { recursive: true, force: true });
  }
  await page.getByRole('button', { name: 'Clear selection' }).click();

  // Ana revokes the link while the page is open: the next page of items is refused and the page says so.
  const { error: revokeError } = await api.from('share_links').update({ revoked_at: new Date().toISOString() }).eq('id', created.link.id);
  if (revokeError) throw new Error(`revoke failed: ${revokeError.message}`);
  await page.getByLabel('Sort').selectOption('added');
  await expect(page.getByRole('heading', { level: 1, name: 'This link has been turned off.' })).toBeVisible();
  await expect(page.getByRole('gridcell')).toHaveCount(0);
  expect(await page.content()).not.toContain('Algarve');
  expect(await seriousViolations(page)).toEqual([]);
  await shoot(page, 'revoked');
});
