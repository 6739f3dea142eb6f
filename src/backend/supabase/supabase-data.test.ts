import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../lib/app-error';
import { expectAbortError, expectAppError, finalizeInput, reserveInput } from '../../testing/contract/contract-fixtures';
import { signedIn } from '../../testing/supabase-test-session';
import { ANON_KEY, json } from '../../testing/supabase-wire-stub';

const ALBUM_ID = '0b7c2f8e-5d1a-4e6b-8c3d-9f0a1b2c3d4e';

const ALBUM_ROW = {
  id: ALBUM_ID,
  owner_id: '6f1d3a52-1111-4c3b-9a8e-2b8f0c1d2e3f',
  title: 'Lisbon',
  description: 'Trams',
  cover_item_id: null,
  item_count: 3,
  bytes_total: 7000,
  created_at: '2024-05-01T10:00:00.123456+00:00',
  updated_at: '2024-05-02 11:00:00+00',
  deleted_at: null,
  role: 'editor',
  cover_thumb_key: `albums/${ALBUM_ID}/i1/thumb.webp`,
  cover_thumbhash: 'HASH',
  keep_location: false,
};

function itemRow(n: number, sortTaken: string, overrides: Record<string, unknown> = {}) {
  const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  return {
    id,
    album_id: ALBUM_ID,
    uploader_id: '6f1d3a52-1111-4c3b-9a8e-2b8f0c1d2e3f',
    kind: 'image',
    status: 'ready',
    filename: `IMG_${n}.jpg`,
    mime: 'image/jpeg',
    bytes: 1000 + n,
    sha256: 'a'.repeat(64),
    width: 4000,
    height: 3000,
    duration_ms: null,
    taken_at: sortTaken,
    original_key: `albums/${ALBUM_ID}/${id}/original`,
    preview_key: `albums/${ALBUM_ID}/${id}/preview.webp`,
    thumb_key: `albums/${ALBUM_ID}/${id}/thumb.webp`,
    thumbhash: 'AAAA',
    metadata: { cameraMake: 'Canon', iso: 200, keywords: ['sea', 3], unknownField: 'dropped' },
    created_at: '2024-06-01T00:00:00+00:00',
    deleted_at: null,
    sort_taken: sortTaken,
    ...overrides,
  };
}

