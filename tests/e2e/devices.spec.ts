/**
 * Signed-in devices on /account, end to end: the production build in Chromium, one account on several
 * browsers (each context with a user agent of its own) against the emulated Supabase project
 * (supabase-world.ts), and the local backend's one device. Screenshots of the list go to /tmp/shots-devices/.
 */
import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { expect, test } from './supabase-world';

const WINDOWS_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const PIXEL_CHROME = 'Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0.0.0 Mobile Safari/537.36';
const MAC_FIREFOX = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0';
const SHOTS = '/tmp/shots-devices';

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

const devicesOf = (page: Page) => page.getByRole('list', { name: 'Signed-in devices' });

test('one account on two browsers: each is listed with its label and when seen; one signs the other out, which lands on sign-in with a notice', async ({ browser, world, signIn }) => {
  mkdirSync(SHOTS, { recursive: true });
  const ada = await world.newPerson('Ada');
  const desk = await browser.newContext({ userAgent: WINDOWS_CHROME, viewport: { width: 1280, height: 800 } });
  const phone = await browser.newContext({ userAgent: PIXEL_CHROME, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  // The phone's clock is the test's to move: its access token (an hour) runs out when the test says.
  await phone.clock.install();
  const deskPage = await signIn(desk, ada);
  const phonePage = await signIn(phone, ada);

  await deskPage.goto('/account');
  const list = devicesOf(deskPage);
  await expect(list.getByRole('listitem')).toHaveCount(2);
  const here = list.getByRole('listitem').filter({ hasText: 'This device' });
  // Playwright's user agent override sends matching Client Hints, platform version "10.0": Windows 10, as
  // versions 1 to 12 are (13 and up are Windows 11).
  await expect(here.getByText('Chrome 131 on Windows 10', { exact: true })).toBeVisible();
  await expect(here).toContainText('Computer · In the browser · Active now');
  const other = list.getByRole('listitem').filter({ hasText: 'Chrome 116 on Android, Pixel 7' });
  await expect(other).toContainText(/Phone · In the browser · Last seen (just now|\d+ minutes? ago)/);
  expect(await seriousViolations(deskPage)).toEqual([]);
  await deskPage.screenshot({ path: `${SHOTS}/devices-desktop.png`, fullPage: true });

  await phonePage.goto('/account');
  await expect(devicesOf(phonePage).getByRole('listitem').filter({ hasText: 'This device' })).toContainText('Chrome 116 on Android, Pixel 7');
  expect(await seriousViolations(phonePage)).toEqual([]);
  await phonePage.screenshot({ path: `${SHOTS}/devices-phone.png`, fullPage: true });

  await other.getByRole('button', { name: 'Sign out Chrome 116 on Android, Pixel 7' }).click();
  const dialog = deskPage.getByRole('dialog', { name: 'Sign out Chrome 116 on Android, Pixel 7?' });
  expect(await seriousViolations(deskPage)).toEqual([]);
  await dialog.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(deskPage.getByRole('status')).toContainText('Chrome 116 on Android, Pixel 7 has been signed out.');
  await expect(list.getByRole('listitem')).toHaveCount(1);

  // Left open in the background for an hour: the hourly check finds its session gone.
  await phonePage.clock.fastForward('01:05:00');
  await expect(phonePage).toHaveURL(/\/sign-in/, { timeout: 30_000 });
  await expect(phonePage.getByTestId('signed-out-elsewhere')).toContainText('You were signed out on this device');
  // The desk is still signed in.
  await deskPage.reload();
  await expect(list.getByRole('listitem')).toHaveCount(1);
});

test('signing out of all other devices keeps this one and signs the others out', async ({ browser, world, signIn }) => {
  const bo = await world.newPerson('Bo');
  const desk = await browser.newContext({ userAgent: WINDOWS_CHROME });
  const laptop = await browser.newContext({ userAgent: MAC_FIREFOX });
  const deskPage = await signIn(desk, bo);
  const laptopPage = await signIn(laptop, bo);
  await deskPage.goto('/account');
  const list = devicesOf(deskPage);
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list).toContainText('Firefox 133 on macOS');
  await deskPage.getByRole('button', { name: 'Sign out of all other devices' }).click();
  await deskPage.getByRole('dialog', { name: 'Sign out of all other devices?' }).getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(deskPage.getByRole('status')).toContainText('Your other devices have been signed out.');
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByRole('listitem')).toContainText('This device');
  // The laptop learns it at its next start, though its access token has most of its hour left.
  await laptopPage.reload();
  await expect(laptopPage).toHaveURL(/\/sign-in/, { timeout: 10_000 });
  await expect(laptopPage.getByTestId('signed-out-elsewhere')).toContainText('You were signed out on this device');
});

/** The page was in the background and is looked at again, as when a phone is unlocked or a tab is chosen. */
async function comesBack(page: Page): Promise<void> {
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
}

