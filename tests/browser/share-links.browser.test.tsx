/**
 * The Share links section of an album's settings over an emulated Supabase project (our real SQL and RLS):
 * the list says each link's state and what it allows, revoking asks first and the server holds it, the form
 * checks what is typed as it is typed, and each role sees what §6 gives it. Links are written as the
 * share-links function leaves them; making one through the function is tested end to end
 * (tests/e2e/share-links.spec.ts).
 */
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { page } from 'vitest/browser';
import { createLocalBackend } from '../../src/backend/local/create-local-backend';
import { isolatedLocal } from '../../src/testing/isolated-local';
import { renderRoutes } from '../../src/testing/render-routes';
import { startBrowserWire, type BrowserWire, type Person } from './browser-wire';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
afterEach(() => flushSync(() => root.render(null)));

let wire: BrowserWire;
beforeAll(async () => {
  wire = await startBrowserWire();
}, 300_000);
afterAll(async () => {
  expect(await wire.unserved()).toEqual([]);
  await wire.stop();
});

const eventually = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });
const row = (id: string) => document.querySelector<HTMLElement>(`[data-link-id="${CSS.escape(id)}"]`);
const form = () => page.getByRole('form', { name: 'New share link' });

async function albumWith(owner: Person, others: [Person, 'editor' | 'contributor' | 'viewer'][] = []): Promise<string> {
  const album = await owner.backend.albums.createAlbum({ title: 'Lisbon' });
  for (const [p, role] of others) await p.backend.members.acceptInvite((await owner.backend.members.createInvite(album.id, { role })).token);
  return album.id;
}

test('each link says its state, whether it asks a password, what it allows, its views and when it was last opened', async () => {
  const ada = await wire.person('Ada');
  const albumId = await albumWith(ada);
  const base = { albumId, createdBy: ada.id };
  const family = await wire.shareLink({ ...base, label: 'Family', password: true, expiresInHours: 3 * 24 + 1, maxViews: 10, viewCount: 3, openedHoursAgo: 2 });
  const guests = await wire.shareLink({ ...base, label: 'Wedding guests', expiresInHours: null, allowDownload: false, allowGuestUpload: true, guestMaxFiles: 20, guestMaxBytes: 2 * 1024 ** 3 });
  const old = await wire.shareLink({ ...base, label: 'Old one', expiresInHours: -5 });
  const off = await wire.shareLink({ ...base, label: 'Turned off', revoked: true });
  const spent = await wire.shareLink({ ...base, label: 'Once', maxViews: 2, viewCount: 2, openedHoursAgo: 30 });
  const party = await wire.shareLink({ ...base, label: 'Party', allowGuestUpload: true });
  const [trashed] = await wire.guestItems(party, 'Ana', 2);
  await wire.guestItems(party, 'Ben', 1);
  // What a member put in the trash is no longer in the album, so it is not counted.
  await ada.backend.itemWrites.trashItems(albumId, [trashed!]);
  await renderRoutes(root, ada.backend, `/albums/${albumId}/settings`);
  await eventually(() => row(family)?.textContent).toContain('Family');

  expect(row(family)!.dataset.state).toBe('active');
  expect(row(family)!.textContent).toContain('Active · expires in 3 days');
  expect(row(family)!.textContent).toContain('Password · Downloads on · Guest uploads off · 3 of 10 views');
  expect(row(family)!.textContent).toContain('Last opened 2 hours ago');
  // The exact moment is on hover.
  const opened = row(family)!.querySelector('time')!;
  expect(opened.title).toMatch(/\d{4}/);
  expect(Math.abs(Date.parse(opened.dateTime) - (Date.now() - 2 * 3_600_000))).toBeLessThan(120_000);

  expect(row(guests)!.textContent).toContain('Active · never expires');
  expect(row(guests)!.textContent).toContain('No password · Downloads off · Guest uploads on (20 files, 2 GB per guest), 0 added · 0 views');
  expect(row(party)!.textContent).toContain('Guest uploads on, 2 added');
  expect(row(guests)!.textContent).toContain('Never opened');

  expect([row(old)!.dataset.state, row(off)!.dataset.state, row(spent)!.dataset.state]).toEqual(['expired', 'revoked', 'used-up']);
  expect(row(old)!.textContent).toContain('Expired');
  expect(row(off)!.textContent).toContain('Revoked');
  expect(row(spent)!.textContent).toContain('Used up: view limit reached');
  // A revoked link has nothing left to revoke; the others do.
  expect(row(off)!.querySelector('button')).toBeNull();
  expect(row(old)!.querySelector('button')?.textContent).toBe('Revoke');
});