/** PostgREST's error body for a function that raised with the product's convention. */
function raised(code: string, detail = 'A sentence for people.') {
  return json({ code: 'P0001', message: code, details: detail, hint: null }, 400);
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Supabase data: requests on the wire', () => {
  it('lists albums from album_summaries, newest update first, with the user’s token, mapped to the app’s shape', async () => {
    const { backend, stub, token } = await signedIn();
    stub.on('GET', '/rest/v1/album_summaries', [ALBUM_ROW]);
    const albums = await backend.albums.listAlbums();

    const req = stub.last('/rest/v1/album_summaries');
    expect(req.url.searchParams.get('select')).toBe('*');
    expect(req.url.searchParams.get('deleted_at')).toBe('is.null');
    expect(req.url.searchParams.get('order')).toBe('updated_at.desc,id.desc');
    expect(req.headers.get('apikey')).toBe(ANON_KEY);
    expect(req.headers.get('authorization')).toBe(`Bearer ${token}`);
    expect(albums).toEqual([
      {
        id: ALBUM_ID,
        ownerId: ALBUM_ROW.owner_id,
        title: 'Lisbon',
        description: 'Trams',
        coverItemId: null,
        coverThumbKey: ALBUM_ROW.cover_thumb_key,
        coverThumbhash: 'HASH',
        itemCount: 3,
        bytesTotal: 7000,
        createdAt: '2024-05-01T10:00:00.123Z',
        updatedAt: '2024-05-02T11:00:00.000Z',
        role: 'editor',
        keepLocation: false,
      },
    ]);
  });

  it('reads one album as an object and answers album/not-found when PostgREST finds no row (PGRST116)', async () => {
    const { backend, stub } = await signedIn();
    stub.on('GET', '/rest/v1/album_summaries', json({ code: 'PGRST116', details: 'The result contains 0 rows', hint: null, message: 'JSON object requested, multiple (or no) rows returned' }, 406));
    const e = await expectAppError(backend.albums.getAlbum(ALBUM_ID), 'album/not-found');
    expect(e.retryable).toBe(false);
    const req = stub.last('/rest/v1/album_summaries');
    expect(req.url.searchParams.get('id')).toBe(`eq.${ALBUM_ID}`);
    expect(req.headers.get('accept')).toBe('application/vnd.pgrst.object+json');

    stub.on('GET', '/rest/v1/album_summaries', ALBUM_ROW);
    expect((await backend.albums.getAlbum(ALBUM_ID)).title).toBe('Lisbon');
  });

  it('creates an album through create_album with the trimmed text, and refuses a bad title without asking the server', async () => {
    const { backend, stub } = await signedIn();
    stub.on('POST', '/rest/v1/rpc/create_album', [{ ...ALBUM_ROW, role: 'owner', title: 'Summer' }]);
    const album = await backend.albums.createAlbum({ title: '  Summer ', description: ' Beaches ' });
    const req = stub.last('/rest/v1/rpc/create_album', 'POST');
    expect(req.body).toEqual({ p_title: 'Summer', p_description: 'Beaches' });
    expect(album).toMatchObject({ title: 'Summer', role: 'owner' });

    stub.clear();
    const e = await expectAppError(backend.albums.createAlbum({ title: 'line\nbreak' }), 'validation/invalid');
    expect(e.details).toEqual({ field: 'title', rule: 'control' });
    expect(stub.requests).toHaveLength(0);
  });

  it('updates an album with a snake_case patch, including clearing the cover', async () => {
    const { backend, stub } = await signedIn();
    stub.on('POST', '/rest/v1/rpc/update_album', [{ ...ALBUM_ROW, title: 'Renamed' }]);
    await backend.albums.updateAlbum(ALBUM_ID, { title: ' Renamed ', coverItemId: null });
    expect(stub.last('/rest/v1/rpc/update_album').body).toEqual({ p_album_id: ALBUM_ID, p_patch: { title: 'Renamed', cover_item_id: null } });
  });

  it('pages items with a keyset cursor on (sort_taken, id), keeping the microseconds Postgres sent', async () => {
    const { backend, stub } = await signedIn();
    const rows = [
      itemRow(4, '2024-03-01T10:00:00.000004+00:00'),
      itemRow(3, '2024-02-01T10:00:00.123456+00:00'),
      itemRow(2, '2024-02-01T10:00:00.123456+00:00'),
      itemRow(1, '2024-01-01T00:00:00+00:00'),
    ];
    stub.on('GET', '/rest/v1/items', rows);
    const first = await backend.items.listItems(ALBUM_ID, { sort: 'taken', limit: 3 });
    let q = stub.last('/rest/v1/items').url.searchParams;
    expect(q.get('album_id')).toBe(`eq.${ALBUM_ID}`);
    expect(q.get('status')).toBe('eq.ready');
    expect(q.get('deleted_at')).toBe('is.null');
    expect(q.get('order')).toBe('sort_taken.desc,id.desc');
    expect(q.get('limit')).toBe('4');
    expect(q.has('or')).toBe(false);
    expect(first.rows.map((i) => i.filename)).toEqual(['IMG_4.jpg', 'IMG_3.jpg', 'IMG_2.jpg']);
    expect(first.rows[1]).toMatchObject({ takenAt: '2024-02-01T10:00:00.123Z', metadata: { cameraMake: 'Canon', iso: 200, keywords: ['sea'] } });
    expect(first.rows[1]!.metadata).not.toHaveProperty('unknownField');
    expect(first.rows[1]).not.toHaveProperty('sortTaken');
    expect(first.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);

    stub.on('GET', '/rest/v1/items', [rows[3]]);
    const second = await backend.items.listItems(ALBUM_ID, { sort: 'taken', limit: 3, cursor: first.nextCursor });
    q = stub.last('/rest/v1/items').url.searchParams;
    const t = '"2024-02-01T10:00:00.123456+00:00"';
    expect(q.get('or')).toBe(`(sort_taken.lt.${t},and(sort_taken.eq.${t},id.lt."${rows[2]!.id}"))`);
    expect(second).toEqual({ rows: [expect.objectContaining({ filename: 'IMG_1.jpg' })], nextCursor: null });

    await expectAppError(backend.items.listItems(ALBUM_ID, { sort: 'taken', cursor: 'not-a-cursor' }), 'validation/invalid');
  });

  it('filters by month as a UTC range on the sort column, by kind, and reads the trash', async () => {
    const { backend, stub } = await signedIn();
    stub.on('GET', '/rest/v1/items', [itemRow(1, '2023-12-31T23:59:59+00:00', { kind: 'video' })]);
    await backend.items.listItems(ALBUM_ID, { sort: 'added', month: '2023-12', kind: 'video', trashed: true });
    const q = stub.last('/rest/v1/items').url.searchParams;
    expect(q.getAll('created_at')).toEqual(['gte.2023-12-01T00:00:00.000Z', 'lt.2024-01-01T00:00:00.000Z']);
    expect(q.get('kind')).toBe('eq.video');
    expect(q.get('deleted_at')).toBe('not.is.null');
    expect(q.get('order')).toBe('created_at.desc,id.desc');
    expect(q.get('limit')).toBe('201');

    await expectAppError(backend.items.listItems(ALBUM_ID, { sort: 'taken', month: '2023-13' }), 'validation/invalid');
  });

  it('tells an empty album from one the caller cannot see', async () => {
    const { backend, stub } = await signedIn();
    stub.on('GET', '/rest/v1/items', []);
    stub.on('GET', '/rest/v1/album_summaries', [{ id: ALBUM_ID }]);
    expect(await backend.items.listItems(ALBUM_ID, { sort: 'taken' })).toEqual({ rows: [], nextCursor: null });
    stub.on('GET', '/rest/v1/album_summaries', []);
    await expectAppError(backend.items.listItems(ALBUM_ID, { sort: 'taken' }), 'album/not-found');
    expect(stub.last('/rest/v1/album_summaries').url.searchParams.get('id')).toBe(`eq.${ALBUM_ID}`);
  });

  it('answers item/not-found for a missing item of a visible album, album/not-found otherwise', async () => {
    const { backend, stub } = await signedIn();
    const none = json({ code: 'PGRST116', details: 'The result contains 0 rows', hint: null, message: 'JSON object requested, multiple (or no) rows returned' }, 406);
    stub.on('GET', '/rest/v1/items', none);
    stub.on('GET', '/rest/v1/album_summaries', [{ id: ALBUM_ID }]);
    await expectAppError(backend.items.getItem(ALBUM_ID, crypto.randomUUID()), 'item/not-found');
    stub.on('GET', '/rest/v1/album_summaries', []);
    await expectAppError(backend.items.getItem(ALBUM_ID, crypto.randomUUID()), 'album/not-found');
  });

  it('counts by month through count_items_by_month', async () => {
    const { backend, stub } = await signedIn();
    stub.on('POST', '/rest/v1/rpc/count_items_by_month', [
      { month: '2023-02', count: 1 },
      { month: '2023-01', count: '3' },
    ]);
    expect(await backend.items.countItemsByMonth(ALBUM_ID, { sort: 'taken', kind: 'video' })).toEqual([
      { month: '2023-02', count: 1 },
      { month: '2023-01', count: 3 },
    ]);
    expect(stub.last('/rest/v1/rpc/count_items_by_month').body).toEqual({ p_album_id: ALBUM_ID, p_sort: 'taken', p_trashed: false, p_kind: 'video' });
  });

  it('reserves, finalizes, fails, trashes and restores through the SQL functions with snake_case arguments', async () => {
    const { backend, stub } = await signedIn();
    const inputs = [reserveInput(), reserveInput({ kind: 'video', bytes: 5000 })];
    // The function may answer in any order; the port answers in the order asked.
    stub.on('POST', '/rest/v1/rpc/reserve_items', inputs.map((i, n) => itemRow(n, '2024-01-01T00:00:00+00:00', { id: i.id, status: 'uploading' })).reverse());
    const reserved = await backend.itemWrites.reserveItems(ALBUM_ID, inputs);
    expect(reserved.map((i) => i.id)).toEqual(inputs.map((i) => i.id));
    expect(stub.last('/rest/v1/rpc/reserve_items').body).toEqual({ p_album_id: ALBUM_ID, p_items: inputs });

    const itemId = inputs[0]!.id;
    stub.on('POST', '/rest/v1/rpc/finalize_item', [itemRow(1, '2024-01-01T00:00:00+00:00', { id: itemId })]);
    await backend.itemWrites.finalizeItem(ALBUM_ID, itemId, finalizeInput({ durationMs: 1500, takenAt: '2024-01-01T00:00:00.000Z', metadata: { iso: 100 } }));
    expect(stub.last('/rest/v1/rpc/finalize_item').body).toEqual({
      p_album_id: ALBUM_ID,
      p_item_id: itemId,
      p_input: {
        sha256: 'a'.repeat(64),
        width: 4000,
        height: 3000,
        duration_ms: 1500,
        taken_at: '2024-01-01T00:00:00.000Z',
        has_preview: true,
        has_thumb: true,
        thumbhash: 'AAAAAA==',
        metadata: { iso: 100 },
      },
    });
    stub.on('POST', '/rest/v1/rpc/finalize_item', []);
    await expectAppError(backend.itemWrites.finalizeItem(ALBUM_ID, itemId, finalizeInput()), 'item/not-found');

    for (const fn of ['fail_item', 'trash_items', 'restore_items', 'delete_album']) stub.on('POST', `/rest/v1/rpc/${fn}`, new Response(null, { status: 204 }));
    await backend.itemWrites.failItem(ALBUM_ID, itemId);
    expect(stub.last('/rest/v1/rpc/fail_item').body).toEqual({ p_album_id: ALBUM_ID, p_item_id: itemId });
    await backend.itemWrites.trashItems(ALBUM_ID, [itemId]);
    expect(stub.last('/rest/v1/rpc/trash_items').body).toEqual({ p_album_id: ALBUM_ID, p_item_ids: [itemId] });
    await backend.itemWrites.restoreItems(ALBUM_ID, [itemId]);
    expect(stub.last('/rest/v1/rpc/restore_items').body).toEqual({ p_album_id: ALBUM_ID, p_item_ids: [itemId] });
    await backend.albums.deleteAlbum(ALBUM_ID);
    expect(stub.last('/rest/v1/rpc/delete_album').body).toEqual({ p_album_id: ALBUM_ID });
  });

  it('reads the activity feed newest first, limited', async () => {
    const { backend, stub } = await signedIn();
    stub.on('GET', '/rest/v1/activity_feed', [
      { id: 'a1', album_id: ALBUM_ID, album_title: 'Lisbon', actor_id: 'u1', actor_name: 'Ada', verb: 'added_items', subject: 'i1', subject_kind: null, count: 3, created_at: '2024-06-01T00:00:00+00:00' },
    ]);
    expect(await backend.activity.listActivity(20)).toEqual([
      { id: 'a1', albumId: ALBUM_ID, albumTitle: 'Lisbon', actorId: 'u1', actorName: 'Ada', verb: 'added_items', subjectId: 'i1', subjectKind: null, count: 3, createdAt: '2024-06-01T00:00:00.000Z' },
    ]);
    const q = stub.last('/rest/v1/activity_feed').url.searchParams;
    expect(q.get('order')).toBe('created_at.desc,id.desc');
    expect(q.get('limit')).toBe('20');
  });
});

