import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { addFiles, createAlbum, expectItemCount, fixture, tile } from './helpers';
import { createShareLink } from './share-helpers';
import { expect, test } from './supabase-world';

// Guests of a public link, end to end: a visitor with no account gives a name on the link's page, adds two
// photos through the same upload engine as members (share-upload in Deno, the Ceph bucket), takes one back,
// and the album's owner sees the one that stayed, credited to the guest.

test('a guest adds two photos through a link, deletes one, and the owner sees the other credited to the guest', async ({ browser, world, signIn, visit }) => {
  test.setTimeout(240_000);
  const ana = await world.newPerson('Ana');
  const anaPage = await signIn(await browser.newContext({ viewport: { width: 1280, height: 800 } }), ana);
  const albumId = await createAlbum(anaPage, 'Wedding');
  await addFiles(anaPage, [fixture('orientation-1.jpg')]);
  await expectItemCount(anaPage, 1, 120_000);
  const { token } = await createShareLink(anaPage, world, ana, {
    albumId, label: 'Guests', expiresAt: new Date(Date.now() + 86_400_000).toISOString(), allowDownload: true, allowGuestUpload: true, guestMaxFiles: 10,
  });

  const page = await visit(await browser.newContext({ viewport: { width: 1280, height: 800 } }));
  await page.goto(`/s/${token}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Wedding' })).toBeVisible();
  await expect(page.getByRole('gridcell')).toHaveCount(1);
  const panel = page.getByRole('region', { name: 'Add your photos' });
  await expect(panel).toContainText('Each guest can add up to 10 files');
  await panel.getByLabel('Your name').fill('Bea');
  await panel.getByRole('button', { name: 'Continue' }).click();

  const mine = [fixture('orientation-6.jpg'), fixture('xmp.jpg')];
  // The first comes with a darktable sidecar: merged into the photo and kept beside it, not an item of its own.
  const sidecar = Buffer.from(
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
      '<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:darktable="http://darktable.sf.net/" darktable:xmp_version="5">' +
      '<dc:title><rdf:Alt><rdf:li xml:lang="x-default">First dance</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF></x:xmpmeta>',
  );
  const add = page.getByTestId('add-files-input').first();
  await expect(add).toBeEnabled();
  await add.setInputFiles([
    ...mine.map((f) => ({ name: basename(f), mimeType: 'image/jpeg', buffer: readFileSync(f) })),
    { name: 'orientation-6.xmp', mimeType: 'application/rdf+xml', buffer: sidecar },
  ]);
  const list = page.getByTestId('guest-uploads-mine');
  for (const f of mine) await expect(list.getByText(basename(f))).toBeVisible({ timeout: 120_000 });
  // What the guest added is in the album's grid on the same page.
  await expect(page.getByRole('gridcell')).toHaveCount(3, { timeout: 30_000 });

  // Taking a photo back takes its bytes out of the bucket too (its sidecar with them), not only its row.
  const [taken] = await world.query<{ original_key: string; preview_key: string | null; thumb_key: string | null; metadata: { title?: string; sidecar?: boolean } }>(
    'select original_key, preview_key, thumb_key, metadata from public.items where album_id = $1 and filename = $2',
    [albumId, basename(mine[0]!)],
  );
  expect(taken!.metadata).toMatchObject({ title: 'First dance', sidecar: true });
  const objects = [taken!.original_key, taken!.preview_key, taken!.thumb_key, `${taken!.original_key}.xmp`].filter((k): k is string => k !== null);
  expect(objects).toHaveLength(4);
  for (const key of objects) expect(await world.bucketHas(key), key).toBe(true);
  await list.getByRole('button', { name: `Delete ${basename(mine[0]!)}` }).click();
  await expect(list.getByText(basename(mine[0]!))).toHaveCount(0);
  for (const key of objects) await expect.poll(() => world.bucketHas(key), { message: `${key} is still in the bucket` }).toBe(false);
  await expect(page.getByRole('gridcell')).toHaveCount(2, { timeout: 30_000 });

  // Ana sees the photo that stayed, and whose it is.
  await anaPage.reload();
  await expectItemCount(anaPage, 2, 30_000);
  await expect(tile(anaPage, basename(mine[0]!))).toHaveCount(0);
  await tile(anaPage, basename(mine[1]!)).click();
  await expect(anaPage.getByRole('dialog', { name: basename(mine[1]!) })).toBeVisible();
  await anaPage.keyboard.press('i');
  await expect(anaPage.getByRole('complementary', { name: 'Details' })).toContainText(/Added by\s*Bea \(guest\)/);

  // A reload keeps the guest: "Your uploads" still lists what stayed.
  await page.reload();
  await expect(page.getByTestId('guest-uploads-mine').getByText(basename(mine[1]!))).toBeVisible({ timeout: 30_000 });

  // A name with a direction override is listed with the override shown as a placeholder, not obeyed
  // ("Bea‮gpj.exe" would read "Beaexe.jpg"). Bytes not in the album yet: a copy of a ready photo is not added again.
  await page.getByTestId('add-files-input').first().setInputFiles({ name: 'Bea\u202Egpj.exe.jpg', mimeType: 'image/jpeg', buffer: readFileSync(fixture('orientation-3.jpg')) });
  const listed = page.getByTestId('guest-uploads-mine');
  await expect(listed.getByText('Bea\ufffdgpj.exe.jpg', { exact: true })).toBeVisible({ timeout: 120_000 });
  await expect(listed.getByRole('button', { name: 'Delete Bea\ufffdgpj.exe.jpg' })).toBeVisible();
  expect(await listed.textContent()).not.toContain('\u202E');
});
