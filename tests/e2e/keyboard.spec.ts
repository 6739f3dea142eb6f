import type { FileChooser } from '@playwright/test';
import { expect, test } from './csp-test';
import { addFiles, createAlbum, expectItemCount, fixture, tile } from './helpers';

test('closing the viewer puts focus back on the tile of the item last shown', async ({ page }) => {
  await createAlbum(page, 'Focus');
  await addFiles(page, [fixture('orientation-1.jpg'), fixture('orientation-3.jpg'), fixture('tiny.pdf')]);
  await expectItemCount(page, 3);
  const cells = page.getByRole('gridcell');
  const viewer = page.getByRole('dialog');

  // Opened with the keyboard, closed with Escape: focus is where it was.
  await cells.first().focus();
  const first = (await cells.first().getAttribute('aria-label')) ?? '';
  await page.keyboard.press('Enter');
  await expect(viewer).toHaveAccessibleName(first);
  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);
  await expect(tile(page, first)).toBeFocused();

  // Stepped to another item: focus lands on that item's tile, and the arrow keys carry on from there.
  // Where focus is the moment the viewer enters the page, before anything else can run: a key pressed as soon
  // as it shows must reach the viewer, not the tile behind it (which would take an arrow key as its own).
  await page.evaluate(() => {
    const w = window as unknown as { focusOnShow?: string };
    new MutationObserver((changes, observer) => {
      const dialog = document.querySelector('[role="dialog"]');
      if (!dialog) return;
      w.focusOnShow = dialog.contains(document.activeElement) ? 'viewer' : (document.activeElement?.getAttribute('aria-label') ?? 'page');
      observer.disconnect();
    }).observe(document.body, { childList: true, subtree: true });
  });
  await page.keyboard.press('Enter');
  expect(await page.waitForFunction(() => (window as unknown as { focusOnShow?: string }).focusOnShow).then((h) => h.jsonValue())).toBe('viewer');
  await expect(viewer).toHaveAccessibleName(first);
  await page.keyboard.press('ArrowRight');
  await expect(viewer).not.toHaveAccessibleName(first);
  const shown = (await viewer.getAttribute('aria-label')) ?? '';
  await viewer.getByRole('button', { name: 'Close' }).click();
  await expect(viewer).toHaveCount(0);
  await expect(tile(page, shown)).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(tile(page, first)).toBeFocused();
});

test('the Add menu works from the keyboard: it opens onto its first choice, arrows move, Escape closes it back onto its button', async ({ page }) => {
  // Listening from the start, so the file chooser is caught however soon it opens.
  const choosers: FileChooser[] = [];
  page.on('filechooser', (c) => choosers.push(c));
  await createAlbum(page, 'Add by keyboard');
  // While its menu is open, the page (the button too) is hidden from assistive technology, as under a dialog.
  const add = page.getByRole('button', { name: 'Add', exact: true, includeHidden: true }).first();
  await add.focus();
  await page.keyboard.press('Enter');
  await expect(add).toHaveAttribute('aria-expanded', 'true');

  // The menu opens onto its first choice, which opens the file chooser with Enter.
  const menu = page.getByRole('menu', { name: 'Add' });
  await expect(menu.getByRole('menuitem', { name: 'Files…' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect.poll(() => choosers.length).toBe(1);
  await choosers[0]?.setFiles(fixture('orientation-1.jpg'));
  await expectItemCount(page, 1);

  // Arrow keys move between the choices; Escape closes the menu back onto its button.
  await add.focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Folder…' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Camera' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(add).toHaveAttribute('aria-expanded', 'false');
  await expect(add).toBeFocused();
});

test('Tab stays within the open viewer instead of reaching the page hidden behind it', async ({ page }) => {
  await createAlbum(page, 'Trapped');
  await addFiles(page, [fixture('orientation-1.jpg'), fixture('orientation-3.jpg')]);
  await expectItemCount(page, 2);
  await page.getByRole('gridcell').first().click();
  const viewer = page.getByRole('dialog');
  await expect(viewer).toBeVisible();
  for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
    await page.keyboard.press(key);
    expect(await viewer.evaluate((v) => v.contains(document.activeElement) || document.activeElement === document.body), `focus after ${key}`).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);
  await expect(page.getByRole('gridcell').first()).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByRole('gridcell').first()).not.toBeFocused();
});
