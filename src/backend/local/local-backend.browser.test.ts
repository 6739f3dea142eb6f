import { afterEach, describe, expect, it, vi } from 'vitest';
import { overrideLimits } from '../../config';
import { resetLimits } from '../../testing/limits';
import { describeAuthPortContract } from '../../testing/contract/auth-port-contract';
import { addReadyItem, afterTrashPeriod, clockPasses, expectAbortError, expectAppError, expectNewestFirst, listAll, reserveInput, waitFor } from '../../testing/contract/contract-fixtures';
import { describeDataPortsContract } from '../../testing/contract/data-ports-contract';
import { describeFilesPortContract } from '../../testing/contract/files-port-contract';
import { describeRealtimePortContract } from '../../testing/contract/realtime-port-contract';
import { objectKeys, type ChangeEvent } from '../ports';
import type { PresenceViewer, Item } from '../../domain/entities';
import { createLocalBackend, type LocalBackendOptions } from './create-local-backend';
import { seedLocalAlbum } from '../../testing/local-seed';

/** Fresh names per test: a database, a file directory and a channel nobody else uses. */
function isolated(): Required<LocalBackendOptions> {
  const id = crypto.randomUUID();
  return { dbName: `test-${id}`, opfsDir: `test-${id}`, channelName: `test-${id}` };
}

afterEach(() => resetLimits());

describeDataPortsContract('local', () => createLocalBackend(isolated()), { shareLinks: false });
describeFilesPortContract('local', () => createLocalBackend(isolated()));
describeAuthPortContract('local', () => createLocalBackend(isolated()));
describeRealtimePortContract('local (two tabs)', () => {
  const names = isolated();
  return { a: createLocalBackend(names), b: createLocalBackend(names) };
});

async function opfsEntries(dir: string, path: string[]): Promise<string[] | null> {
  let handle = await (await navigator.storage.getDirectory()).getDirectoryHandle(dir);
  try {
    for (const segment of path) handle = await handle.getDirectoryHandle(segment);
  } catch {
    return null;
  }
  const names: string[] = [];
  for await (const name of (handle as FileSystemDirectoryHandle & { keys(): AsyncIterable<string> }).keys()) names.push(name);
  return names.sort();
}

