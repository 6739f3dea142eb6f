import { expect, test } from '@playwright/test';
import { addFiles, createAlbum, expectItemCount, fixture, tile } from './helpers';

test('closing the viewer puts focus back on the tile of the item last shown', async ({ page }) => {
  await createAlbum(page, 'Focus');
  await addFiles(page, [fixture('orientation-1.jpg'), fixture('orientation-3.jpg'), fixture('tiny.pdf')]);
  await expectItemCount(page, 3);
  const names = await page.getByRole('gridcell').evaluateAll((cells) => cells.map((c) => c.getAttribute('aria-label') ?? ''));

  // Opened with the keyboard, closed with Escape: focus is where it was.
  await tile(page, names[0] as string).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog')).toHaveAccessibleName(names[0] as string);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(tile(page, names[0] as string)).toBeFocused();

  // Stepped to another item: focus lands on that item's tile, and the arrow keys carry on from there.
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('dialog')).toHaveAccessibleName(names[1] as string);
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(tile(page, names[1] as string)).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(tile(page, names[2] as string)).toBeFocused();
});
