/** Sidecar writes owed across a closed tab: kept in the browser's IndexedDB, written by the next start. */
import { afterEach, expect, test } from 'vitest';
import type { Item } from '../domain/entities';
import { AppError } from '../lib/app-error';
import { SidecarOutbox } from './sidecar-outbox';
import { SidecarWriter } from './sidecar-writer';
import { writeOwedSidecars } from './local/create-local-backend';

const name = `sidecar-outbox-test-${crypto.randomUUID()}`;
afterEach(() => SidecarOutbox.remove(name));

const item = (id: string, title: string, editedAt: string) =>
  ({ id, albumId: 'a', status: 'ready', metadata: { title }, takenAt: null, editedAt }) as unknown as Item;

async function until(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

test('an edit whose sidecar could not be written is written by the next start, and only then forgotten', async () => {
  const stored = new Map<string, string>();
  const offline = {
    read: () => Promise.reject(new AppError('offline', 'You are offline.')),
    upload: () => Promise.reject(new AppError('offline', 'You are offline.')),
  };
  const first = new SidecarWriter(offline);
  first.useOutbox(SidecarOutbox.open(name));
  first.write([item('1', 'Tram at dusk', '2026-11-28T10:00:00.000Z')]);
  await first.settled();
  first.useOutbox(null); // the tab closes

  const kept = await SidecarOutbox.open(name);
  expect((await kept.owed()).map((i) => i.metadata.title)).toEqual(['Tram at dusk']);
  kept.close();

  const online = {
    read: () => Promise.reject(new AppError('item/not-found', 'none yet')),
    upload: async (req: { key: string; blob: Blob }) => {
      stored.set(req.key, await req.blob.text());
      return { bytes: req.blob.size };
    },
  };
  const next = new SidecarWriter(online);
  next.useOutbox(SidecarOutbox.open(name));
  await until(() => stored.has('albums/a/1/original.xmp'));
  expect(stored.get('albums/a/1/original.xmp')).toContain('>Tram at dusk</rdf:li>');
  await next.settled();
  const after = await SidecarOutbox.open(name);
  expect(await after.owed()).toEqual([]);
  after.close();
  next.useOutbox(null);
});

test('a later edit kept while an earlier one was being written stays owed', async () => {
  const outbox = await SidecarOutbox.open(name);
  const earlier = item('1', 'One', '2026-11-28T10:00:00.000Z');
  const later = item('1', 'Two', '2026-11-28T10:00:01.000Z');
  await outbox.keep([earlier]);
  await outbox.keep([later]);
  await outbox.settled(earlier);
  expect((await outbox.owed()).map((i) => i.metadata.title)).toEqual(['Two']);
  await outbox.settled(later);
  expect(await outbox.owed()).toEqual([]);
  outbox.close();
});

test('the local backend loads the sidecar writer at the start only when a closed tab left writes owed', async () => {
  let loaded = 0;
  const load = () => {
    loaded++;
    return Promise.resolve(new SidecarWriter({ read: () => Promise.reject(new Error('unused')), upload: () => Promise.reject(new Error('unused')) }));
  };
  // A device that never edited anything: no outbox is made for the check either.
  await writeOwedSidecars(name, load);
  expect(loaded).toBe(0);
  expect((await indexedDB.databases()).some((d) => d.name === name)).toBe(false);

  const outbox = await SidecarOutbox.open(name);
  const edited = item('1', 'One', '2026-11-28T10:00:00.000Z');
  await outbox.keep([edited]);
  await writeOwedSidecars(name, load);
  expect(loaded).toBe(1);
  // All written: nothing is loaded at the next start.
  await outbox.settled(edited);
  outbox.close();
  await writeOwedSidecars(name, load);
  expect(loaded).toBe(1);
});
