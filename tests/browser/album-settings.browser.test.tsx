/**
 * An album's settings screen over an emulated Supabase project (our real SQL and RLS, several people): each
 * role sees its sections, the owner changes roles, removes members and hands the album over, members leave
 * keeping or trashing what they added, and invitation links are made, listed and revoked. The server's answer
 * is checked through each person's own backend, not only what the screen says.
 */
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { page } from 'vitest/browser';
import type { Role } from '../../src/domain/entities';
import { createLocalBackend } from '../../src/backend/local/create-local-backend';
import { addReadyItem, expectAppError } from '../../src/testing/contract/contract-fixtures';
import { renderRoutes } from '../../src/testing/render-routes';
import { startBrowserWire, type BrowserWire, type Person } from './browser-wire';

/** The invitation-link form (the e-mail form beside it has a role of its own). */
const byLink = () => page.getByRole('form', { name: 'Invite by link' });
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

/** `owner`'s album with each of `others` joined with their role. */
async function albumWith(owner: Person, others: [Person, Exclude<Role, 'owner'>][], title = 'Lisbon'): Promise<string> {
  const album = await owner.backend.albums.createAlbum({ title });
  for (const [person, role] of others) {
    const { token } = await owner.backend.members.createInvite(album.id, { role });
    await person.backend.members.acceptInvite(token);
  }
  return album.id;
}

const headings = () => [...document.querySelectorAll('h2')].map((h) => h.textContent);
const eventually = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });
const memberRow = (userId: string) => document.querySelector<HTMLElement>(`[data-user-id="${CSS.escape(userId)}"]`);

test('each role sees exactly its sections: the owner all, an editor the album and share links, others the members', async () => {
  const [ada, bob, cy, dee] = await Promise.all([wire.person('Ada'), wire.person('Bob'), wire.person('Cy'), wire.person('Dee')]);
  const albumId = await albumWith(ada, [[bob, 'editor'], [cy, 'contributor'], [dee, 'viewer']]);
  const expected: [Person, string[], boolean][] = [
    [ada, ['Album', 'Location in originals', 'Members', 'Invitations', 'Share links', 'Danger zone'], false],
    [bob, ['Album', 'Location in originals', 'Members', 'Share links'], true],
    [cy, ['Location in originals', 'Members'], true],
    [dee, ['Location in originals', 'Members'], true],
  ];
  for (const [person, sections, mayLeave] of expected) {
    flushSync(() => root.render(null));
    await renderRoutes(root, person.backend, `/albums/${albumId}/settings`);
    await eventually(() => memberRow(dee.id)?.textContent).toContain('Viewer');
    expect(headings()).toEqual(sections);
    expect(!!document.querySelector('button.btn--danger') && [...document.querySelectorAll('button')].some((b) => b.textContent === 'Leave album')).toBe(mayLeave);
    // Only the owner is offered changes to others.
    expect(document.querySelectorAll('[aria-label^="Change "]').length).toBe(person === ada ? 3 : 0);
  }
  // The list says who each person is and who let them in.
  expect(memberRow(bob.id)?.textContent).toContain('Added by Ada');
  expect(memberRow(ada.id)?.textContent).toContain('Owner');
});

test('the owner chooses to keep originals as they are and the server holds it; an editor only reads which applies', async () => {
  const [ada, bob] = await Promise.all([wire.person('Ada'), wire.person('Bob')]);
  const albumId = await albumWith(ada, [[bob, 'editor']]);
  const section = () => page.getByTestId('location-choice');

  await renderRoutes(root, bob.backend, `/albums/${albumId}/settings`);
  await expect.element(section().getByText('Location is removed from originals before upload.')).toBeVisible();
  expect(section().getByRole('radio').elements()).toHaveLength(0);
  // Not offered, and refused by the server if tried.
  await expectAppError(bob.backend.albums.updateAlbum(albumId, { keepLocation: true }), 'album/forbidden');

  flushSync(() => root.render(null));
  await renderRoutes(root, ada.backend, `/albums/${albumId}/settings`);
  await expect.element(section().getByRole('radio', { name: /Remove location from originals/ })).toBeChecked();
  await section().getByRole('radio', { name: 'Keep originals as they are' }).click();
  await section().getByRole('button', { name: 'Save' }).click();
  await expect.element(section().getByText('Saved')).toBeVisible();
  expect((await ada.backend.albums.getAlbum(albumId)).keepLocation).toBe(true);

  flushSync(() => root.render(null));
  await renderRoutes(root, bob.backend, `/albums/${albumId}/settings`);
  await expect.element(section().getByText('Originals are kept as they are, with their location.')).toBeVisible();
  await expect.element(section().getByText(/Visitors who open a share link get previews only/)).toBeVisible();
});

