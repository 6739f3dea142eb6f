import type { SupabaseClient } from '@supabase/supabase-js';
import type { Browser, Page } from '@playwright/test';
import { addFiles, createAlbum, expectItemCount, fixture, tile } from './helpers';
import { expect, test, type Person, type SignIn, type SupabaseWorld } from './supabase-world';

// Two people, Ana and Ben, each in a browser of their own, on one emulated Supabase project (supabase-world.ts).
// The first test shares through the screens (the settings' invitation link, the invite page); the others share
// through the project's API, to spend their time on what two people see of each other's work.

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

/** Notes, on the page's own clock, the moment `selector` first matches an element whose text includes `text`. */
async function noteText(page: Page, selector: string, text: string): Promise<void> {
  await page.evaluate(([sel, want]) => {
    const w = window as unknown as { textAt?: number };
    delete w.textAt;
    const seen = () => [...document.querySelectorAll(sel)].some((el) => el.textContent?.includes(want));
    new MutationObserver((_, observer) => {
      if (!seen()) return;
      w.textAt = performance.timeOrigin + performance.now();
      observer.disconnect();
    }).observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true });
  }, [selector, text] as const);
}

const textAt = (page: Page) => page.evaluate(() => (window as unknown as { textAt?: number }).textAt ?? NaN);

/** Both people's pages share one clock: how long after `first`'s moment `second`'s came. */
async function gapMs(first: Page, second: Page, what: string): Promise<number> {
  const gap = (await textAt(second)) - (await textAt(first));
  test.info().annotations.push({ type: 'gap', description: `${what}: ${Math.round(gap)} ms` });
  return gap;
}

