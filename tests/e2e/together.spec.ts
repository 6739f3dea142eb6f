import type { SupabaseClient } from '@supabase/supabase-js';
import type { Browser, Page } from '@playwright/test';
import { addFiles, createAlbum, expectItemCount, fixture, tile } from './helpers';
import { expect, test, type Person, type SignIn, type SupabaseWorld } from './supabase-world';

// Two people, Ana and Ben, each in a browser of their own, on one emulated Supabase project (supabase-world.ts).
// Ana's album is shared with Ben by an invitation made and accepted through the project's API: the invitation
// screens are tested on their own, and this file is about what two people see of each other's work.

type Role = 'editor' | 'contributor' | 'viewer';

async function rpc(client: SupabaseClient, name: string, args: Record<string, unknown>): Promise<unknown> {
  const { data, error } = await client.rpc(name, args);
  if (error) throw new Error(`${name}: ${error.message}`);
  return data;
}

/** `member` joins `owner`'s album with `role` through an invitation link, as opening it would. */
async function share(world: SupabaseWorld, owner: Person, member: Person, albumId: string, role: Role): Promise<void> {
  const created = (await rpc(await world.api(owner), 'create_invite', { p_album_id: albumId, p_role: role })) as { token: string }[];
  await rpc(await world.api(member), 'accept_invite', { p_token: created[0]!.token });
}

interface Pair {
  ana: Person;
  ben: Person;
  anaPage: Page;
  benPage: Page;
  albumId: string;
}

/** Ana signs in, makes an album and adds a photo; Ben signs in, joins it with `role` and opens it. */
async function anaSharesWithBen(browser: Browser, world: SupabaseWorld, signIn: SignIn, role: Role): Promise<Pair> {
  const [ana, ben] = await Promise.all([world.newPerson('Ana'), world.newPerson('Ben')]);
  const anaPage = await signIn(await browser.newContext(), ana);
  const albumId = await createAlbum(anaPage, 'Lisbon');
  await addFiles(anaPage, [fixture('orientation-1.jpg')]);
  await expect(tile(anaPage, 'orientation-1.jpg').locator('img.tile__thumb')).toBeVisible({ timeout: 60_000 });
  await share(world, ana, ben, albumId, role);
  const benPage = await signIn(await browser.newContext(), ben);
  await benPage.goto(`/albums/${albumId}`);
  await expect(benPage.getByRole('heading', { level: 1, name: 'Lisbon' })).toBeVisible();
  return { ana, ben, anaPage, benPage, albumId };
}

/** Notes, on the page's own clock, the moment a tile named `filename` enters its grid. */
async function noteArrival(page: Page, filename: string): Promise<void> {
  await page.evaluate((name) => {
    const w = window as unknown as { arrivedAt?: number };
    const seen = () => document.querySelector(`[role="gridcell"][aria-label="${CSS.escape(name)}"]`);
    new MutationObserver((_, observer) => {
      if (!seen()) return;
      w.arrivedAt = performance.timeOrigin + performance.now();
      observer.disconnect();
    }).observe(document.body, { childList: true, subtree: true, attributes: true });
  }, filename);
}

const arrivedAt = (page: Page) => page.evaluate(() => (window as unknown as { arrivedAt?: number }).arrivedAt ?? NaN);

test.describe('two people on one Supabase project', () => {
  // Two browsers, uploads through the media pipeline and the bucket: longer than one person's flows.
  test.describe.configure({ timeout: 180_000 });

  test('Ana shares an album with Ben, and Ben sees her photo with its thumbnail from the bucket', async ({ browser, world, signIn }) => {
    const { benPage } = await anaSharesWithBen(browser, world, signIn, 'contributor');
    await expectItemCount(benPage, 1);
    await expect(tile(benPage, 'orientation-1.jpg').locator('img.tile__thumb')).toBeVisible();
    await expect.poll(() => tile(benPage, 'orientation-1.jpg').locator('img.tile__thumb').evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0);
  });

  test("a photo Ana adds while Ben has the album open is in Ben's grid within a second of being in hers", async ({ browser, world, signIn }) => {
    const { anaPage, benPage } = await anaSharesWithBen(browser, world, signIn, 'contributor');
    await expectItemCount(benPage, 1);
    await noteArrival(anaPage, 'orientation-6.jpg');
    await noteArrival(benPage, 'orientation-6.jpg');
    await addFiles(anaPage, [fixture('orientation-6.jpg')]);
    await expect(tile(anaPage, 'orientation-6.jpg')).toBeVisible({ timeout: 60_000 });
    await expect(tile(benPage, 'orientation-6.jpg')).toBeVisible({ timeout: 10_000 });
    // Both pages run in one browser on one machine: their clocks agree, and the runner's own delays do not count.
    const gap = (await arrivedAt(benPage)) - (await arrivedAt(anaPage));
    test.info().annotations.push({ type: 'gap', description: `${Math.round(gap)} ms from Ana's grid to Ben's` });
    expect(gap).toBeLessThanOrEqual(1000);
  });

  test("when Ana makes Ben a viewer, Ben's Add button goes away without a reload", async ({ browser, world, signIn }) => {
    const { ana, ben, benPage, albumId } = await anaSharesWithBen(browser, world, signIn, 'contributor');
    const add = benPage.getByRole('button', { name: 'Add', exact: true });
    await expect(add).toBeVisible();
    await benPage.evaluate(() => ((window as unknown as { notReloaded?: boolean }).notReloaded = true));
    await rpc(await world.api(ana), 'set_member_role', { p_album_id: albumId, p_user_id: ben.id, p_role: 'viewer' });
    await expect(add).toHaveCount(0);
    // Still the same document: the role came live, not from opening the page again.
    expect(await benPage.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await expect(benPage.getByRole('heading', { level: 1, name: 'Lisbon' })).toBeVisible();
  });

  test('Ben adds a photo and leaves keeping it: Ana still has it, and Ben no longer has the album', async ({ browser, world, signIn }) => {
    const { ben, anaPage, benPage, albumId } = await anaSharesWithBen(browser, world, signIn, 'contributor');
    await addFiles(benPage, [fixture('orientation-3.jpg')]);
    await expect(tile(benPage, 'orientation-3.jpg')).toBeVisible({ timeout: 60_000 });
    await expect(tile(anaPage, 'orientation-3.jpg')).toBeVisible({ timeout: 10_000 });

    await rpc(await world.api(ben), 'leave_album', { p_album_id: albumId, p_keep_items: true });
    await anaPage.reload();
    await expectItemCount(anaPage, 2);
    await expect(tile(anaPage, 'orientation-3.jpg').locator('img.tile__thumb')).toBeVisible();
    await benPage.goto('/');
    await expect(benPage.getByRole('heading', { name: 'No albums yet' })).toBeVisible();
  });
});
