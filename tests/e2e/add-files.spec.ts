import type { Page } from '@playwright/test';
import { expect, test } from './csp-test';
import { createAlbum, expectItemCount, fixtureBytes, tile } from './helpers';

/** Builds the files inside the page (a DataTransfer cannot cross from the test process). */
async function dataTransferWith(page: Page, files: { name: string; type: string; bytes: Buffer }[]) {
  return page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([new Uint8Array(f.bytes)], f.name, { type: f.type }));
    return dt;
  }, files.map((f) => ({ ...f, bytes: [...f.bytes] as unknown as Buffer })));
}

test('files dropped anywhere on the album are added, with a drop hint while dragging', async ({ page }) => {
  await createAlbum(page, 'Dropped');
  const dt = await dataTransferWith(page, [
    { name: 'dropped.jpg', type: 'image/jpeg', bytes: fixtureBytes('orientation-1.jpg') },
    // A misleading name and type: the content decides what it is.
    { name: 'notes.jpg', type: 'image/jpeg', bytes: Buffer.from('just some text, not a picture\n') },
  ]);
  await page.dispatchEvent('body', 'dragenter', { dataTransfer: dt });
  await expect(page.getByText('Drop to add to this album')).toBeVisible();
  await page.dispatchEvent('body', 'drop', { dataTransfer: dt });
  await expect(page.getByText('Drop to add to this album')).toHaveCount(0);
  await expectItemCount(page, 2);
  await expect(tile(page, 'dropped.jpg')).toHaveAttribute('data-kind', 'image');
  await expect(tile(page, 'notes.jpg')).toHaveAttribute('data-kind', 'file');
});

test('a pasted image is added to the open album', async ({ page }) => {
  await createAlbum(page, 'Pasted');
  const dt = await dataTransferWith(page, [{ name: 'image.png', type: 'image/png', bytes: fixtureBytes('transparent.png') }]);
  await page.evaluate((clipboardData) => {
    const e = new ClipboardEvent('paste', { bubbles: true, cancelable: true, clipboardData });
    document.body.dispatchEvent(e);
  }, dt);
  await expectItemCount(page, 1);
  await expect(tile(page, 'image.png')).toHaveAttribute('data-kind', 'image');
});
