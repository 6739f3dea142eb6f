import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './csp-test';
import { addFiles, createAlbum, expectItemCount, fixture, tile } from './helpers';

test('the home screen says what happened in which album, links there, and shows who added an item, with no serious accessibility violation', async ({ page }) => {
  const albumId = await createAlbum(page, 'Lisbon');
  await addFiles(page, [fixture('orientation-1.jpg'), fixture('tiny.pdf')]);
  await expectItemCount(page, 2);

  await page.goto('/');
  const activity = page.getByRole('region', { name: 'Recent activity' });
  const added = activity.getByRole('listitem').filter({ hasText: 'added 2 items to Lisbon' });
  await expect(added).toBeVisible();
  await expect(added.locator('time')).toHaveText('just now');
  await expect(added.locator('time')).toHaveAttribute('title', /\d/);
  await expect(activity.getByRole('listitem').filter({ hasText: 'created Lisbon' })).toBeVisible();
  // On this device one person does everything: nothing is ever unread.
  await expect(page.getByTestId('unread-badge')).toHaveCount(0);

  const result = await new AxeBuilder({ page }).analyze();
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
  expect(serious).toEqual([]);

  await added.getByRole('link', { name: 'Lisbon' }).click();
  await expect(page).toHaveURL(new RegExp(`/albums/${albumId}$`));
  await expect(tile(page, 'orientation-1.jpg')).toHaveAttribute('title', /Added by /);
  await tile(page, 'orientation-1.jpg').click();
  await page.getByRole('button', { name: 'Details' }).click();
  const details = page.getByRole('complementary', { name: 'Details' });
  await expect(details.getByText(/^Added by$/)).toBeVisible();
  await expect(details.locator('dd').filter({ hasText: / · / }).first()).toBeVisible();
});