test('the owner makes an editor a viewer from the menu; the server holds the new role', async () => {
  const [ada, bob] = await Promise.all([wire.person('Ada'), wire.person('Bob')]);
  const albumId = await albumWith(ada, [[bob, 'editor']]);
  await renderRoutes(root, ada.backend, `/albums/${albumId}/settings`);
  await page.getByRole('button', { name: 'Change Bob' }).click();
  await page.getByRole('menuitem', { name: 'Make viewer' }).click();
  await eventually(() => memberRow(bob.id)?.textContent).toContain('Viewer');
  expect((await bob.backend.albums.getAlbum(albumId)).role).toBe('viewer');
});

test('removing a member asks first; once confirmed they no longer see the album', async () => {
  const [ada, bob] = await Promise.all([wire.person('Ada'), wire.person('Bob')]);
  const albumId = await albumWith(ada, [[bob, 'contributor']]);
  await renderRoutes(root, ada.backend, `/albums/${albumId}/settings`);
  await page.getByRole('button', { name: 'Change Bob' }).click();
  await page.getByRole('menuitem', { name: 'Remove from album…' }).click();
  await expect.element(page.getByRole('dialog', { name: 'Remove Bob?' })).toBeVisible();
  // Cancel keeps them.
  await page.getByRole('button', { name: 'Cancel' }).click();
  expect((await bob.backend.albums.getAlbum(albumId)).role).toBe('contributor');

  await page.getByRole('button', { name: 'Change Bob' }).click();
  await page.getByRole('menuitem', { name: 'Remove from album…' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await eventually(() => memberRow(bob.id)).toBeNull();
  await expectAppError(bob.backend.albums.getAlbum(albumId), 'album/not-found');
});

test('handing the album over names the person; the old owner becomes an editor and the sections follow', async () => {
  const [ada, bob] = await Promise.all([wire.person('Ada'), wire.person('Bob')]);
  const albumId = await albumWith(ada, [[bob, 'viewer']]);
  await renderRoutes(root, ada.backend, `/albums/${albumId}/settings`);
  await page.getByRole('button', { name: 'Change Bob' }).click();
  await page.getByRole('menuitem', { name: 'Make owner…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Make Bob the owner?' });
  await expect.element(dialog).toHaveTextContent(/You will stay in the album as an editor/);
  await dialog.getByRole('button', { name: 'Make owner' }).click();
  await eventually(() => memberRow(bob.id)?.textContent).toContain('Owner');
  await eventually(headings).toEqual(['Album', 'Location in originals', 'Members', 'Share links']);
  expect(memberRow(ada.id)?.textContent).toContain('Editor');
  expect((await bob.backend.albums.getAlbum(albumId)).role).toBe('owner');
  expect((await ada.backend.albums.getAlbum(albumId)).role).toBe('editor');
});

test('the owner cannot leave and is told why', async () => {
  const [ada, bob] = await Promise.all([wire.person('Ada'), wire.person('Bob')]);
  const albumId = await albumWith(ada, [[bob, 'viewer']]);
  await renderRoutes(root, ada.backend, `/albums/${albumId}/settings`);
  await expect.element(page.getByText('You own this album, so you cannot leave it.', { exact: false })).toBeVisible();
  expect([...document.querySelectorAll('button')].some((b) => b.textContent === 'Leave album')).toBe(false);
});

for (const keep of [true, false]) {
  test(`a contributor leaves ${keep ? 'keeping' : 'trashing'} what they added, and lands on the albums screen`, async () => {
    const [ada, bob] = await Promise.all([wire.person('Ada'), wire.person('Bob')]);
    const albumId = await albumWith(ada, [[bob, 'contributor']], 'Porto');
    await addReadyItem(bob.backend, albumId);
    await addReadyItem(bob.backend, albumId);
    await addReadyItem(ada.backend, albumId);
    await renderRoutes(root, bob.backend, `/albums/${albumId}/settings`);
    await page.getByRole('button', { name: 'Leave album' }).click();
    const dialog = page.getByRole('dialog', { name: 'Leave “Porto”?' });
    await expect.element(dialog.getByRole('radio', { name: 'Keep the photos and files you added in the album' })).toBeChecked();
    if (!keep) await dialog.getByRole('radio', { name: 'Move them to the trash' }).click();
    await dialog.getByRole('button', { name: 'Leave album' }).click();
    await expect.element(page.getByText('You left “Porto”.')).toBeVisible();
    await eventually(() => document.querySelector('h1')?.textContent).toBe('Albums');
    // One notice: leaving is not also reported as having been removed.
    expect(document.body.textContent).not.toContain('no longer a member');
    await expectAppError(bob.backend.albums.getAlbum(albumId), 'album/not-found');
    expect((await ada.backend.albums.getAlbum(albumId)).itemCount).toBe(keep ? 3 : 1);
    expect((await ada.backend.members.listMembers(albumId)).map((m) => m.userId)).toEqual([ada.id]);
  });
}

test('an invitation link is made with its role, expiry and uses, shown with a QR code once, listed, and revoked', async () => {
  const [ada, bob] = await Promise.all([wire.person('Ada'), wire.person('Bob')]);
  const albumId = await albumWith(ada, []);
  await renderRoutes(root, ada.backend, `/albums/${albumId}/settings`);
  await expect.element(page.getByText('No pending invitations.')).toBeVisible();
  await expect.element(byLink().getByLabelText('Role')).toHaveValue('contributor');
  await expect.element(byLink().getByLabelText('Expires after')).toHaveValue('7');
  await byLink().getByLabelText('Role').selectOptions('viewer');
  await byLink().getByLabelText('Expires after').selectOptions('30');
  await page.getByLabelText(/Number of uses/).fill('0');
  await expect.element(page.getByText('Enter a whole number of 1 or more, or leave it empty.')).toBeVisible();
  await page.getByLabelText(/Number of uses/).fill('2');
  await page.getByRole('button', { name: 'Create invitation link' }).click();

  const link = page.getByLabelText('Invitation link', { exact: true });
  await eventually(() => (link.query() as HTMLInputElement | null)?.value).toMatch(new RegExp(`^${location.origin}/invite/[A-Za-z0-9_-]{22,}$`));
  const url = (link.element() as HTMLInputElement).value;
  const qr = page.getByRole('img', { name: 'QR code of the invitation link' });
  await expect.element(qr).toBeVisible();
  expect(qr.element().tagName.toLowerCase()).toBe('svg');
  const row = () => document.querySelector('.invite-row')?.textContent ?? '';
  await eventually(row).toContain('Viewer');
  expect(row()).toContain('0 of 2 uses');

  // The link works for someone else, with the role chosen, until it is revoked.
  const token = decodeURIComponent(url.split('/invite/')[1]!);
  expect(await bob.backend.members.invitePreview(token)).toMatchObject({ albumTitle: 'Lisbon', inviterName: 'Ada' });
  const [invite] = await ada.backend.members.listInvites(albumId);
  expect(Math.round((Date.parse(invite!.expiresAt) - Date.now()) / 86_400_000)).toBe(30);
  await page.getByRole('button', { name: /^Revoke/ }).click();
  await expect.element(page.getByText('No pending invitations.')).toBeVisible();
  await expectAppError(bob.backend.members.acceptInvite(token), 'invite/revoked');
});

test('Copy puts the link on the clipboard, and selects it when the browser refuses', async () => {
  const ada = await wire.person('Ada');
  const albumId = await albumWith(ada, []);
  await renderRoutes(root, ada.backend, `/albums/${albumId}/settings`);
  await page.getByRole('button', { name: 'Create invitation link' }).click();
  const link = page.getByLabelText('Invitation link', { exact: true });
  await eventually(() => (link.query() as HTMLInputElement | null)?.value).toMatch(/\/invite\//);
  const refuse = Object.getOwnPropertyDescriptor(Navigator.prototype, 'clipboard');
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) } });
  try {
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.element(page.getByText(/the link is selected/)).toBeVisible();
    const input = link.element() as HTMLInputElement;
    expect(document.activeElement).toBe(input);
    expect(input.selectionEnd! - input.selectionStart!).toBe(input.value.length);
  } finally {
    delete (navigator as { clipboard?: unknown }).clipboard;
    if (refuse) Object.defineProperty(Navigator.prototype, 'clipboard', refuse);
  }
  let copied = '';
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text: string) => void (copied = text) } });
  try {
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.element(page.getByText('Copied. Send it to whoever you invite.')).toBeVisible();
    expect(copied).toBe((link.element() as HTMLInputElement).value);
  } finally {
    delete (navigator as { clipboard?: unknown }).clipboard;
  }
});

