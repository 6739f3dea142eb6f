import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './csp-test';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
}

/**
 * Chromium's install prompt as it comes: once, as soon as the page loads, before the app has drawn anything
 * (module scripts have run by DOMContentLoaded; the app renders after reading its config). Its prompt()
 * is counted in `window.__installPrompts`.
 */
async function offerPromptAtLoad(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __installPrompts: number };
    w.__installPrompts = 0;
    document.addEventListener('DOMContentLoaded', () => {
      const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
        prompt: () => {
          w.__installPrompts += 1;
          return Promise.resolve();
        },
        userChoice: Promise.resolve({ outcome: 'accepted', platform: 'web' }),
      });
      window.dispatchEvent(event);
    });
  });
}

test('the prompt Chromium offers before the app has drawn is caught: the header offers Install app, and dismissing it lasts', async ({ page }) => {
  await offerPromptAtLoad(page);
  await page.goto('/');
  const header = page.getByRole('banner');
  await expect(header.getByRole('button', { name: 'Install app' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await header.getByRole('button', { name: 'Don’t suggest installing again' }).click();
  await expect(header.getByRole('button', { name: 'Install app' })).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(header.getByRole('button', { name: 'Install app' })).toHaveCount(0);
});

test('Install app shows the browser’s prompt once; accepted, it is gone', async ({ page }) => {
  await offerPromptAtLoad(page);
  await page.goto('/');
  await page.getByRole('banner').getByRole('button', { name: 'Install app' }).click();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Install app' })).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __installPrompts: number }).__installPrompts)).toBe(1);
});

test.describe('on an iPhone', () => {
  test.use({ userAgent: IPHONE, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('Install app opens the Add to Home Screen steps, with no serious accessibility violations', async ({ page }) => {
    // Safari sends no client hints; this Chromium would, behind the iPhone user agent.
    await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'userAgentData', { get: () => undefined }));
    await page.goto('/');
    await page.getByRole('banner').getByRole('button', { name: 'Install app' }).click();
    const sheet = page.getByRole('dialog', { name: 'Add Shoebox to your Home Screen' });
    await expect(sheet).toContainText('Add to Home Screen');
    await expect(sheet).toContainText('Other apps cannot share photos into Shoebox');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