test.describe('two people on one Supabase project', () => {
  // Two browsers, uploads through the media pipeline and the bucket: longer than one person's flows.
  test.describe.configure({ timeout: 180_000 });

  test('Ana invites Ben with a link from the settings; Ben opens it, joins, and sees her photo with its thumbnail from the bucket', async ({ browser, world, signIn }) => {
    const [ana, ben] = await Promise.all([world.newPerson('Ana'), world.newPerson('Ben')]);
    const anaPage = await signIn(await browser.newContext(), ana);
    const albumId = await createAlbum(anaPage, 'Lisbon');
    await addFiles(anaPage, [fixture('orientation-1.jpg')]);
    await expect(tile(anaPage, 'orientation-1.jpg').locator('img.tile__thumb')).toBeVisible({ timeout: 60_000 });

    await anaPage.getByRole('link', { name: 'Settings' }).click();
    await expect(anaPage).toHaveURL(new RegExp(`/albums/${albumId}/settings$`));
    const byLink = anaPage.getByRole('form', { name: 'Invite by link' });
    await byLink.getByLabel('Role').selectOption('contributor');
    await byLink.getByRole('button', { name: 'Create invitation link' }).click();
    const link = await anaPage.getByRole('textbox', { name: 'Invitation link' }).inputValue();
    expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{22,}$/);
    await expect(anaPage.getByRole('img', { name: 'QR code of the invitation link' })).toBeVisible();

    const benPage = await signIn(await browser.newContext(), ben);
    await benPage.goto(new URL(link).pathname);
    await expect(benPage.getByRole('heading', { level: 1, name: 'Ana invited you to “Lisbon”' })).toBeVisible();
    await benPage.getByRole('button', { name: 'Join album' }).click();
    await expect(benPage).toHaveURL(new RegExp(`/albums/${albumId}$`));
    await expect(benPage.getByRole('heading', { level: 1, name: 'Lisbon' })).toBeVisible();
    // A contributor: Ben may add.
    await expect(benPage.getByRole('button', { name: 'Add', exact: true })).toBeVisible();
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

  test('with the album open, each sees the other among the people looking, by the name the project has for them', async ({ browser, world, signIn }) => {
    const { anaPage, benPage } = await anaSharesWithBen(browser, world, signIn, 'viewer');
    await expect(benPage.getByRole('list', { name: 'Looking now' }).getByRole('listitem')).toHaveAttribute('title', 'Ana', { timeout: 10_000 });
    await expect(anaPage.getByRole('list', { name: 'Looking now' }).getByRole('listitem')).toHaveAttribute('title', 'Ben', { timeout: 10_000 });
  });

  test("when Ana makes Ben a viewer, Ben's Add button goes away without a reload", async ({ browser, world, signIn }) => {
    const { anaPage, benPage, albumId } = await anaSharesWithBen(browser, world, signIn, 'contributor');
    const add = benPage.getByRole('button', { name: 'Add', exact: true });
    await expect(add).toBeVisible();
    await benPage.evaluate(() => ((window as unknown as { notReloaded?: boolean }).notReloaded = true));
    await anaPage.goto(`/albums/${albumId}/settings`);
    await anaPage.getByRole('button', { name: 'Change Ben' }).click();
    await anaPage.getByRole('menuitem', { name: 'Make viewer' }).click();
    await expect(add).toHaveCount(0);
    // Still the same document: the role came live, not from opening the page again.
    expect(await benPage.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await expect(benPage.getByRole('heading', { level: 1, name: 'Lisbon' })).toBeVisible();
  });

  test('Ben adds a photo and leaves keeping it: Ana still has it, and Ben no longer has the album', async ({ browser, world, signIn }) => {
    const { anaPage, benPage, albumId } = await anaSharesWithBen(browser, world, signIn, 'contributor');
    await addFiles(benPage, [fixture('orientation-3.jpg')]);
    await expect(tile(benPage, 'orientation-3.jpg')).toBeVisible({ timeout: 60_000 });
    await expect(tile(anaPage, 'orientation-3.jpg')).toBeVisible({ timeout: 10_000 });

    await benPage.goto(`/albums/${albumId}/settings`);
    await benPage.getByRole('button', { name: 'Leave album' }).click();
    const dialog = benPage.getByRole('dialog', { name: 'Leave “Lisbon”?' });
    await expect(dialog.getByRole('radio', { name: 'Keep the photos and files you added in the album' })).toBeChecked();
    await dialog.getByRole('button', { name: 'Leave album' }).click();
    await expect(benPage.getByText('You left “Lisbon”.', { exact: true })).toBeVisible();
    await anaPage.reload();
    await expectItemCount(anaPage, 2);
    await expect(tile(anaPage, 'orientation-3.jpg').locator('img.tile__thumb')).toBeVisible();
    await benPage.goto('/');
    await expect(benPage.getByRole('heading', { name: 'No albums yet' })).toBeVisible();
  });

  test("a comment Ana writes and a heart Ben gives show on the other's screen within a second", async ({ browser, world, signIn }) => {
    const { anaPage, benPage, albumId } = await anaSharesWithBen(browser, world, signIn, 'viewer');
    await expectItemCount(benPage, 1);
    // Both look at the photo with its comments open.
    await tile(anaPage, 'orientation-1.jpg').click();
    await expect(anaPage).toHaveURL(/\/items\//);
    const itemPath = new URL(anaPage.url()).pathname;
    expect(itemPath).toMatch(new RegExp(`^/albums/${albumId}/items/`));
    await benPage.goto(itemPath);
    for (const page of [anaPage, benPage]) {
      await page.getByTestId('comments-toggle').click();
      await expect(page.getByTestId('comments-panel')).toContainText('No comments yet.');
    }

    await noteText(anaPage, '.comment__body', 'Dinner was here');
    await noteText(benPage, '.comment__body', 'Dinner was here');
    await anaPage.getByRole('textbox', { name: 'Add a comment' }).fill('Dinner was here, see https://example.org/tasca');
    await anaPage.getByRole('button', { name: 'Send' }).click();
    const onBen = benPage.getByTestId('comments-panel').locator('.comment__body');
    await expect(onBen).toHaveText('Dinner was here, see https://example.org/tasca', { timeout: 5_000 });
    await expect(benPage.getByTestId('comments-panel')).toContainText('Ana');
    expect(await gapMs(anaPage, benPage, "Ana's comment to Ben's screen")).toBeLessThanOrEqual(1000);

    // A viewer gives hearts too; Ana sees Ben's, and it is not hers.
    await noteText(benPage, '[data-testid="favorite-count"]', '1');
    await noteText(anaPage, '[data-testid="favorite-count"]', '1');
    await benPage.keyboard.press('f');
    await expect(benPage.getByTestId('favorite-button')).toHaveAttribute('aria-pressed', 'true');
    await expect(anaPage.getByTestId('favorite-count')).toHaveText('1', { timeout: 5_000 });
    await expect(anaPage.getByTestId('favorite-button')).toHaveAttribute('aria-pressed', 'false');
    expect(await gapMs(benPage, anaPage, "Ben's heart to Ana's screen")).toBeLessThanOrEqual(1000);
    await anaPage.getByTestId('favorite-count').click();
    await expect(anaPage.getByRole('list', { name: 'Who gave a heart' })).toHaveText('Ben');
  });

  test("the title and keyword Ana gives her photo show in Ben's open details without a reload; Ben, a viewer, cannot edit", async ({ browser, world, signIn }) => {
    const { anaPage, benPage, albumId } = await anaSharesWithBen(browser, world, signIn, 'viewer');
    await expectItemCount(benPage, 1);
    await tile(anaPage, 'orientation-1.jpg').click();
    await expect(anaPage).toHaveURL(/\/items\//);
    await benPage.goto(new URL(anaPage.url()).pathname);
    for (const page of [anaPage, benPage]) {
      await page.getByRole('button', { name: 'Details' }).click();
      await expect(page.getByRole('complementary', { name: 'Details' })).toBeVisible();
    }
    await expect(benPage.getByRole('complementary', { name: 'Details' }).getByRole('textbox')).toHaveCount(0);

    await anaPage.getByLabel('Title', { exact: true }).fill('Tram 28');
    await anaPage.getByLabel('Add a keyword').fill('Alfama');
    await anaPage.getByLabel('Add a keyword').press('Enter');
    const benDetails = benPage.getByRole('complementary', { name: 'Details' });
    await expect(benDetails).toContainText('Tram 28', { timeout: 5_000 });
    await expect(benDetails).toContainText('Alfama', { timeout: 5_000 });
    // A viewer's keys 0–5 rate nothing.
    await benPage.keyboard.press('5');
    await expect(anaPage.getByRole('radio', { name: '5 stars' })).toHaveAttribute('aria-checked', 'false');
    await anaPage.getByRole('heading', { name: 'Details' }).click();
    await anaPage.keyboard.press('4');
    await expect(benDetails).toContainText('★★★★', { timeout: 5_000 });
    // Her edits are written into the sidecar beside the original, through storage-sign into the S3 bucket.
    const itemId = new URL(anaPage.url()).pathname.split('/').pop()!;
    await expect.poll(() => world.bucketHas(`albums/${albumId}/${itemId}/original.xmp`), { timeout: 10_000 }).toBe(true);
  });
});
