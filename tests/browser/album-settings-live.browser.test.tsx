/**
 * The settings screen follows what the owner does elsewhere, over the album's private Realtime channel (the
 * emulated Realtime server, our real SQL deciding who may join): a role taken away hides its sections, and a
 * member removed is sent home with a notice.
 */
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { page } from 'vitest/browser';
import { seeingJoins } from '../../src/testing/realtime-joins';
import { renderRoutes } from '../../src/testing/render-routes';
import { startBrowserWire, type BrowserWire } from './browser-wire';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
afterEach(() => flushSync(() => root.render(null)));

let wire: BrowserWire;
beforeAll(async () => {
  wire = await startBrowserWire({ realtime: true });
}, 300_000);
afterAll(async () => {
  await wire.stop();
});

const headings = () => [...document.querySelectorAll('h2')].map((h) => h.textContent);

test('an editor made a viewer by the owner loses the album and share link sections; removed, they go home told why', async () => {
  const [ada, bob] = await Promise.all([wire.person('Ada'), wire.person('Bob')]);
  const album = await ada.backend.albums.createAlbum({ title: 'Lisbon' });
  const { token } = await ada.backend.members.createInvite(album.id, { role: 'editor' });
  await bob.backend.members.acceptInvite(token);

  const bobs = seeingJoins(bob.backend);
  await renderRoutes(root, bobs.backend, `/albums/${album.id}/settings`);
  await expect.poll(headings, { timeout: 15_000 }).toEqual(['Album', 'Location in originals', 'Members', 'Share links']);
  // The change is made once the screen's channel is joined: from then on it hears everything.
  await expect.poll(() => bobs.joined, { timeout: 15_000 }).toContain(album.id);
  await ada.backend.members.setMemberRole(album.id, bob.id, 'viewer');
  await expect.poll(headings, { timeout: 10_000 }).toEqual(['Location in originals', 'Members']);

  await ada.backend.members.removeMember(album.id, bob.id);
  await expect.element(page.getByText('You are no longer a member of “Lisbon”.', { exact: true }), { timeout: 10_000 }).toBeVisible();
  await expect.poll(() => document.querySelector('h1')?.textContent).toBe('Albums');
});
