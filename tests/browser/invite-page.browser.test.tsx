/**
 * The invite page over an emulated Supabase project: a signed-out visitor is sent to sign in and back, a
 * signed-in one sees who invites them to which album and joins, and each reason a link no longer works says so
 * with its own code. On this device (the local backend) invitations do not exist, and the page says why.
 */
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { page } from 'vitest/browser';
import { createLocalBackend } from '../../src/backend/local/create-local-backend';
import { createSupabaseBackend } from '../../src/backend/supabase/create-supabase-backend';
import { renderRoutes } from '../../src/testing/render-routes';
import { SilentWebSocket } from '../../src/testing/supabase-wire-stub';
import { startBrowserWire, type BrowserWire } from './browser-wire';

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
const errorCode = () => document.querySelector('[data-error-code]')?.getAttribute('data-error-code');

test('a signed-in person sees the album and who invites them, joins, and the album opens with their role', async () => {
  const [ada, bob] = await Promise.all([wire.person('Ada'), wire.person('Bob')]);
  const album = await ada.backend.albums.createAlbum({ title: 'Lisbon' });
  const { token } = await ada.backend.members.createInvite(album.id, { role: 'viewer' });
  await renderRoutes(root, bob.backend, `/invite/${token}`);
  await expect.element(page.getByRole('heading', { name: 'Ada invited you to “Lisbon”' })).toBeVisible();
  // Not a member yet: the cover cannot be read, and a neutral picture stands in.
  expect(document.querySelector('.invite-card__cover--blank')).not.toBeNull();
  await page.getByRole('button', { name: 'Join album' }).click();
  await expect.element(page.getByRole('heading', { level: 1, name: 'Lisbon' })).toBeVisible();
  expect((await bob.backend.albums.getAlbum(album.id)).role).toBe('viewer');
  // A viewer is offered no Add on the album they joined.
  expect([...document.querySelectorAll('button')].map((b) => b.textContent?.trim())).not.toContain('Add');
});

test('a signed-out visitor is asked to sign in and comes back to the invitation', async () => {
  const signedOut = createSupabaseBackend({ url: 'https://emulated-project.supabase.test', anonKey: 'anon', fetch: wire.fetch, persistSession: false, webSocket: SilentWebSocket as never });
  await renderRoutes(root, signedOut, '/invite/some-token_value');
  const link = page.getByRole('link', { name: 'Sign in to join' });
  await expect.element(link).toBeVisible();
  expect(link.element().getAttribute('href')).toBe(`/sign-in?next=${encodeURIComponent('/invite/some-token_value')}`);
  await link.click();
  await expect.element(page.getByRole('heading', { name: 'Sign in to Shoebox' })).toBeVisible();
});

test('an unknown, expired, revoked or used-up invitation each says so, with a way home', async () => {
  const [ada, bob, cy] = await Promise.all([wire.person('Ada'), wire.person('Bob'), wire.person('Cy')]);
  const album = await ada.backend.albums.createAlbum({ title: 'Porto' });
  const expired = await ada.backend.members.createInvite(album.id, { role: 'viewer' });
  await wire.expireInvite(expired.invite.id);
  const revoked = await ada.backend.members.createInvite(album.id, { role: 'viewer' });
  await ada.backend.members.revokeInvite(revoked.invite.id);
  const usedUp = await ada.backend.members.createInvite(album.id, { role: 'viewer', maxUses: 1 });
  await cy.backend.members.acceptInvite(usedUp.token);

  const cases: [string, string, string][] = [
    ['AAAAAAAAAAAAAAAAAAAAAA', 'invite/not-found', 'This invitation does not exist.'],
    [expired.token, 'invite/expired', 'This invitation has expired.'],
    [revoked.token, 'invite/revoked', 'This invitation has been withdrawn.'],
    [usedUp.token, 'invite/used-up', 'This invitation has already been used as many times as it allows.'],
  ];
  for (const [token, code, sentence] of cases) {
    flushSync(() => root.render(null));
    await renderRoutes(root, bob.backend, `/invite/${token}`);
    await eventually(errorCode).toBe(code);
    await expect.element(page.getByText(sentence)).toBeVisible();
    await expect.element(page.getByRole('link', { name: 'Go to your albums' })).toBeVisible();
    expect(document.querySelector('button')?.textContent).not.toBe('Join album');
  }
  await expect.poll(() => bob.backend.albums.listAlbums()).toEqual([]);
});

test('on this device the invite page says invitations need a Supabase project', async () => {
  const tag = `invite-local-${Date.now().toString(36)}`;
  const local = createLocalBackend({ dbName: tag, opfsDir: tag, channelName: tag });
  await renderRoutes(root, local, '/invite/anything');
  await expect.element(page.getByRole('heading', { name: 'Invitations need a Supabase project' })).toBeVisible();
  // The set-up steps are the README's: named, since a deployed copy has no address for them.
  await expect.element(page.getByTestId('sharing-needs-supabase')).toHaveTextContent('Running on your own Supabase project');
});
