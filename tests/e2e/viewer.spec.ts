import sharp from 'sharp';
import { expect, test } from './csp-test';
import { addFiles, createAlbum, expectItemCount, fixture, thumbPixel, tile } from './helpers';

test('the viewer steps through the album, deletes to the trash and restores from it', async ({ page }) => {
  const albumId = await createAlbum(page, 'Viewer');
  await addFiles(page, [fixture('orientation-1.jpg'), fixture('orientation-6.jpg'), fixture('xmp.jpg'), fixture('tiny.pdf')]);
  await expectItemCount(page, 4);

  const names = await page.getByRole('gridcell').evaluateAll((cells) => cells.map((c) => c.getAttribute('aria-label')));
  expect(names).toHaveLength(4);
  await tile(page, names[0] as string).click();
  const viewer = page.getByRole('dialog');
  await expect(viewer).toHaveAccessibleName(names[0] as string);
  await expect(page).toHaveURL(new RegExp(`/albums/${albumId}/items/`));

  await page.keyboard.press('ArrowRight');
  await expect(viewer).toHaveAccessibleName(names[1] as string);
  await page.keyboard.press('ArrowRight');
  await expect(viewer).toHaveAccessibleName(names[2] as string);
  await page.keyboard.press('ArrowLeft');
  await expect(viewer).toHaveAccessibleName(names[1] as string);
  // Keys pressed faster than the viewer renders each step all count: two presses in one go move two items.
  const pressTwice = (key: string) =>
    page.evaluate((k) => {
      for (let i = 0; i < 2; i++) window.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));
    }, key);
  await pressTwice('ArrowRight');
  await expect(viewer).toHaveAccessibleName(names[3] as string);
  await pressTwice('ArrowLeft');
  await expect(viewer).toHaveAccessibleName(names[1] as string);

  // Swipe (a horizontal drag) steps too, in both directions.
  const box = await viewer.boundingBox();
  if (!box) throw new Error('viewer has no box');
  const swipe = async (dx: number) => {
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + dx, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
  };
  await swipe(-250);
  await expect(viewer).toHaveAccessibleName(names[2] as string);
  await swipe(250);
  await expect(viewer).toHaveAccessibleName(names[1] as string);

  // Details show what the photographer and the camera recorded, and follow the viewer.
  await viewer.getByRole('button', { name: 'Details' }).click();
  const details = page.getByRole('complementary', { name: 'Details' });
  let at = 1;
  const goTo = async (name: string) => {
    const to = names.indexOf(name);
    for (; at < to; at++) await page.keyboard.press('ArrowRight');
    for (; at > to; at--) await page.keyboard.press('ArrowLeft');
    await expect(viewer).toHaveAccessibleName(name);
  };
  await goTo('xmp.jpg');
  // The owner may edit them: the photographer's fields are fields, holding what the file said.
  await expect(details.getByLabel('Title', { exact: true })).toHaveValue('Harbour at dusk & boats');
  await expect(details.locator('.chip')).toHaveText(['harbour', 'boats', 'dusk']);
  await goTo('orientation-6.jpg');
  await expect(details).toContainText('Shoebox Optics Fixture One');
  await expect(details).toContainText('2400 × 1600');

  // Zoom with the wheel and by double-click.
  const zoomable = viewer.locator('.zoomable');
  await zoomable.hover();
  await page.mouse.wheel(0, -400);
  await expect.poll(async () => Number(await zoomable.getAttribute('data-zoom'))).toBeGreaterThan(1.5);
  await zoomable.dblclick();
  await expect(zoomable).toHaveAttribute('data-zoom', '1.00');
  await zoomable.dblclick();
  await expect.poll(async () => Number(await zoomable.getAttribute('data-zoom'))).toBeGreaterThan(2);
  await zoomable.dblclick();

  // Back closes the viewer, in one step, whatever was viewed.
  await page.goBack();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`/albums/${albumId}$`));

  // Delete one to the trash from the viewer.
  await tile(page, names[1] as string).click();
  await expect(viewer).toHaveAccessibleName(names[1] as string);
  await viewer.getByRole('button', { name: 'Move to trash' }).click();
  await expect(viewer).not.toHaveAccessibleName(names[1] as string);
  await page.keyboard.press('Escape');
  await expectItemCount(page, 3);
  await expect(tile(page, names[1] as string)).toHaveCount(0);

  // Restore it from the trash view.
  await page.getByRole('button', { name: 'Trash' }).click();
  await expect(tile(page, names[1] as string)).toBeVisible();
  await tile(page, names[1] as string).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByRole('heading', { name: 'The trash is empty' })).toBeVisible();
  await page.getByRole('button', { name: 'Back to album' }).click();
  await expectItemCount(page, 4);

  await page.reload();
  await expectItemCount(page, 4);
  await expect(tile(page, names[1] as string)).toBeVisible();
});