describe('Supabase data: every error becomes an AppError', () => {
  const productCodes = ['album/not-found', 'album/forbidden', 'item/not-found', 'validation/invalid', 'upload/too-large', 'upload/empty', 'share/not-found', 'invite/not-found', 'invite/expired', 'invite/revoked', 'invite/used-up'] as const;

  it.each(productCodes)('a function raising %s (P0001) gives that code, and the function’s words only to the log', async (code) => {
    const { backend, stub } = await signedIn();
    stub.on('POST', '/rest/v1/rpc/trash_items', raised(code, 'Said by the database.'));
    const e = await expectAppError(backend.itemWrites.trashItems(ALBUM_ID, []), code);
    expect(e.message).toContain('Said by the database.');
  });

  it('passes the field named in a P0001 hint on as details', async () => {
    const { backend, stub } = await signedIn();
    stub.on('POST', '/rest/v1/rpc/update_album', json({ code: 'P0001', message: 'validation/invalid', details: 'The cover must be a photo or video.', hint: '{"field":"coverItemId"}' }, 400));
    const e = await expectAppError(backend.albums.updateAlbum(ALBUM_ID, { coverItemId: crypto.randomUUID() }), 'validation/invalid');
    expect(e.details).toEqual({ field: 'coverItemId', rule: 'invalid' });
  });

  it.each([
    ['23514', 400, 'new row for relation "albums" violates check constraint "albums_title_check"', 'validation/invalid'],
    ['23502', 400, 'null value in column "title" violates not-null constraint', 'validation/invalid'],
    ['22001', 400, 'value too long for type character varying(120)', 'validation/invalid'],
    ['42501', 403, 'new row violates row-level security policy for table "items"', 'album/forbidden'],
    ['PGRST303', 401, 'JWT expired', 'auth/session-expired'],
    ['PGRST301', 401, 'No suitable key or wrong key type', 'auth/session-expired'],
  ] as const)('Postgres/PostgREST %s (HTTP %i, “%s”) becomes %s', async (code, status, message, expected) => {
    const { backend, stub } = await signedIn();
    stub.on('POST', '/rest/v1/rpc/trash_items', json({ code, message, details: null, hint: null }, status));
    const e = await expectAppError(backend.itemWrites.trashItems(ALBUM_ID, []), expected);
    expect(e.retryable).toBe(false);
  });

  it('server failures are retryable; a 429 says when to retry from Retry-After', async () => {
    const { backend, stub } = await signedIn();
    stub.on('GET', '/rest/v1/album_summaries', json({ message: 'upstream failed' }, 502));
    let e = await expectAppError(backend.albums.listAlbums(), 'backend/unreachable');
    expect(e.retryable).toBe(true);

    stub.on('GET', '/rest/v1/album_summaries', json({ message: 'API rate limit exceeded' }, 429, { 'Retry-After': '7' }));
    e = await expectAppError(backend.albums.listAlbums(), 'backend/unreachable');
    expect(e.retryable).toBe(true);
    expect(e.retryAfterMs).toBeGreaterThan(6000);
    expect(e.retryAfterMs).toBeLessThanOrEqual(7000);
  });

  it('a network failure is backend/unreachable (retryable), or offline when the browser is offline', async () => {
    const { backend, stub } = await signedIn();
    stub.on('GET', '/rest/v1/album_summaries', () => {
      throw new TypeError('fetch failed');
    });
    const e = await expectAppError(backend.albums.listAlbums(), 'backend/unreachable');
    expect(e.retryable).toBe(true);
    vi.stubGlobal('navigator', { onLine: false });
    const offline = await expectAppError(backend.albums.listAlbums(), 'offline');
    expect(offline.retryable).toBe(true);
  });

  it('a cancellation passes through as an AbortError, before or during the request', async () => {
    const { backend, stub } = await signedIn();
    await expectAbortError(backend.albums.listAlbums({ signal: AbortSignal.abort() }));
    await expectAbortError(backend.albums.createAlbum({ title: 'Never' }, { signal: AbortSignal.abort() }));
    expect(stub.requests).toHaveLength(0);

    const controller = new AbortController();
    stub.on('GET', '/rest/v1/album_summaries', (req) => {
      controller.abort();
      expect(req.method).toBe('GET');
      throw new DOMException('This operation was aborted', 'AbortError');
    });
    let caught: unknown = null;
    try {
      await backend.albums.listAlbums({ signal: controller.signal });
    } catch (err) {
      caught = err;
    }
    expect(caught).not.toBeInstanceOf(AppError);
    expect((caught as Error).name).toBe('AbortError');
  });
});