test('revoking asks first; once confirmed the link shows as revoked and the server holds it', async () => {
  const [ada, bob] = [await wire.person('Ada'), await wire.person('Bob')];
  const albumId = await albumWith(ada, [[bob, 'editor']]);
  const id = await wire.shareLink({ albumId, createdBy: ada.id, label: 'Family' });
  // An editor manages links as the owner does.
  await renderRoutes(root, bob.backend, `/albums/${albumId}/settings`);
  await page.getByRole('button', { name: 'Revoke “Family”' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke “Family”?' });
  await expect.element(dialog).toHaveTextContent(/can no longer open the album/);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect((await ada.backend.shareLinks.listShareLinks(albumId))[0]!.revokedAt).toBeNull();

  await page.getByRole('button', { name: 'Revoke “Family”' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
  await eventually(() => row(id)?.dataset.state).toBe('revoked');
  expect(row(id)!.textContent).toContain('Revoked');
  expect((await ada.backend.shareLinks.listShareLinks(albumId))[0]!.revokedAt).not.toBeNull();
});

test('the form says what is wrong as it is typed, keeps what was typed, and sends nothing until it is right', async () => {
  const ada = await wire.person('Ada');
  const albumId = await albumWith(ada);
  await renderRoutes(root, ada.backend, `/albums/${albumId}/settings`);
  await expect.element(page.getByText('No share links yet.')).toBeVisible();
  const create = form().getByRole('button', { name: 'Create share link' });
  const password = form().getByLabelText('Password (optional)');

  // Thirty days unless chosen otherwise, and "Never" is only a choice.
  await expect.element(form().getByLabelText('Expires after')).toHaveDisplayValue('30 days');
  await expect.element(form().getByText('A view is one visit per browser per day.')).toBeVisible();

  await password.fill('short');
  await expect.element(form().getByRole('alert')).toHaveTextContent("A link's password has at least 8 characters.");
  await expect.element(password).toHaveAttribute('aria-invalid', 'true');
  await expect.element(create).toBeDisabled();
  // Shown as typed on request, hidden again.
  await expect.element(password).toHaveAttribute('type', 'password');
  await form().getByRole('button', { name: 'Show' }).click();
  await expect.element(password).toHaveAttribute('type', 'text');
  await form().getByRole('button', { name: 'Hide' }).click();
  await expect.element(password).toHaveAttribute('type', 'password');

  await password.fill('x'.repeat(129));
  await expect.element(form().getByRole('alert')).toHaveTextContent("A link's password has at most 128 characters.");
  await password.fill('long enough');
  await expect.element(create).toBeEnabled();

  await form().getByLabelText('View limit (optional)').fill('0');
  await expect.element(form().getByRole('alert')).toHaveTextContent('Enter a whole number of views of 1 or more');
  await form().getByLabelText('View limit (optional)').fill('25');

  // Guest limits appear with guest uploads.
  expect(document.body.textContent).not.toContain('Files per guest');
  await form().getByRole('switch', { name: 'Guest uploads' }).click();
  await form().getByLabelText('Files per guest (optional)').fill('20000');
  await expect.element(form().getByRole('alert')).toHaveTextContent('Enter a whole number of files from 1 to 10,000');
  await form().getByLabelText('Files per guest (optional)').fill('50');
  await form().getByLabelText('Size per guest (optional)').fill('11');
  await form().getByRole('combobox', { name: 'Unit of the size per guest' }).selectOptions('GB');
  await expect.element(create).toBeEnabled();
  await form().getByLabelText('Size per guest (optional)').fill('20000');
  await expect.element(form().getByRole('alert')).toHaveTextContent('at most 10 TB');
  await expect.element(create).toBeDisabled();

  // Everything typed is still there.
  await expect.element(password).toHaveValue('long enough');
  await expect.element(form().getByLabelText('View limit (optional)')).toHaveValue('25');
  await expect.element(form().getByLabelText('Files per guest (optional)')).toHaveValue('50');
  expect(await ada.backend.shareLinks.listShareLinks(albumId)).toEqual([]);
});

test('an album that keeps locations tells whoever makes a link that visitors get previews only, and why', async () => {
  const [ada, bob] = [await wire.person('Ada'), await wire.person('Bob')];
  const albumId = await albumWith(ada, [[bob, 'editor']]);
  await renderRoutes(root, bob.backend, `/albums/${albumId}/settings`);
  await expect.element(form()).toBeVisible();
  expect(page.getByTestId('share-links-previews-only').query()).toBeNull();

  await ada.backend.albums.updateAlbum(albumId, { keepLocation: true });
  flushSync(() => root.render(null));
  await renderRoutes(root, bob.backend, `/albums/${albumId}/settings`);
  await expect.element(page.getByTestId('share-links-previews-only')).toHaveTextContent(/previews only.*where each photo was taken/);
});

test('contributors and viewers have no Share links section; on this device it says links need a Supabase project', async () => {
  const [ada, cy, dee] = [await wire.person('Ada'), await wire.person('Cy'), await wire.person('Dee')];
  const albumId = await albumWith(ada, [[cy, 'contributor'], [dee, 'viewer']]);
  await wire.shareLink({ albumId, createdBy: ada.id, label: 'Family' });
  for (const member of [cy, dee]) {
    flushSync(() => root.render(null));
    await renderRoutes(root, member.backend, `/albums/${albumId}/settings`);
    await expect.element(page.getByRole('heading', { name: 'Members' })).toBeVisible();
    expect(page.getByRole('heading', { name: 'Share links' }).query()).toBeNull();
    expect(document.body.textContent).not.toContain('Family');
  }

  flushSync(() => root.render(null));
  const local = createLocalBackend(isolatedLocal('share-links'));
  const album = await local.albums.createAlbum({ title: 'Mine' });
  await renderRoutes(root, local, `/albums/${album.id}/settings`);
  await expect.element(page.getByTestId('share-links-need-supabase')).toHaveTextContent('Links need a Supabase project');
  expect(page.getByRole('form', { name: 'New share link' }).query()).toBeNull();
});
