/**
 * The home screen's activity and unread badges, and who added an item, on the real routes. The local backend
 * has one person, so lines by others, unread counts and former members are shown as a shared album's backend
 * would give them (its activity and counts answered here, everything else real).
 */
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, expect, test, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { createLocalBackend } from '../backend/local/create-local-backend';
import type { Backend } from '../backend/ports';
import type { Activity, Item } from '../domain/entities';
import { AppError } from '../lib/app-error';
import { addReadyItem, withOverrides } from '../testing/contract/contract-fixtures';
import { seedLocalAlbum } from '../testing/local-seed';
import { renderRoutes } from '../testing/render-routes';
import { isolatedLocal } from '../testing/isolated-local';
import { LIVE_REFRESH_MS } from '../shared/live/use-live-anywhere';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
afterEach(() => {
  vi.useRealTimers();
  flushSync(() => root.render(null));
});

const isolated = () => isolatedLocal('activity');

const eventually = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });
const show = (backend: Backend, path: string): Promise<void> => renderRoutes(root, backend, path);
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
const entries = () => [...document.querySelectorAll<HTMLElement>('.activity__entry')];
const entryText = (e: HTMLElement) => e.querySelector('.activity__text')!.textContent!.replace(/ · .*$/, '');

function line(albumId: string, albumTitle: string, minutes: number, patch: Partial<Activity>): Activity {
  return {
    id: crypto.randomUUID(),
    albumId,
    albumTitle,
    actorId: 'ana',
    actorName: 'Ana',
    verb: 'added_items',
    subjectId: null,
    subjectKind: null,
    count: 1,
    createdAt: minutesAgo(minutes),
    ...patch,
  };
}