describe('local backend', () => {
  it('lists albums made in a row newest first, and items added in a row newest first, even within one millisecond', async () => {
    const b = createLocalBackend(isolated());
    // Every write at the same instant: a fast device makes several in one millisecond.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const titles = Array.from({ length: 8 }, (_, i) => `Album ${i + 1}`);
      for (const title of titles) await b.albums.createAlbum({ title });
      expect((await b.albums.listAlbums()).map((a) => a.title)).toEqual(titles.toReversed());

      const album = (await b.albums.listAlbums())[0]!;
      const added: string[] = [];
      for (let i = 0; i < 8; i++) added.push((await addReadyItem(b, album.id, { takenAt: null })).id);
      expect((await b.items.listItems(album.id, { sort: 'added' })).rows.map((i) => i.id)).toEqual(added.toReversed());
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows a change made in one tab in another tab of the same album within a second', async () => {
    const names = isolated();
    const tab1 = createLocalBackend(names);
    const tab2 = createLocalBackend(names);
    const album = await tab1.albums.createAlbum({ title: 'Two tabs' });
    const heard: { ev: ChangeEvent; at: number }[] = [];
    const stop = tab2.realtime.subscribe(album.id, { onChange: (ev) => heard.push({ ev, at: performance.now() }) });
    try {
      const [reserved] = await tab1.itemWrites.reserveItems(album.id, [reserveInput()]);
      const start = performance.now();
      await tab1.itemWrites.finalizeItem(album.id, reserved!.id, {
        sha256: 'b'.repeat(64),
        width: 10,
        height: 10,
        durationMs: null,
        takenAt: null,
        hasPreview: false,
        hasThumb: true,
        thumbhash: null,
        metadata: {},
      });
      const got = await waitFor(() => heard.find((h) => h.ev.entity === 'item' && h.ev.row?.status === 'ready'), 1500, 'the item');
      expect(got.at - start).toBeLessThan(1000);
      // And what the other tab then reads is the same row.
      const page = await tab2.items.listItems(album.id, { sort: 'added' });
      expect(page.rows.map((i) => i.id)).toEqual([reserved!.id]);
      expect(heard.some((h) => h.ev.entity === 'album' && h.ev.row?.itemCount === 1)).toBe(true);
    } finally {
      stop();
    }
  });

  it('tells subscribers in the same tab as well', async () => {
    const b = createLocalBackend(isolated());
    const album = await b.albums.createAlbum({ title: 'Same tab' });
    const heard: ChangeEvent[] = [];
    const stop = b.realtime.subscribe(album.id, { onChange: (ev) => heard.push(ev) });
    const item = await addReadyItem(b, album.id);
    stop();
    expect(heard.flatMap((ev) => (ev.entity === 'item' ? [[ev.op, ev.row?.status]] : []))).toEqual([
      ['insert', 'uploading'],
      ['update', 'ready'],
    ]);
    expect(heard[0]!.id).toBe(item.id);
  });

  it('follows a clock set back, rather than stamping what comes next with the wrong time', async () => {
    const b = createLocalBackend(isolated());
    const day = 86_400_000;
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + day });
    try {
      const ahead = await b.albums.createAlbum({ title: 'While the clock was a day ahead' });
      vi.setSystemTime(Date.now() - day);
      const next = await b.albums.createAlbum({ title: 'After it was put right' });
      expect(Date.parse(ahead.updatedAt) - Date.parse(next.updatedAt)).toBeGreaterThan(day - 60_000);
      expect(next.updatedAt).toBe(new Date().toISOString());
    } finally {
      vi.useRealTimers();
    }
  });

  it('counts every tab as a viewer but lists the one local person once, since their first tab came', async () => {
    const names = isolated();
    const tab1 = createLocalBackend(names);
    const tab2 = createLocalBackend(names);
    const album = await tab1.albums.createAlbum({ title: 'Viewers' });
    let seen1: PresenceViewer[] = [];
    let seen2: PresenceViewer[] = [];
    const stop1 = tab1.realtime.subscribe(album.id, { onPresence: (v) => (seen1 = v) });
    const since1 = await waitFor(() => seen1[0]?.since, 1000, 'own presence');
    // The second tab opens later than the first: its own time would differ from the first one's.
    await clockPasses(since1);
    const stop2 = tab2.realtime.subscribe(album.id, { onPresence: (v) => (seen2 = v) });
    // The second tab learns of the first one: the person has been looking since the first tab opened.
    await waitFor(() => (seen2[0]?.since === since1 ? true : undefined), 1000, 'the first tab in the second');
    expect(seen2).toHaveLength(1);
    expect(seen2[0]!.userId).toBe((await tab1.auth.getSession())!.userId);

    await tab2.auth.updateProfile({ displayName: 'Grace' });
    await waitFor(() => (seen1[0]?.displayName === 'Grace' ? true : undefined), 1000, 'the new name');
    expect(seen1).toHaveLength(1);

    // The first tab closes the album: the second now counts only itself.
    stop1();
    await waitFor(() => (seen2[0] && seen2[0].since > since1 ? true : undefined), 1000, 'the first tab gone');
    expect(seen2).toHaveLength(1);
    stop2();
  });

  it('has one local profile: no sign-in, named "You" at first, renamed for every tab and kept', async () => {
    const names = isolated();
    const b = createLocalBackend(names);
    expect(b.auth.capabilities()).toEqual({ requiresSignIn: false, methods: [], oauthProviders: [] });
    const session = await b.auth.getSession();
    expect(session).toMatchObject({ email: null, expiresAt: null, profile: { displayName: 'You', avatarKey: null } });

    for (const attempt of [
      b.auth.signInWithPassword('a@example.com', 'password123'),
      b.auth.signUp('a@example.com', 'password123', 'A'),
      b.auth.sendMagicLink('a@example.com', 'https://example.com'),
      b.auth.signInWithOAuth('github', 'https://example.com'),
    ]) {
      const e = await expectAppError(attempt, 'backend/unreachable');
      expect(e.message).toMatch(/no account/);
    }
    await b.auth.signOut('global');
    expect((await b.auth.getSession())?.userId).toBe(session!.userId);

    const otherTab = createLocalBackend(names);
    const seen: string[] = [];
    otherTab.auth.onSessionChange((s) => s && seen.push(s.profile.displayName));
    await waitFor(() => seen[0], 1000, 'the first session');
    await b.auth.updateProfile({ displayName: 'Ada' });
    await waitFor(() => (seen.includes('Ada') ? true : undefined), 1000, 'the rename in the other tab');

    const afterReload = createLocalBackend(names);
    expect(await afterReload.auth.getSession()).toMatchObject({ userId: session!.userId, profile: { displayName: 'Ada' } });
  });

  it('declares no other members: inviting, handing over and changing roles are refused, and the owner stays alone', async () => {
    const b = createLocalBackend(isolated());
    expect(b.capabilities.sharing.members).toBe(false);
    const album = await b.albums.createAlbum({ title: 'Only me' });
    const someone = crypto.randomUUID();
    await expectAppError(b.members.createInvite(album.id, { role: 'viewer' }), 'album/forbidden');
    await expectAppError(b.members.transferOwnership(album.id, someone), 'album/forbidden');
    await expectAppError(b.members.setMemberRole(album.id, someone, 'editor'), 'album/forbidden');
    await expectAppError(b.members.removeMember(album.id, someone), 'album/forbidden');
    expect(await b.members.listInvites(album.id)).toEqual([]);
    expect((await b.members.listMembers(album.id)).map((m) => m.role)).toEqual(['owner']);
  });

  it('keeps albums and items across a reload', async () => {
    const names = isolated();
    const before = createLocalBackend(names);
    const album = await before.albums.createAlbum({ title: 'Persistent' });
    const item = await addReadyItem(before, album.id);
    const after = createLocalBackend(names);
    expect(await after.albums.getAlbum(album.id)).toMatchObject({ title: 'Persistent', itemCount: 1 });
    expect((await after.items.listItems(album.id, { sort: 'taken' })).rows).toEqual([item]);
  });

  it('purges items trashed longer than the trash period, rows and bytes, and nothing else', async () => {
    const b = createLocalBackend(isolated());
    const album = await b.albums.createAlbum({ title: 'Purge' });
    const old = await addReadyItem(b, album.id, { takenAt: '2020-01-01T00:00:00.000Z' });
    const kept = await addReadyItem(b, album.id, { takenAt: '2020-01-02T00:00:00.000Z' });
    for (const key of [old.originalKey, old.thumbKey!, kept.thumbKey!]) {
      await b.files.upload({ key, blob: new Blob(['bytes of ' + key]), contentType: 'application/octet-stream' });
    }
    await b.itemWrites.trashItems(album.id, [old.id]);
    expect(await b.functions.invoke('purge', {})).toEqual({ purged: 0 });

    await afterTrashPeriod(async () => expect(await b.functions.invoke('purge', {})).toEqual({ purged: 1 }));
    await expectAppError(b.items.getItem(album.id, old.id), 'item/not-found');
    expect((await b.items.listItems(album.id, { sort: 'taken', trashed: true })).rows).toEqual([]);
    expect(await b.items.countItemsByMonth(album.id, { sort: 'taken', trashed: true })).toEqual([]);
    const urls = await b.files.urls([old.originalKey, old.thumbKey!, kept.thumbKey!]);
    expect([...urls.keys()]).toEqual([kept.thumbKey]);
    expect(await opfsEntries((b.files as unknown as { rootName: string }).rootName, ['albums', album.id, old.id])).toBeNull();
    expect(await b.albums.getAlbum(album.id)).toMatchObject({ itemCount: 1 });

    const e = await expectAppError(b.functions.invoke('invite-email', {}), 'backend/unreachable');
    expect(e.message).toBe('This function is not available on the local backend.');
    // No link exists on a device: its public page says so rather than that something is broken.
    await expectAppError(b.functions.invoke('share-open', {}), 'share/not-found');
  });

  it('deletes an album with its items and their bytes', async () => {
    const names = isolated();
    const b = createLocalBackend(names);
    const album = await b.albums.createAlbum({ title: 'Doomed' });
    const keep = await b.albums.createAlbum({ title: 'Survivor' });
    const item = await addReadyItem(b, album.id);
    const survivor = await addReadyItem(b, keep.id);
    await b.files.upload({ key: item.originalKey, blob: new Blob(['x']), contentType: 'image/jpeg' });
    await b.files.upload({ key: survivor.originalKey, blob: new Blob(['y']), contentType: 'image/jpeg' });
    await b.albums.deleteAlbum(album.id);
    expect(await opfsEntries(names.opfsDir, ['albums', album.id])).toBeNull();
    expect((await b.files.urls([item.originalKey])).size).toBe(0);
    expect(await (await b.files.read(survivor.originalKey)).text()).toBe('y');
    expect((await b.activity.listActivity(50)).some((a) => a.albumId === album.id)).toBe(false);
    expect((await b.albums.getAlbum(keep.id)).itemCount).toBe(1);
  });

  it('holds at most the configured number of items per album; failed uploads free their place', async () => {
    overrideLimits({ maxItemsPerAlbum: 3 });
    const b = createLocalBackend(isolated());
    const album = await b.albums.createAlbum({ title: 'Small' });
    const first = [reserveInput(), reserveInput()];
    await b.itemWrites.reserveItems(album.id, first);
    const e = await expectAppError(b.itemWrites.reserveItems(album.id, [reserveInput(), reserveInput()]), 'validation/invalid');
    expect(e.message).toMatch(/full/);
    expect(await b.itemWrites.reserveItems(album.id, first)).toHaveLength(2);
    await b.itemWrites.failItem(album.id, first[0]!.id);
    await b.itemWrites.reserveItems(album.id, [reserveInput(), reserveInput()]);
    await expectAppError(b.itemWrites.reserveItems(album.id, [first[0]!]), 'validation/invalid');
  });

  it('never serves an uploaded SVG or HTML file as a document from the app origin', async () => {
    const b = createLocalBackend(isolated());
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>parent.pwned = 1</script></svg>';
    const original = 'albums/a/i/original';
    const thumb = 'albums/a/i/thumb.webp';
    await b.files.upload({ key: original, blob: new Blob([svg], { type: 'image/svg+xml' }), contentType: 'image/svg+xml' });
    await b.files.upload({ key: thumb, blob: new Blob([new Uint8Array(16)], { type: 'image/webp' }), contentType: 'image/webp' });
    const urls = await b.files.urls([original, thumb]);
    const res = await fetch(urls.get(original)!);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(await res.text()).toBe(svg);
    expect((await fetch(urls.get(thumb)!)).headers.get('content-type')).toBe('image/webp');
  });

  it('takes a failed upload back as a retry under the same id', async () => {
    const b = createLocalBackend(isolated());
    const album = await b.albums.createAlbum({ title: 'Retry' });
    const input = reserveInput();
    await b.itemWrites.reserveItems(album.id, [input]);
    await b.itemWrites.failItem(album.id, input.id);
    const [again] = await b.itemWrites.reserveItems(album.id, [input]);
    expect(again!.status).toBe('uploading');
  });

  it('refuses storage keys that could escape or hide, and invalid list queries', async () => {
    const b = createLocalBackend(isolated());
    for (const key of ['../outside', 'albums//x', 'albums/./x', '.hidden/x', 'albums/x/', 'a\\b']) {
      await expectAppError(b.files.upload({ key, blob: new Blob(['x']), contentType: 'text/plain' }), 'validation/invalid');
    }
    expect((await b.files.urls(['../outside'])).size).toBe(0);
    const album = await b.albums.createAlbum({ title: 'Queries' });
    await expectAppError(b.items.listItems(album.id, { sort: 'taken', cursor: 'garbage' }), 'validation/invalid');
    await expectAppError(b.items.listItems(album.id, { sort: 'taken', month: '2024-13' }), 'validation/invalid');
    await expectAppError(b.items.listItems(album.id, { sort: 'taken', limit: 0 }), 'validation/invalid');
    await expectAppError(b.itemWrites.reserveItems(album.id, [reserveInput({ id: '../x' })]), 'validation/invalid');
    const added = await addReadyItem(b, album.id);
    const cursorForAdded = (await b.items.listItems(album.id, { sort: 'added', limit: 1 })).rows[0];
    expect(cursorForAdded?.id).toBe(added.id);
  });

  it('leaves nothing at the key of a canceled upload, and abortUpload clears what was left', async () => {
    const names = isolated();
    const b = createLocalBackend(names);
    const album = await b.albums.createAlbum({ title: 'Cancel' });
    const [item] = await b.itemWrites.reserveItems(album.id, [reserveInput()]);
    const controller = new AbortController();
    const upload = b.files.upload(
      { key: item!.originalKey, blob: new Blob([new Uint8Array(20 * 1024 * 1024)]), contentType: 'image/jpeg' },
      { signal: controller.signal, onProgress: () => controller.abort() },
    );
    await expectAbortError(upload);
    expect(await opfsEntries(names.opfsDir, ['albums', album.id, item!.id])).toEqual([]);

    // A leftover from a crash: a hidden partial next to where the object would be.
    const dir = await (await (await (await (await navigator.storage.getDirectory()).getDirectoryHandle(names.opfsDir)).getDirectoryHandle('albums')).getDirectoryHandle(album.id)).getDirectoryHandle(item!.id);
    await dir.getFileHandle('.original.crashed.partial', { create: true });
    await b.files.abortUpload(item!.originalKey, undefined);
    expect(await opfsEntries(names.opfsDir, ['albums', album.id, item!.id])).toEqual([]);
  });

  it('serves one object URL per key until the object is removed', async () => {
    const b = createLocalBackend(isolated());
    const album = await b.albums.createAlbum({ title: 'URLs' });
    const key = objectKeys.thumb(album.id, crypto.randomUUID());
    await b.files.upload({ key, blob: new Blob(['thumb']), contentType: 'image/webp' });
    const first = (await b.files.urls([key])).get(key)!;
    expect(first).toMatch(/^blob:/);
    expect((await b.files.urls([key])).get(key)).toBe(first);
    await b.files.remove([key]);
    await expect(fetch(first)).rejects.toThrow();
  });

  it('pages the same in browsers without getAllRecords (a cursor walk instead)', async () => {
    const names = isolated();
    const b = createLocalBackend(names);
    const album = await b.albums.createAlbum({ title: 'Fallback' });
    await seedLocalAlbum(names, album.id, 450, { seed: 7 });
    await addReadyItem(b, album.id, { kind: 'video', takenAt: '2015-06-01T00:00:00.000Z' });
    const query = { sort: 'taken' as const, limit: 100 };
    const withRecords = await listAll(b, album.id, query);
    const proto = IDBIndex.prototype as IDBIndex & { getAllRecords?: unknown };
    const saved = Object.getOwnPropertyDescriptor(proto, 'getAllRecords');
    expect(saved).toBeDefined();
    delete proto.getAllRecords;
    try {
      const withCursor = await listAll(b, album.id, query);
      expect(withCursor.rows.map((i) => i.id)).toEqual(withRecords.rows.map((i) => i.id));
      expect(withCursor.pages).toBe(5);
      expect((await b.items.listItems(album.id, { sort: 'taken', kind: 'video' })).rows).toHaveLength(1);
    } finally {
      Object.defineProperty(proto, 'getAllRecords', saved!);
    }
    expect(withRecords.rows).toHaveLength(451);
    expectNewestFirst(withRecords.rows, (i) => i.takenAt!);
  });

  describe('an album of 100,000 items', () => {
    const COUNT = 100_000;

    it('pages in order with continuous cursors and month counts that match the rows', async () => {
      const names = isolated();
      const b = createLocalBackend(names);
      const album = await b.albums.createAlbum({ title: 'Huge' });
      await seedLocalAlbum(names, album.id, COUNT, { seed: 42 });
      expect(await b.albums.getAlbum(album.id)).toMatchObject({ itemCount: COUNT });

      // Three pages in a row: newest first, no gap or repeat where they join.
      const pages: Item[] = [];
      let cursor: string | null = null;
      for (let i = 0; i < 3; i++) {
        const page: { rows: Item[]; nextCursor: string | null } = await b.items.listItems(album.id, { sort: 'taken', limit: 200, cursor });
        expect(page.rows).toHaveLength(200);
        pages.push(...page.rows);
        cursor = page.nextCursor;
      }
      expectNewestFirst(pages, (i) => i.takenAt!);
      expect(new Set(pages.map((i) => i.id)).size).toBe(600);
      const oneBig = (await b.items.listItems(album.id, { sort: 'taken', limit: 600 })).rows;
      expect(oneBig.map((i) => i.id)).toEqual(pages.map((i) => i.id));

      const byAdded = (await b.items.listItems(album.id, { sort: 'added', limit: 200 })).rows;
      expectNewestFirst(byAdded, (i) => i.createdAt);

      const months = await b.items.countItemsByMonth(album.id, { sort: 'taken' });
      expect(months.reduce((n, m) => n + m.count, 0)).toBe(COUNT);
      for (let i = 1; i < months.length; i++) expect(months[i - 1]!.month > months[i]!.month).toBe(true);
      expect(months[0]!.month).toBe(pages[0]!.takenAt!.slice(0, 7));
      const added = await b.items.countItemsByMonth(album.id, { sort: 'added' });
      expect(added.reduce((n, m) => n + m.count, 0)).toBe(COUNT);
      expect(await b.items.countItemsByMonth(album.id, { sort: 'taken', kind: 'video' })).toEqual([]);

      // A few months, read row by row through their pages, hold exactly what the counts say.
      const sample = [months[0]!, months[Math.floor(months.length / 2)]!, months[months.length - 1]!];
      for (const { month, count } of sample) {
        const { rows } = await listAll(b, album.id, { sort: 'taken', month, limit: 500 });
        expect(rows).toHaveLength(count);
        expect(rows.every((r) => r.takenAt!.startsWith(month))).toBe(true);
        expectNewestFirst(rows, (r) => r.takenAt!);
      }

      // Trashing from the big album moves the counts by exactly that much.
      const victim = pages[0]!;
      await b.itemWrites.trashItems(album.id, [victim.id]);
      const after = await b.items.countItemsByMonth(album.id, { sort: 'taken' });
      const month = victim.takenAt!.slice(0, 7);
      expect(after.find((m) => m.month === month)?.count ?? 0).toBe(months[0]!.count - 1);
      expect(await b.items.countItemsByMonth(album.id, { sort: 'taken', trashed: true })).toEqual([{ month, count: 1 }]);
      expect((await b.items.listItems(album.id, { sort: 'taken', limit: 1 })).rows[0]!.id).toBe(pages[1]!.id);

      // The seeded thumbnails are a few shared WebP files that decode.
      const urls = await b.files.urls(pages.map((i) => i.thumbKey!));
      expect(urls.size).toBeGreaterThan(1);
      expect(urls.size).toBeLessThanOrEqual(8);
      const bitmap = await createImageBitmap(await (await fetch([...urls.values()][0]!)).blob());
      expect(Math.max(bitmap.width, bitmap.height)).toBe(480);
    }, 120_000);
  });
});
