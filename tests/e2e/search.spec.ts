/**
 * Search on the local backend, end to end: keywords given to a selection in two albums are found from the search
 * across albums (reached with `/`), the results open in the viewer and step through, and the search lives in the
 * address (reload, Back). An album's own search narrows its grid and gives it back.
 */
import { expect, test, type Page } from '@playwright/test';
import { addFiles, createAlbum, expectItemCount, fixture, tile } from './helpers';

async function addKeywordToSelection(page: Page, filenames: string[], keyword: string, rating?: string) {
  for (const name of filenames) await tile(page, name).click({ modifiers: ['ControlOrMeta'] });
  await expect(page.getByText(`${filenames.length} selected`)).toBeVisible();
  await page.getByRole('button', { name: 'Edit details' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Add keywords').fill(keyword);
  if (rating) await dialog.getByLabel('Rating').selectOption(rating);
  await dialog.getByRole('button', { name: 'Apply' }).click();
  await expect(dialog).toHaveCount(0);
  await page.keyboard.press('Escape');
}

test('keywords given to selections in two albums are found by a search across both, which opens in the viewer', async ({ page }) => {
  test.setTimeout(180_000);
  await createAlbum(page, 'Lisbon');
  await addFiles(page, [fixture('orientation-1.jpg'), fixture('orientation-3.jpg')]);
  await expectItemCount(page, 2);
  await addKeywordToSelection(page, ['orientation-1.jpg'], 'Ribeira walk');

  await createAlbum(page, 'Porto');
  await addFiles(page, [fixture('location/rocket.jpg'), fixture('location/coffee.webp'), fixture('location/chelsea.png')]);
  await expectItemCount(page, 3);
  await addKeywordToSelection(page, ['rocket.jpg', 'coffee.webp'], 'Ribeira', '4');

  // `/` from the albums screen goes to the search across albums, its box ready for typing.
  await page.goto('/');
  await page.getByRole('heading', { level: 1, name: 'Albums' }).waitFor();
  await page.keyboard.press('/');
  await expect(page).toHaveURL(/\/search$/);
  const box = page.getByRole('searchbox', { name: 'Search your albums' });
  await expect(box).toBeFocused();
  await page.keyboard.type('ribei');
  await expect(page).toHaveURL(/\/search\?q=ribei$/);
  const results = page.getByRole('grid', { name: 'Search results' }).getByRole('gridcell');
  await expect(results).toHaveCount(3);
  for (const name of ['orientation-1.jpg', 'rocket.jpg', 'coffee.webp']) await expect(tile(page, name)).toBeVisible();
  await expect(page.getByText('3 items')).toBeVisible();

  // Two words: both must be found.
  await box.fill('ribeira walk');
  await expect(results).toHaveCount(1);
  await expect(tile(page, 'orientation-1.jpg')).toBeVisible();

  // A rating narrows it; the filters live in the address too, and a reload shows the same.
  await box.fill('ribeira');
  await expect(results).toHaveCount(3);
  await page.getByRole('button', { name: 'Filters' }).click();
  await page.getByLabel('Rating').selectOption('4');
  await expect(results).toHaveCount(2);
  await expect(page).toHaveURL(/q=ribeira.*rating=4|rating=4.*q=ribeira/);
  await page.reload();
  await expect(page.getByRole('searchbox', { name: 'Search your albums' })).toHaveValue('ribeira');
  await expect(results).toHaveCount(2);

  // A result opens in the viewer, which steps through the results, and closes back onto them.
  const [first, second] = [await results.nth(0).getAttribute('aria-label'), await results.nth(1).getAttribute('aria-label')];
  expect([first, second].sort()).toEqual(['coffee.webp', 'rocket.jpg']);
  await results.nth(0).click();
  const viewer = page.getByRole('dialog');
  await expect(viewer.getByText(first!).first()).toBeVisible();
  await expect(page).toHaveURL(/\/search\/albums\/[^/]+\/items\/[^/?]+\?/);
  await page.keyboard.press('ArrowRight');
  await expect(viewer.getByText(second!).first()).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);
  await expect(results).toHaveCount(2);

  // Nothing matches: said so.
  await page.getByRole('searchbox', { name: 'Search your albums' }).fill('nowhere');
  await expect(page.getByText('No matches')).toBeVisible();
});

test("an album's own search narrows its grid to what matches, and gives the album back when cleared", async ({ page }) => {
  test.setTimeout(120_000);
  await createAlbum(page, 'Mixed');
  await addFiles(page, [fixture('orientation-1.jpg'), fixture('orientation-3.jpg'), fixture('location/chelsea.png')]);
  await expectItemCount(page, 3);
  const cells = page.getByRole('grid', { name: 'Mixed' }).getByRole('gridcell');
  await expect(cells).toHaveCount(3);
  // `/` in an album goes to its own search box.
  await page.keyboard.press('/');
  const box = page.getByRole('searchbox', { name: 'Search this album' });
  await expect(box).toBeFocused();
  // The camera's model is a word of its photos.
  await page.keyboard.type('fixture one');
  await expect(cells).toHaveCount(2);
  await expect(tile(page, 'chelsea.png')).toHaveCount(0);
  await box.fill('chel');
  await expect(cells).toHaveCount(1);
  await expect(tile(page, 'chelsea.png')).toBeVisible();
  await box.fill('zebra');
  await expect(page.getByText('Nothing in this album matches')).toBeVisible();
  await page.getByRole('button', { name: 'Clear the search' }).click();
  await expect(cells).toHaveCount(3);
  await expect(box).toHaveValue('');
});
