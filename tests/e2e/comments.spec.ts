import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './csp-test';
import { addFiles, createAlbum, expectItemCount, fixture, tile } from './helpers';

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

test('two tabs of one browser see each other\'s comments and hearts live, on tiles, in the viewer and in the favourites filter', async ({ page }) => {
  await createAlbum(page, 'Two tabs');
  await addFiles(page, [fixture('orientation-1.jpg'), fixture('orientation-6.jpg')]);
  await expectItemCount(page, 2);
  const names = await page.getByRole('gridcell').evaluateAll((cells) => cells.map((c) => c.getAttribute('aria-label') ?? ''));
  await tile(page, names[0]!).click();
  await expect(page.getByRole('dialog')).toHaveAccessibleName(names[0]!);
  const itemUrl = page.url();

  const other = await page.context().newPage();
  await other.goto(itemUrl);
  await expect(other.getByRole('dialog')).toHaveAccessibleName(names[0]!);
  await other.getByTestId('comments-toggle').click();
  await expect(other.getByTestId('comments-panel')).toContainText('No comments yet.');

  // A comment in the first tab shows in the second, without a reload.
  await page.getByTestId('comments-toggle').click();
  await page.getByRole('textbox', { name: 'Add a comment' }).fill('Look at https://example.org/map for the route');
  await page.getByRole('button', { name: 'Send' }).click();
  const shown = other.getByTestId('comments-panel').locator('.comment__body');
  await expect(shown).toHaveText('Look at https://example.org/map for the route', { timeout: 2_000 });
  await expect(shown.getByRole('link')).toHaveAttribute('href', 'https://example.org/map');
  await expect(other.getByTestId('comments-toggle')).toHaveAccessibleName('Comments (1)');

  // A heart given in the second tab shows in the first (one profile on this device: it is the same person's).
  await other.getByTestId('favorite-button').click();
  await expect(page.getByTestId('favorite-count')).toHaveText('1', { timeout: 2_000 });
  await expect(page.getByTestId('favorite-button')).toHaveAttribute('aria-pressed', 'true');

  expect(await seriousViolations(page)).toEqual([]);

  // Back on the grid, the tile carries both; the favourites filter keeps only it, in the address too.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(tile(page, `${names[0]}, 1 comment, 1 heart, yours among them`).getByTestId('tile-social')).toContainText('1');
  await page.getByTestId('filter-favorites').click();
  await expect(page).toHaveURL(/filter=favorites/);
  await expect(page.getByRole('gridcell')).toHaveCount(1);

  // Taking the heart back in the other tab empties the filter here once it reads again.
  await other.keyboard.press('f');
  await expect(other.getByTestId('favorite-button')).toHaveAttribute('aria-pressed', 'false');
  await page.reload();
  await expect(page.getByTestId('filtered-empty')).toContainText('No favourites yet');
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Show everything' }).click();
  await expect(page.getByRole('gridcell')).toHaveCount(2);
  await other.close();
});
