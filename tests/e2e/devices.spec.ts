/**
 * Signed-in devices on /account, end to end: the production build in Chromium, one account on several
 * browsers (each context with a user agent of its own) against the emulated Supabase project
 * (supabase-world.ts), and the local backend's one device. Screenshots of the list go to /tmp/shots-devices/.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
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

  // The phone keeps its page until its access token runs out; its refresh is then refused.
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
  await signIn(laptop, bo);
  await deskPage.goto('/account');
  const list = devicesOf(deskPage);
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list).toContainText('Firefox 133 on macOS');
  await deskPage.getByRole('button', { name: 'Sign out of all other devices' }).click();
  await deskPage.getByRole('dialog', { name: 'Sign out of all other devices?' }).getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(deskPage.getByRole('status')).toContainText('Your other devices have been signed out.');
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByRole('listitem')).toContainText('This device');
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