test('the grid selects with click, shift-click and keyboard, and deletes in bulk', async ({ page }) => {
  await createAlbum(page, 'Select');
  await addFiles(page, ['orientation-1.jpg', 'orientation-3.jpg', 'orientation-6.jpg', 'orientation-8.jpg'].map(fixture));
  await expectItemCount(page, 4);
  const cells = page.getByRole('gridcell');
  await cells.nth(0).click({ modifiers: ['ControlOrMeta'] });
  await cells.nth(2).click({ modifiers: ['Shift'] });
  await expect(page.getByText('3 selected')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByText('3 selected')).toHaveCount(0);

  await cells.nth(0).focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('Shift+ArrowRight');
  await expect(page.getByText('2 selected')).toBeVisible();
  await page.getByRole('button', { name: 'Move to trash' }).click();
  await expectItemCount(page, 2);
});

for (const format of ['gif', 'webp'] as const) {
  test(`an animated ${format.toUpperCase()} plays in the viewer, and its thumbnail is its first frame`, async ({ page }) => {
    // Two frames, red then blue, 200 ms each, looping; wider than the 2,048 px preview, so the two tell apart.
    const frame = (r: number, g: number, b: number) => sharp({ create: { width: 2400, height: 80, channels: 3, background: { r, g, b } } }).png().toBuffer();
    const frames = await Promise.all([frame(220, 30, 30), frame(30, 60, 220)]);
    const joined = sharp(frames, { join: { animated: true } });
    const moving = await (format === 'gif' ? joined.gif({ delay: [200, 200], loop: 0 }) : joined.webp({ delay: [200, 200], loop: 0 })).toBuffer();
    await createAlbum(page, 'Moving');
    const name = `wave.${format}`;
    const files = [{ name, mimeType: `image/${format}`, buffer: moving }];
    // A still WebP as wide: its header says it does not move, so the viewer shows its preview.
    if (format === 'webp') files.push({ name: 'still.webp', mimeType: 'image/webp', buffer: await sharp(frames[0]).webp().toBuffer() });
    await addFiles(page, files);
    await expectItemCount(page, files.length);
    const [r, g, b] = await thumbPixel(tile(page, name), 0.5, 0.5);
    expect(r).toBeGreaterThan(180);
    expect(Math.max(g, b)).toBeLessThan(90);

    await tile(page, name).click();
    const shown = page.getByRole('dialog', { name }).getByRole('img', { name });
    await expect(shown).toBeVisible();
    // The picture shown is the original itself (2,400 px wide), not the still preview (2,048 px).
    await expect.poll(() => shown.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(2400);
    if (format === 'webp') {
      await page.keyboard.press('Escape');
      await tile(page, 'still.webp').click();
      const still = page.getByRole('dialog', { name: 'still.webp' }).getByRole('img', { name: 'still.webp' });
      await expect.poll(() => still.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(2048);
    }
  });
}