test('on this device the members list shows the owner alone, and members and invitations say sharing needs Supabase', async () => {
  const tag = `settings-local-${Date.now().toString(36)}`;
  const local = createLocalBackend({ dbName: tag, opfsDir: tag, channelName: tag });
  const album = await local.albums.createAlbum({ title: 'Home' });
  await renderRoutes(root, local, `/albums/${album.id}/settings`);
  await eventually(() => document.querySelectorAll('.member-row').length).toBe(1);
  expect(headings()).toEqual(['Album', 'Location in originals', 'Members', 'Invitations', 'Share links', 'Danger zone']);
  expect(document.querySelectorAll('[data-testid="sharing-needs-supabase"]').length).toBe(2);
  expect(document.querySelector('.member-row')?.textContent).toContain('Owner');
  expect(document.querySelectorAll('[aria-label^="Change "]').length).toBe(0);
  expect(document.querySelector('form[aria-label="Invite by link"]')).toBeNull();
});

test('a save the server refuses (the editor was made a viewer meanwhile) says why and keeps what was typed', async () => {
  const [ada, bob] = await Promise.all([wire.person('Ada'), wire.person('Bob')]);
  const albumId = await albumWith(ada, [[bob, 'editor']]);
  await renderRoutes(root, bob.backend, `/albums/${albumId}/settings`);
  const title = page.getByLabelText('Title', { exact: true });
  await title.fill('Lisbon in May');
  await page.getByLabelText(/Description/).fill('Trams, tiles and custard tarts.');
  await ada.backend.members.setMemberRole(albumId, bob.id, 'viewer');
  await page.getByRole('button', { name: 'Save' }).click();
  await eventually(() => document.querySelector('[data-error-code]')?.getAttribute('data-error-code')).toBe('album/forbidden');
  await expect.element(page.getByText('Your role in this album does not allow that.', { exact: false })).toBeVisible();
  await expect.element(title).toHaveValue('Lisbon in May');
  await expect.element(page.getByLabelText(/Description/)).toHaveValue('Trams, tiles and custard tarts.');
  expect((await ada.backend.albums.getAlbum(albumId)).title).toBe('Lisbon');
});

