/**
 * Files shared into Shoebox from another app, on a Supabase project with an S3 bucket (supabase-world.ts): they
 * upload to the bucket and another member of the album sees them; a share that arrives while signed out is
 * kept until the person signs in, even when the app is closed meanwhile; and one left waiting at sign-out goes
 * with the session, never offered to the next person on the browser.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Page } from '@playwright/test';
import type { SupabaseClient } from '@supabase/supabase-js';
import { createAlbum, expectItemCount, tile } from './helpers';
import { controlledByWorker, expectNoSeriousAxe, launchInstalled, SHARED, shareFiles } from './share-target-helpers';
import { expect, PASSWORD, test, type Person, type SupabaseWorld } from './supabase-world';

const NAMES = SHARED.map((f) => basename(f)).sort();

async function readyItems(api: SupabaseClient, albumId: string): Promise<string[]> {
  const { data, error } = await api.from('items').select('filename, status').eq('album_id', albumId);
  if (error) throw new Error(error.message);
  return (data as { filename: string; status: string }[]).filter((r) => r.status === 'ready').map((r) => r.filename).sort();
}

async function invite(world: SupabaseWorld, owner: Person, member: Person, albumId: string): Promise<void> {
  const { data, error } = await (await world.api(owner)).rpc('create_invite', { p_album_id: albumId, p_role: 'viewer' });
  if (error) throw new Error(error.message);
  const accepted = await (await world.api(member)).rpc('accept_invite', { p_token: (data as { token: string }[])[0]!.token });
  if (accepted.error) throw new Error(accepted.error.message);
}

/** Screenshots at a phone's and a laptop's size, copied to SHARE_TARGET_SHOTS_DIR when it is set. */
async function shoot(page: Page, name: string): Promise<void> {
  for (const [w, h] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    const path = test.info().outputPath(`${name}-${w}.png`);
    await page.screenshot({ path, fullPage: true });
    const dir = process.env.SHARE_TARGET_SHOTS_DIR;
    if (dir) {
      mkdirSync(dir, { recursive: true });
      copyFileSync(path, join(dir, `${name}-${w}.png`));
    }
  }
}

// Two browsers, uploads to the bucket and a restart of the app: more than the default on a busy machine.
test.describe.configure({ timeout: 240_000 });

let profile = '';
test.beforeEach(() => {
  profile = mkdtempSync(join(tmpdir(), 'share-target-supabase-'));
});
// The tests close their installed app's context first: the browser writes to its profile until then.
test.afterEach(() => rmSync(profile, { recursive: true, force: true, maxRetries: 3 }));

test('three files shared from another app upload to the bucket, into the album picked, and another member sees them', async ({ browser, world, signIn, baseURL }) => {
  const [ana, ben] = await Promise.all([world.newPerson('Ana'), world.newPerson('Ben')]);
  const installed = await launchInstalled(profile, baseURL!);
  const page = await signIn(installed, ana);
  await createAlbum(page, 'Notes');
  const albumId = await createAlbum(page, 'Harbour');
  await invite(world, ana, ben, albumId);
  await controlledByWorker(page);

  await shareFiles(page, baseURL!, SHARED);
  await expect(page).toHaveURL(/\/share-target\?inbox=[0-9a-f-]{36}$/);
  const list = page.getByRole('list', { name: 'Shared files' });
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await page.getByRole('radio', { name: /^Harbour/ }).check();
  await page.getByRole('button', { name: 'Add to album' }).click();
  await expect(page).toHaveURL(new RegExp(`/albums/${albumId}$`));
  await expectItemCount(page, 3);

  // In the bucket and the database, finished: Ben, another member, sees the three in the album.
  const asBen = await world.api(ben);
  await expect.poll(() => readyItems(asBen, albumId), { timeout: 90_000 }).toEqual(NAMES);
  const benPage = await signIn(await browser.newContext(), ben);
  await benPage.goto(`/albums/${albumId}`);
  await expectItemCount(benPage, 3);
  await expect(tile(benPage, 'rocket.jpg').locator('img.tile__thumb')).toBeVisible({ timeout: 60_000 });
  await expect(tile(benPage, 'tiny.pdf')).toHaveAttribute('data-kind', 'file');
  await installed.close();
});

