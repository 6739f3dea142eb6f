/**
 * While someone adds files to an album, the others looking at it read "Ana is adding 3 files" with a progress
 * bar, which goes once Ana is done; and the tab that uploads tells the album's channel, at most twice a second.
 * Two tabs on one local backend, and another person's tab on the same channel with their own profile.
 */
import axe from 'axe-core';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, expect, test } from 'vitest';
import { createLocalBackend } from '../backend/local/create-local-backend';
import { LocalRealtime } from '../backend/local/local-realtime';
import type { BroadcastMessage } from '../backend/ports';
import type { Role } from '../domain/entities';
import { withOverrides } from '../testing/contract/contract-fixtures';
import { renderRoutes } from '../testing/render-routes';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
const closers: (() => void)[] = [];
afterEach(() => {
  flushSync(() => root.render(null));
  for (const close of closers.splice(0)) close();
});

const eventually = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });
const lines = () => document.querySelector('ul[aria-label="Others adding to this album"]');

async function openAlbum(role: Role = 'owner') {
  const tag = `others-uploading-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const names = { dbName: tag, opfsDir: tag, channelName: tag };
  const shown = createLocalBackend(names);
  closers.push(() => (shown.realtime as LocalRealtime).close());
  const album = await shown.albums.createAlbum({ title: 'Lisbon' });
  const backend = { ...shown, albums: withOverrides(shown.albums, { getAlbum: async (id, opts) => ({ ...(await shown.albums.getAlbum(id, opts)), role }) }) };
  await renderRoutes(root, backend, `/albums/${album.id}`);
  await eventually(() => document.querySelector('h1')?.textContent).toBe('Lisbon');
  // Ana's tab: another person on the same channel.
  const ana = new LocalRealtime(names.channelName, async () => ({ id: 'ana', displayName: 'Ana Lima', avatarKey: null, createdAt: new Date(0).toISOString() }));
  closers.push(() => ana.close());
  const heard: BroadcastMessage[] = [];
  const times: number[] = [];
  ana.subscribe(album.id, { onBroadcast: (m) => (heard.push(m), times.push(performance.now())) });
  return { album, ana, heard, times, selfId: (await shown.auth.getSession())!.userId };
}

const progress = (files: number, done: number, bytesSent: number): BroadcastMessage => ({
  type: 'upload-progress',
  userId: 'ana',
  payload: { displayName: 'Ana Lima', files, done, bytesTotal: 12_000_000, bytesSent, photos: true },
});

test('others see "Ana is adding 12 photos" with its progress, gone once she is done', async () => {
  const { album, ana } = await openAlbum();
  ana.broadcast(album.id, progress(12, 3, 3_000_000));
  await eventually(() => lines()?.textContent).toContain('Ana Lima is adding 12 photos');
  expect(lines()!.querySelector('[role="progressbar"]')!.getAttribute('aria-valuenow')).toBe('25');
  // Ana is also looking: the header shows her avatar beside the line. Nothing serious or critical for axe.
  ana.subscribe(album.id, {});
  await eventually(() => document.querySelector('ul[aria-label="Looking now"]')?.textContent).toContain('Ana Lima');
  const found = await axe.run(document.body, { resultTypes: ['violations'] });
  expect(found.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  ana.broadcast(album.id, progress(12, 12, 12_000_000));
  await eventually(() => lines()?.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow')).toBe('100');
  await eventually(() => lines()).toBeNull();
});

test('a message that is not progress (no counts, no files) shows nothing', async () => {
  const { album, ana } = await openAlbum();
  ana.broadcast(album.id, { type: 'upload-progress', userId: 'ana', payload: { displayName: '<b>x</b>', files: 'many' } });
  ana.broadcast(album.id, progress(0, 0, 0));
  ana.broadcast(album.id, progress(2, 1, 10));
  await eventually(() => lines()?.textContent).toContain('Ana Lima is adding 2 photos');
  expect(lines()!.querySelectorAll('li')).toHaveLength(1);
});

test('the uploading tab tells the album how many files it adds and how far it is, at most twice a second, and when it is done', async () => {
  const { heard, times, selfId } = await openAlbum();
  const input = document.querySelector<HTMLInputElement>('[data-testid="add-files-input"]')!;
  const files = ['a', 'b', 'c'].map((n) => new File([n.repeat(2000)], `${n}.txt`, { type: 'text/plain' }));
  const list = new DataTransfer();
  for (const f of files) list.items.add(f);
  input.files = list.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
  await eventually(() => heard.some((m) => m.payload.done === 3)).toBe(true);
  const at = heard.map((m) => m.payload);
  expect(heard.every((m) => m.userId === selfId && m.type === 'upload-progress')).toBe(true);
  expect(at[0]).toMatchObject({ files: 3, bytesTotal: 6000, photos: false });
  expect(at[at.length - 1]).toMatchObject({ files: 3, done: 3, bytesSent: 6000 });
  // ≤ 2 messages a second: never two within 500 ms (less a little for the channel's own delay).
  for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThan(450);
});