test('an invitation the server refuses (the album changed hands meanwhile) says why, and the chosen options stay', async () => {
  const [ada, bob] = await Promise.all([wire.person('Ada'), wire.person('Bob')]);
  const albumId = await albumWith(ada, [[bob, 'editor']]);
  await renderRoutes(root, ada.backend, `/albums/${albumId}/settings`);
  await byLink().getByLabelText('Role').selectOptions('editor');
  await page.getByLabelText(/Number of uses/).fill('3');
  // The album changes hands elsewhere: Ada may no longer invite.
  await ada.backend.members.transferOwnership(albumId, bob.id);
  await page.getByRole('button', { name: 'Create invitation link' }).click();
  await eventually(() => document.querySelector('[data-error-code]')?.getAttribute('data-error-code')).toBe('album/forbidden');
  expect(document.querySelector('[data-testid="invite-link"]')).toBeNull();
  await expect.element(byLink().getByLabelText('Role')).toHaveValue('editor');
  await expect.element(page.getByLabelText(/Number of uses/)).toHaveValue('3');
});

test('the settings screen with members and a new link, and the invite page, have no serious accessibility violations', async () => {
  const { default: axe } = await import('axe-core');
  const serious = async () =>
    (await axe.run(document, { resultTypes: ['violations'] })).violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  const [ada, bob, cy] = await Promise.all([wire.person('Ada'), wire.person('Bob'), wire.person('Cy')]);
  const albumId = await albumWith(ada, [[bob, 'editor']]);
  await renderRoutes(root, ada.backend, `/albums/${albumId}/settings`);
  await page.getByRole('button', { name: 'Create invitation link' }).click();
  await expect.element(page.getByRole('img', { name: 'QR code of the invitation link' })).toBeVisible();
  // Bob's invitation (unlimited uses) and the new one.
  await eventually(() => document.querySelectorAll('.invite-row').length).toBe(2);
  expect(await serious()).toEqual([]);
  await page.getByRole('button', { name: 'Change Bob' }).click();
  await page.getByRole('menuitem', { name: 'Make owner…' }).click();
  await expect.element(page.getByRole('dialog')).toBeVisible();
  expect(await serious()).toEqual([]);

  flushSync(() => root.render(null));
  await renderRoutes(root, bob.backend, `/albums/${albumId}/settings`);
  await page.getByRole('button', { name: 'Leave album' }).click();
  await expect.element(page.getByRole('dialog')).toBeVisible();
  expect(await serious()).toEqual([]);

  flushSync(() => root.render(null));
  const { token } = await ada.backend.members.createInvite(albumId, { role: 'viewer' });
  await renderRoutes(root, cy.backend, `/invite/${token}`);
  await expect.element(page.getByRole('button', { name: 'Join album' })).toBeVisible();
  expect(await serious()).toEqual([]);
});