/**
 * Takes `context` offline for real: `setOffline` alone does not stop requests a route fulfils, and the
 * emulated project is reached through routes; they refuse while offline, as the network would.
 */
async function offlineSwitch(context: BrowserContext) {
  let offline = false;
  await context.route('https://emulated-project.supabase.test/**', (route) => (offline ? route.abort('internetdisconnected') : route.fallback()));
  return async (value: boolean) => {
    offline = value;
    await context.setOffline(value);
  };
}

test('a device signed out from another is at the sign-in screen, with the notice, as soon as it comes back to the screen', async ({ browser, world, signIn }) => {
  const ana = await world.newPerson('Ana');
  const desk = await browser.newContext({ userAgent: WINDOWS_CHROME });
  const phone = await browser.newContext({ userAgent: PIXEL_CHROME, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await phone.clock.install();
  const deskPage = await signIn(desk, ana);
  const phonePage = await signIn(phone, ana);
  await expect(phonePage.getByRole('heading', { name: 'Albums', level: 1 })).toBeVisible();

  await deskPage.goto('/account');
  const other = devicesOf(deskPage).getByRole('listitem').filter({ hasText: 'Chrome 116 on Android, Pixel 7' });
  await other.getByRole('button', { name: 'Sign out Chrome 116 on Android, Pixel 7' }).click();
  await deskPage.getByRole('dialog').getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(devicesOf(deskPage).getByRole('listitem')).toHaveCount(1);

  // A few minutes later, far inside the phone's hour of access, it is looked at again.
  await phonePage.clock.fastForward('04:00');
  await expect(phonePage.getByRole('heading', { name: 'Albums', level: 1 })).toBeVisible();
  await comesBack(phonePage);
  await expect(phonePage).toHaveURL(/\/sign-in/, { timeout: 5_000 });
  await expect(phonePage.getByTestId('signed-out-elsewhere')).toContainText('You were signed out on this device');
  // What it kept for Ana is gone: a reload stays at the sign-in screen.
  await phonePage.reload();
  await expect(phonePage.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await expect(phonePage).toHaveURL(/\/sign-in/);
});

test('a device that comes back to the screen offline, or reaches no auth server, stays signed in', async ({ browser, world, signIn }) => {
  const ana = await world.newPerson('Ana');
  const phone = await browser.newContext({ userAgent: PIXEL_CHROME, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await phone.clock.install();
  // The first start's own touch can still be on its way when the albums show (a busy machine): it is let
  // through before the next start's touch is held and counted.
  const firstTouches: string[] = [];
  phone.on('requestfinished', (r) => r.url().includes('/rest/v1/rpc/touch_device') && firstTouches.push(r.url()));
  const page = await signIn(phone, ana);
  const albums = page.getByRole('heading', { name: 'Albums', level: 1 });
  await expect(albums).toBeVisible();
  await expect.poll(() => firstTouches.length, { message: 'the first start-up touch was answered' }).toBe(1);

  // The app starts again on a slow network: its start-up touch of the devices row is still on its way when
  // the phone comes back to the screen, which must not hold back the session check.
  let releaseTouch = () => {};
  const touchHeld = new Promise<void>((resolve) => (releaseTouch = resolve));
  const touches: string[] = [];
  await phone.route('**/rest/v1/rpc/touch_device', async (route) => {
    touches.push(route.request().url());
    await touchHeld;
    await route.fallback();
  });
  await page.reload();
  await expect(albums).toBeVisible();
  await expect.poll(() => touches.length, { message: 'the start-up touch was sent' }).toBe(1);

  const setOffline = await offlineSwitch(phone);
  const failed: string[] = [];
  const answered: string[] = [];
  page.on('requestfailed', (r) => r.url().includes('/auth/v1/user') && failed.push(r.url()));
  page.on('requestfinished', (r) => r.url().includes('/auth/v1/user') && answered.push(r.url()));

  await setOffline(true);
  await page.clock.fastForward('04:00');
  await comesBack(page);
  await expect.poll(() => failed.length, { message: 'the session check was tried offline' }).toBeGreaterThan(0);
  await expect(page).not.toHaveURL(/\/sign-in/);
  await expect(albums).toBeVisible();
  releaseTouch();

  // Back online it is still signed in, and its session still stands.
  await setOffline(false);
  const answeredBefore = answered.length;
  await page.clock.fastForward('04:00');
  await comesBack(page);
  await expect.poll(() => answered.length, { message: 'the session check was answered online' }).toBeGreaterThan(answeredBefore);
  await expect(page).not.toHaveURL(/\/sign-in/);
  // A session the app had let go of (after either check) would show the sign-in screen here.
  await page.reload();
  await expect(albums).toBeVisible();
});

test('on the local backend the section shows this one device, with nothing to sign out', async ({ page }) => {
  await page.goto('/account');
  const section = page.getByRole('region', { name: 'This device' });
  const rows = section.getByRole('listitem');
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('This device');
  await expect(rows).toContainText('Active now');
  await expect(section.getByRole('button')).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
});