test('activity reads as grouped sentences that link to the album or the photo, with relative times and the exact time', async () => {
  const real = createLocalBackend(isolated());
  const album = await real.albums.createAlbum({ title: 'Lisbon' });
  const lines: Activity[] = [
    line(album.id, 'Lisbon', 2, { count: 5 }),
    line(album.id, 'Lisbon', 9, { count: 7 }),
    line(album.id, 'Lisbon', 130, { actorId: 'ben', actorName: 'Ben', verb: 'commented', subjectId: 'item-1', subjectKind: 'image', count: 2 }),
    line(album.id, 'Lisbon', 200, { actorId: 'cy', actorName: null, verb: 'left' }),
    line(album.id, 'Lisbon', 3000, { actorId: 'ben', actorName: 'Ben', verb: 'joined' }),
  ];
  const backend: Backend = { ...real, activity: withOverrides(real.activity, { listActivity: () => Promise.resolve(lines) }) };
  await show(backend, '/');
  await eventually(() => entries().map(entryText)).toEqual([
    'Ana added 12 items to Lisbon',
    'Ben commented on a photo in Lisbon',
    'Someone left Lisbon',
    'Ben joined Lisbon',
  ]);
  const [added, commented] = entries();
  expect([...added!.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')])).toEqual([['Lisbon', `/albums/${album.id}`]]);
  expect([...commented!.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
    ['a photo', `/albums/${album.id}/items/item-1`],
    ['Lisbon', `/albums/${album.id}`],
  ]);
  const time = added!.querySelector('time')!;
  expect(time.textContent).toBe('2 minutes ago');
  expect(time.getAttribute('dateTime')).toBe(lines[0]!.createdAt);
  expect(time.title).toMatch(/\d/);
  expect(commented!.querySelector('time')!.textContent).toBe('2 hours ago');

  await userEvent.click(added!.querySelector('a')!);
  await eventually(() => document.querySelector('h1')?.textContent).toBe('Lisbon');
});

test('an album and a name that look like markup are shown as text', async () => {
  const real = createLocalBackend(isolated());
  const album = await real.albums.createAlbum({ title: 'Plain' });
  const evil = '<img src=x onerror="window.__pwned=1">';
  const backend: Backend = {
    ...real,
    activity: withOverrides(real.activity, { listActivity: () => Promise.resolve([line(album.id, evil, 1, { actorName: evil })]) }),
  };
  await show(backend, '/');
  await eventually(() => entries().map(entryText)).toEqual([`${evil} added an item to ${evil}`]);
  expect(document.querySelector('.activity img')).toBeNull();
});

/** A device with one album, 'Still here', whose activity feed fails with `error` until `recover()`. */
async function feedFailingWith(error: AppError) {
  const real = createLocalBackend(isolated());
  await real.albums.createAlbum({ title: 'Still here' });
  let failing = true;
  const backend: Backend = {
    ...real,
    activity: withOverrides(real.activity, {
      listActivity: (limit, opts) => (failing ? Promise.reject(error) : real.activity.listActivity(limit, opts)),
    }),
  };
  return { real, backend, recover: () => (failing = false) };
}

test('nothing yet says so; a failure says what went wrong and reads again on Try again, the albums still shown', async () => {
  const empty = createLocalBackend(isolated());
  await show(empty, '/');
  await eventually(() => document.querySelector('.activity__empty')?.textContent).toMatch(/^Nothing new yet/);
  flushSync(() => root.render(null));

  const { real, backend, recover } = await feedFailingWith(new AppError('backend/unreachable', 'down', { retryable: false }));
  await show(backend, '/');
  const section = () => document.querySelector<HTMLElement>('section[aria-labelledby="activity-title"]');
  await eventually(() => section()?.querySelector('[role="alert"]')?.getAttribute('data-error-code')).toBe('backend/unreachable');
  await eventually(() => document.querySelector('[aria-label="Your albums"]')?.textContent).toContain('Still here');
  recover();
  await userEvent.click(section()!.querySelector('button')!);
  await eventually(() => entries().map(entryText)).toEqual([`${(await real.auth.getSession())!.profile.displayName} created Still here`]);
});

test('a feed that cannot reach the server is a quiet line with Try again, leaving the albums above as they are', async () => {
  const { real, backend, recover } = await feedFailingWith(new AppError('backend/unreachable', 'down'));
  await show(backend, '/');
  const section = () => document.querySelector<HTMLElement>('section[aria-labelledby="activity-title"]');
  // After its retries: a status line, not an alert.
  await eventually(() => section()?.querySelector('[role="status"]')?.textContent).toMatch(/^Recent activity could not be loaded/);
  expect(document.querySelectorAll('[role="alert"]')).toHaveLength(0);
  await eventually(() => document.querySelector('[aria-label="Your albums"]')?.textContent).toContain('Still here');
  recover();
  await userEvent.click(section()!.querySelector('button')!);
  await eventually(() => entries().map(entryText)).toEqual([`${(await real.auth.getSession())!.profile.displayName} created Still here`]);
});

test('each album shows what is new since it was opened ("99+" from 100); opening one clears its badge without waiting for the counts to be read again', async () => {
  const real = createLocalBackend(isolated());
  // Made in a row within one millisecond, as a fast device makes them: still listed newest first.
  vi.useFakeTimers({ toFake: ['Date'] });
  const lisbon = await real.albums.createAlbum({ title: 'Lisbon' });
  const porto = await real.albums.createAlbum({ title: 'Porto' });
  await real.albums.createAlbum({ title: 'Quiet' });
  vi.useRealTimers();
  // The counts are read once; every later read (the albums screen reads them again a moment after it starts
  // listening for changes, which may have been missed meanwhile) never answers, so a badge that clears did
  // not wait for one.
  const seen: string[] = [];
  let reads = 0;
  const backend: Backend = {
    ...real,
    activity: withOverrides(real.activity, {
      unreadCounts: () => (++reads === 1 ? Promise.resolve({ [lisbon.id]: 3, [porto.id]: 100 }) : new Promise<never>(() => {})),
      markAlbumSeen: async (id, opts) => {
        await real.activity.markAlbumSeen(id, opts);
        seen.push(id);
      },
    }),
  };
  await show(backend, '/');
  const badges = () =>
    [...document.querySelectorAll<HTMLElement>('.album-card')].map((c) => [
      c.querySelector('.album-card__title')?.textContent,
      c.querySelector('[data-testid="unread-badge"] [aria-hidden="true"]')?.textContent ?? null,
    ]);
  await eventually(badges).toEqual([
    ['Quiet', null],
    ['Porto', '99+'],
    ['Lisbon', '3'],
  ]);
  const lisbonCard = [...document.querySelectorAll<HTMLAnchorElement>('a.album-card')].find((a) => a.textContent?.includes('Lisbon'))!;
  // The count is part of the link's name for screen readers.
  expect(lisbonCard.textContent).toContain('3 new');
  await userEvent.click(lisbonCard);
  await eventually(() => document.querySelector('h1')?.textContent).toBe('Lisbon');
  await eventually(() => seen).toEqual([lisbon.id]);

  await userEvent.click(document.querySelector<HTMLAnchorElement>('nav[aria-label="Main"] a[href="/"]')!);
  await eventually(badges).toEqual([
    ['Quiet', null],
    ['Porto', '99+'],
    ['Lisbon', null],
  ]);
  expect(seen).toEqual([lisbon.id]);
});

test('the details panel and the tile say who added an item; someone no longer a member is "Someone who left"', async () => {
  const names = isolated();
  const real = createLocalBackend(names);
  const me = (await real.auth.getSession())!.profile.displayName;
  const album = await real.albums.createAlbum({ title: 'Credits' });
  await seedLocalAlbum(names, album.id, 2, { seed: 5 });
  const items = (await real.items.listItems(album.id, { sort: 'taken', limit: 10 })).rows;
  const gone = items[1]!.id;
  const asSeen = (item: Item): Item => (item.id === gone ? { ...item, uploaderId: 'former-member' } : item);
  let memberReads = 0;
  const backend: Backend = {
    ...real,
    items: withOverrides(real.items, {
      listItems: async (id, query, opts) => {
        const page = await real.items.listItems(id, query, opts);
        return { ...page, rows: page.rows.map(asSeen) };
      },
      getItem: async (id, itemId, opts) => asSeen(await real.items.getItem(id, itemId, opts)),
    }),
    members: withOverrides(real.members, {
      listMembers: (id, opts) => {
        memberReads++;
        return real.members.listMembers(id, opts);
      },
    }),
  };
  const tile = (id: string) => document.querySelector<HTMLElement>(`[data-item-id="${CSS.escape(id)}"]`);
  await show(backend, `/albums/${album.id}`);
  await eventually(() => tile(items[0]!.id)?.title).toMatch(new RegExp(`\\nAdded by ${me}$`));
  expect(tile(gone)!.title).toMatch(/\nAdded by Someone who left$/);
  expect(tile(gone)!.querySelector('.tile__credit')?.textContent).toBe('Someone who left');

  await userEvent.click(tile(items[0]!.id)!);
  const detail = (label: string) => {
    const dt = [...document.querySelectorAll('.viewer__details dt')].find((d) => d.textContent === label);
    return dt?.nextElementSibling?.textContent;
  };
  await eventually(() => document.querySelector('[role="dialog"] button[aria-label="Details"]')).toBeTruthy();
  await userEvent.click(document.querySelector<HTMLElement>('[role="dialog"] button[aria-label="Details"]')!);
  await eventually(() => document.querySelector('.viewer__details')).toBeTruthy();
  await eventually(() => detail('Added by')).toMatch(new RegExp(`^${me} · .*\\d`));
  await userEvent.keyboard('{ArrowRight}');
  await eventually(() => detail('Added by')).toMatch(/^Someone who left · /);
  // One read of the member list for the grid, its tiles and the viewer.
  expect(memberReads).toBe(1);
});

test('a burst of changes elsewhere refreshes the albums screen once, not once per change', async () => {
  const names = isolated();
  const real = createLocalBackend(names);
  // Another tab on the same albums.
  const other = createLocalBackend(names);
  const album = await real.albums.createAlbum({ title: 'Busy' });
  const readAt: number[] = [];
  const backend: Backend = {
    ...real,
    activity: withOverrides(real.activity, {
      unreadCounts: (opts) => {
        readAt.push(performance.now());
        return real.activity.unreadCounts(opts);
      },
    }),
  };
  await show(backend, '/');
  await eventually(() => entries().length).toBe(1);
  expect(readAt).toHaveLength(1);
  // When this tab hears each change; a broadcast the other tab sends after its last change comes after all of
  // them (one channel, in order).
  const heardAt: number[] = [];
  let allHeard = false;
  const stopHearing = real.realtime.subscribe(null, { onChange: () => heardAt.push(performance.now()) });
  const stopMarker = real.realtime.subscribe(album.id, { onBroadcast: () => (allHeard = true) });
  try {
    await Promise.all(Array.from({ length: 6 }, () => addReadyItem(other, album.id)));
    other.realtime.broadcast(album.id, { type: 'upload-progress', userId: 'test', payload: {} });
    await eventually(() => allHeard).toBe(true);
    const first = heardAt[0]!;
    const last = heardAt.at(-1)!;
    // Every change is answered by a refresh after it.
    await eventually(() => readAt.some((t) => t > last)).toBe(true);
    await eventually(() => entries().map(entryText)).toEqual([expect.stringMatching(/ added 6 photos to Busy$/), expect.stringMatching(/ created Busy$/)]);
    // Six additions send a score of events, and a refresh per event read the counts 19 times: the screen
    // refreshes once per LIVE_REFRESH_MS of them (a slow machine spreads them over more).
    const refreshes = readAt.length - 1;
    expect(heardAt.length).toBeGreaterThan(6);
    expect(refreshes).toBeGreaterThanOrEqual(1);
    expect(refreshes).toBeLessThanOrEqual(1 + Math.ceil((last - first) / LIVE_REFRESH_MS));
  } finally {
    stopHearing();
    stopMarker();
  }
});