test('files shared while signed out wait through a sign-in and a closed app, then upload', async ({ world, signIn, baseURL }) => {
  const ana = await world.newPerson('Ana');
  let context = await launchInstalled(profile, baseURL!);
  let page = await signIn(context, ana);
  const albumId = await createAlbum(page, 'Harbour');
  await controlledByWorker(page);
  await page.goto('/account');
  await page.getByRole('region', { name: 'Signed-in devices' }).getByRole('button', { name: 'Sign out this device' }).click();
  await expect(page).toHaveURL(/\/sign-in/);

  // Signed out, the worker still keeps the share; the page asks to sign in, to come back to it after.
  await shareFiles(page, baseURL!, SHARED);
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fshare-target%3Finbox%3D[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Sign in to Shoebox' })).toBeVisible();
  const shareId = decodeURIComponent(new URL(page.url()).searchParams.get('next')!).split('inbox=')[1]!;

  // The app is closed before signing in, and opened again later.
  await context.close();
  context = await launchInstalled(profile, baseURL!);
  page = await signIn(context, ana);
  await expect(page).toHaveURL(/\/$/);
  const notice = page.getByRole('status').filter({ hasText: '3 shared files are waiting for an album.' });
  await expect(notice).toBeVisible();
  await shoot(page, 'waiting-notice');
  await expectNoSeriousAxe(page);
  await page.goto('/share-target');
  await expect(page.getByRole('heading', { name: 'Waiting for an album' })).toBeVisible();
  await shoot(page, 'waiting-list');
  await expectNoSeriousAxe(page);
  await page.getByRole('link', { name: /^3 files · / }).click();
  await expect(page).toHaveURL(`/share-target?inbox=${shareId}`);
  const list = page.getByRole('list', { name: 'Shared files' });
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await page.getByRole('button', { name: 'Add to album' }).click();
  await expect(page).toHaveURL(new RegExp(`/albums/${albumId}$`));
  await expectItemCount(page, 3);
  const asAna = await world.api(ana);
  await expect.poll(() => readyItems(asAna, albumId), { timeout: 90_000 }).toEqual(NAMES);
  await expect(page.getByRole('status').filter({ hasText: 'waiting for an album' })).toHaveCount(0);

  // Signed out again, a share sent now comes back to its page straight after signing in.
  await page.goto('/account');
  await page.getByRole('region', { name: 'Signed-in devices' }).getByRole('button', { name: 'Sign out this device' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await shareFiles(page, baseURL!, SHARED.slice(0, 2));
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await page.getByLabel('Email').fill(ana.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/share-target\?inbox=[0-9a-f-]{36}$/);
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list.getByText('chelsea.png', { exact: true })).toBeVisible();
  await context.close();
});

test('files shared to Ana and left waiting go when she signs out: Bea, next on the browser, is offered none', async ({ world, signIn, baseURL }) => {
  const [ana, bea] = await Promise.all([world.newPerson('Ana'), world.newPerson('Bea')]);
  const context = await launchInstalled(profile, baseURL!);
  const page = await signIn(context, ana);
  await createAlbum(page, 'Harbour');
  await controlledByWorker(page);
  await shareFiles(page, baseURL!, SHARED);
  await expect(page).toHaveURL(/\/share-target\?inbox=[0-9a-f-]{36}$/);
  const anasShare = page.url();
  await page.goto('/');
  await expect(page.getByRole('status').filter({ hasText: '3 shared files are waiting for an album.' })).toBeVisible();

  await page.goto('/account');
  await page.getByRole('region', { name: 'Signed-in devices' }).getByRole('button', { name: 'Sign out this device' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.getByLabel('Email').fill(bea.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).not.toHaveURL(/\/sign-in/);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'No albums yet' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'waiting for an album' })).toHaveCount(0);
  // Not by the share's own address either.
  await page.goto(anasShare);
  await expect(page.getByRole('heading', { name: 'Nothing waiting here' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Shared files' })).toHaveCount(0);
  await page.goto('/share-target');
  await expect(page.getByRole('heading', { name: 'Nothing was shared' })).toBeVisible();
  await context.close();
});
