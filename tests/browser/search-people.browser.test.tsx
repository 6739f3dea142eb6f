/**
 * Search across albums by who added the items, over an emulated Supabase project (our real SQL and RLS): the
 * "Added by" list names the people of one's albums, and choosing one narrows the results to what they added in
 * any album one is in; on this device, where everything is one's own, it is not offered.
 */
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { createLocalBackend } from '../../src/backend/local/create-local-backend';
import { addReadyItem } from '../../src/testing/contract/contract-fixtures';
import { renderRoutes } from '../../src/testing/render-routes';
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
const shownIds = () => [...document.querySelectorAll<HTMLElement>('[data-item-id]')].map((t) => t.dataset.itemId).sort();

test("a search across albums narrows to what one person added, in every album they share with one", async () => {
  const [ada, bob, cy] = await Promise.all([wire.person('Ada'), wire.person('Bob'), wire.person('Cy')]);
  const lisbon = await ada.backend.albums.createAlbum({ title: 'Lisbon' });
  const porto = await cy.backend.albums.createAlbum({ title: 'Porto' });
  for (const [owner, albumId, person, role] of [[ada, lisbon.id, bob, 'contributor'], [cy, porto.id, ada, 'viewer'], [cy, porto.id, bob, 'contributor']] as const) {
    const { token } = await owner.backend.members.createInvite(albumId, { role });
    await person.backend.members.acceptInvite(token);
  }
  const mine = await addReadyItem(ada.backend, lisbon.id, { filename: 'harbour-ada.jpg' });
  const bobs = [await addReadyItem(bob.backend, lisbon.id, { filename: 'harbour-bob.jpg' }), await addReadyItem(bob.backend, porto.id, { filename: 'harbour-bob-2.jpg' })];
  const cys = await addReadyItem(cy.backend, porto.id, { filename: 'harbour-cy.jpg' });

  await renderRoutes(root, ada.backend, '/search?q=harbour');
  await eventually(shownIds).toEqual([mine.id, ...bobs.map((i) => i.id), cys.id].sort());
  const addedBy = page.getByLabelText('Added by');
  await userEvent.click(addedBy);
  // The people of Ada's albums, by name, once each (Bob is in both).
  await eventually(() => [...document.querySelectorAll<HTMLOptionElement>('.search-added-by option')].map((o) => o.textContent)).toEqual(['Anyone', 'Me', 'Bob', 'Cy']);
  await userEvent.selectOptions(addedBy, 'Bob');
  await eventually(shownIds).toEqual(bobs.map((i) => i.id).sort());
  expect(document.querySelector<HTMLSelectElement>('.search-added-by select')!.value).toBe(bob.id);
  await userEvent.selectOptions(addedBy, 'Me');
  await eventually(shownIds).toEqual([mine.id]);
  await userEvent.selectOptions(addedBy, 'Anyone');
  await eventually(shownIds).toHaveLength(4);
});

test('on this device, where everything is one\'s own, no one is offered', async () => {
  const id = crypto.randomUUID();
  const local = createLocalBackend({ dbName: `test-${id}`, opfsDir: `test-${id}`, channelName: `test-${id}` });
  await renderRoutes(root, local, '/search?q=harbour');
  await expect.element(page.getByLabelText('Search your albums')).toBeVisible();
  expect(document.querySelector('.search-added-by')).toBeNull();
});
