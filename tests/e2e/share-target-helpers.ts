/** Sharing into Shoebox as the OS share sheet does, for the share-target end-to-end tests. */
import AxeBuilder from '@axe-core/playwright';
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.mjs';
import { expect } from './csp-test';
import { fixture } from './helpers';

export const SHARED = [fixture('location/rocket.jpg'), fixture('location/chelsea.png'), fixture('tiny.pdf')];

/**
 * Shares files as the OS share sheet does: a top-level navigation POSTing multipart/form-data to the
 * manifest's share_target action. Sent from a blank page (not ours, so not under our policy), with real files
 * from disk in the `files` field, as Android passes them.
 */
export async function shareFiles(page: Page, baseURL: string, files: string[]): Promise<void> {
  await page.goto('about:blank');
  await page.setContent(`
    <form method="post" action="${baseURL}/share-target" enctype="multipart/form-data">
      <input type="hidden" name="title" value="Holiday">
      <input type="file" name="files" multiple>
    </form>`);
  await page.locator('input[type=file]').setInputFiles(files);
  await page.locator('form').evaluate((f: HTMLFormElement) => f.submit());
}

export async function expectNoSeriousAxe(page: Page): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}


/**
 * A browser profile on disk, as an installed app runs in (an incognito context keeps IndexedDB in memory,
 * with references to the files given to it rather than copies). Closing it and launching again on the same
 * folder is closing and reopening the app.
 */
export function launchInstalled(profile: string, baseURL: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, { executablePath: chromiumPath(), args: chromiumArgs, baseURL });
}

export async function controlledByWorker(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}
