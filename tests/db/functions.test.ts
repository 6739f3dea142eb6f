/**
 * The SQL functions the app calls for multi-step writes, run as signed-in users: what each one leaves
 * behind (rows, counters, activity) and which product error code it raises.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { errorOf, startCast, storeOriginal, type Actor, type Harness, type Queryable } from './db-harness';

let db: Harness, owner: Actor, editor: Actor, contributor: Actor, viewer: Actor, stranger: Actor;

beforeAll(async () => ({ db, owner, editor, contributor, viewer, stranger } = await startCast()));
afterAll(() => db?.close());

type Summary = { id: string; title: string; role: string; item_count: number; bytes_total: number; cover_thumb_key: string | null };

const file = (over: Partial<{ id: string; filename: string; mime: string; kind: string; bytes: number }> = {}) => ({
  id: randomUUID(), filename: 'IMG_1.jpg', mime: 'image/jpeg', kind: 'image', bytes: 1000, ...over,
});

const reserve = (q: Queryable, albumId: string, files: unknown[]) =>
  q.query<{ id: string; status: string; original_key: string }>(`select * from public.reserve_items($1, $2)`, [albumId, JSON.stringify(files)]);

const finalize = async (q: Queryable, albumId: string, itemId: string, input: Record<string, unknown> = {}) => {
  await storeOriginal(q, albumId, itemId);
  return q.query<{ id: string; status: string; preview_key: string | null; thumb_key: string | null; sort_taken: string }>(
    `select * from public.finalize_item($1, $2, $3)`,
    [albumId, itemId, JSON.stringify({ sha256: 'a'.repeat(64), width: 4000, height: 3000, has_preview: true, has_thumb: true, thumbhash: 'abc', metadata: {}, ...input })],
  );
};

// bigint columns come back as numbers from PGlite and as strings from node-postgres.
const summary = async (who: Actor, albumId: string) => {
  const [row] = await db.as(who, (q) => q.query<Summary>(`select * from public.album_summaries where id = $1`, [albumId]));
  return row && { ...row, bytes_total: Number(row.bytes_total) };
};
const months = async (who: Actor, sql: string, params: unknown[]) =>
  (await db.as(who, (q) => q.query<{ month: string; count: number }>(sql, params))).map((r) => ({ month: r.month, count: Number(r.count) }));

/** An album owned by `owner` with editor, contributor and viewer as members (committed). */
async function album(title = 'Trip'): Promise<string> {
  const [a] = await db.as(owner, (q) => q.query<Summary>(`select * from public.create_album($1)`, [title]), { commit: true });
  for (const [who, role] of [[editor, 'editor'], [contributor, 'contributor'], [viewer, 'viewer']] as const) {
    const [inv] = await db.as(owner, (q) => q.query<{ token: string }>(`select * from public.create_invite($1, $2)`, [a!.id, role]), { commit: true });
    await db.as(who, (q) => q.query(`select * from public.accept_invite($1)`, [inv!.token]), { commit: true });
  }
  return a!.id;
}

/** Reserves and finalizes `n` images as `who` (committed); returns their ids. */
async function upload(who: Actor, albumId: string, n: number, bytes = 1000): Promise<string[]> {
  const files = Array.from({ length: n }, () => file({ bytes }));
  await db.as(who, async (q) => {
    await reserve(q, albumId, files);
    for (const f of files) await finalize(q, albumId, f.id);
  }, { commit: true });
  return files.map((f) => f.id);
}

describe('create_album and update_album', () => {
  test('the creator becomes the owner and sees the album with their role; titles are trimmed and checked', async () => {
    const [a] = await db.as(owner, (q) => q.query<Summary>(`select * from public.create_album('  Beach  ', 'Sand')`));
    expect(a).toMatchObject({ title: 'Beach', role: 'owner', item_count: 0 });
    for (const bad of ['', '   ', 'x'.repeat(121), 'tab\there']) {
      const e = await errorOf(db.as(owner, (q) => q.query(`select * from public.create_album($1)`, [bad])));
      expect(e, JSON.stringify(bad)).toMatchObject({ code: 'P0001', message: 'validation/invalid' });
    }
    expect((await errorOf(db.as(owner, (q) => q.query(`select * from public.create_album('ok', $1)`, ['d'.repeat(2001)])))).message).toBe('validation/invalid');
  });

  test('an editor renames; a contributor is forbidden; a stranger is told the album does not exist', async () => {
    const id = await album();
    const [renamed] = await db.as(editor, (q) => q.query<Summary>(`select * from public.update_album($1, '{"title":"Renamed"}')`, [id]));
    expect(renamed).toMatchObject({ title: 'Renamed', role: 'editor' });
    expect((await errorOf(db.as(contributor, (q) => q.query(`select * from public.update_album($1, '{"title":"X"}')`, [id])))).message).toBe('album/forbidden');
    expect((await errorOf(db.as(stranger, (q) => q.query(`select * from public.update_album($1, '{"title":"X"}')`, [id])))).message).toBe('album/not-found');
    expect((await errorOf(db.as(stranger, (q) => q.query(`select * from public.update_album($1, '{"title":"X"}')`, [randomUUID()])))).message).toBe('album/not-found');
    expect((await errorOf(db.as(owner, (q) => q.query(`select * from public.update_album($1, '{"item_count":5}')`, [id])))).message).toBe('validation/invalid');
  });

  test('the cover is the chosen item, else the newest ready image; a trashed cover falls back', async () => {
    const id = await album();
    const [first] = await upload(owner, id, 1);
    const [second] = await upload(owner, id, 1); // added later, so newer
    expect((await summary(viewer, id))?.cover_thumb_key).toBe(`albums/${id}/${second}/thumb.webp`);
    await db.as(owner, (q) => q.query(`select * from public.update_album($1, $2)`, [id, JSON.stringify({ cover_item_id: first })]), { commit: true });
    expect((await summary(viewer, id))?.cover_thumb_key).toBe(`albums/${id}/${first}/thumb.webp`);
    await db.as(owner, (q) => q.query(`select public.trash_items($1, array[$2::uuid])`, [id, first]), { commit: true });
    expect((await summary(viewer, id))?.cover_thumb_key).toBe(`albums/${id}/${second}/thumb.webp`);
    const other = await album('Other');
    const [foreign] = await upload(owner, other, 1);
    expect((await errorOf(db.as(owner, (q) => q.query(`select * from public.update_album($1, $2)`, [id, JSON.stringify({ cover_item_id: foreign })])))).message).toBe('item/not-found');
  });

  test('a deleted album vanishes for every member at once', async () => {
    const id = await album();
    await upload(owner, id, 1);
    expect((await errorOf(db.as(editor, (q) => q.query(`select public.delete_album($1)`, [id])))).message).toBe('album/forbidden');
    await db.as(owner, (q) => q.query(`select public.delete_album($1)`, [id]), { commit: true });
    for (const who of [owner, editor, viewer]) {
      expect(await db.as(who, (q) => q.query(`select 1 from public.album_summaries where id = $1`, [id]))).toEqual([]);
      expect(await db.as(who, (q) => q.query(`select 1 from public.items where album_id = $1`, [id]))).toEqual([]);
    }
    expect((await errorOf(db.as(owner, (q) => q.query(`select * from public.count_items_by_month($1, 'taken')`, [id])))).message).toBe('album/not-found');
  });
});

describe('reserve_items and finalize_item', () => {
  test('reserving is idempotent on the item id, and reserved rows stay invisible to others until ready', async () => {
    const id = await album();
    const files = [file(), file({ kind: 'video', mime: 'video/mp4', filename: 'clip.mp4' })];
    const first = await db.as(contributor, (q) => reserve(q, id, files), { commit: true });
    const again = await db.as(contributor, (q) => reserve(q, id, files), { commit: true });
    expect(again.map((r) => r.id).sort()).toEqual(first.map((r) => r.id).sort());
    expect(first.map((r) => r.status)).toEqual(['uploading', 'uploading']);
    expect(first.find((r) => r.id === files[0]!.id)?.original_key).toBe(`albums/${id}/${files[0]!.id}/original`);
    const [{ n }] = (await db.query<{ n: number }>(`select count(*)::int n from public.items where album_id = $1`, [id])) as [{ n: number }];
    expect(n).toBe(2);
    // Others see nothing yet; counters have not moved.
    expect(await db.as(owner, (q) => q.query(`select 1 from public.items where album_id = $1`, [id]))).toEqual([]);
    expect((await summary(owner, id))?.item_count).toBe(0);

    const [ready] = await db.as(contributor, (q) => finalize(q, id, files[1]!.id, { taken_at: '2024-07-01T10:00:00Z' }), { commit: true });
    expect(ready).toMatchObject({ status: 'ready', preview_key: `albums/${id}/${files[1]!.id}/poster.webp`, thumb_key: `albums/${id}/${files[1]!.id}/thumb.webp` });
    expect(new Date(ready!.sort_taken).toISOString()).toBe('2024-07-01T10:00:00.000Z');
    // A repeated finalize (lost response) returns the same ready row.
    const [twice] = await db.as(contributor, (q) => finalize(q, id, files[1]!.id));
    expect(twice?.status).toBe('ready');
    expect(await db.as(owner, (q) => q.query(`select id from public.items where album_id = $1`, [id]))).toEqual([{ id: files[1]!.id }]);
  });

  test('a failed item is visible only to its uploader, and reserving it again resumes it', async () => {
    const id = await album();
    const f = file();
    await db.as(contributor, async (q) => {
      await reserve(q, id, [f]);
      await q.query(`select public.fail_item($1, $2)`, [id, f.id]);
    }, { commit: true });
    expect(await db.as(contributor, (q) => q.query(`select status from public.items where id = $1`, [f.id]))).toEqual([{ status: 'failed' }]);
    expect(await db.as(editor, (q) => q.query(`select 1 from public.items where id = $1`, [f.id]))).toEqual([]);
    expect((await errorOf(db.as(contributor, (q) => finalize(q, id, f.id)))).message).toBe('validation/invalid');
    const [again] = await db.as(contributor, (q) => reserve(q, id, [f]), { commit: true });
    expect(again?.status).toBe('uploading');
    // Someone else cannot finalize or fail it.
    expect((await errorOf(db.as(editor, (q) => finalize(q, id, f.id)))).message).toBe('item/not-found');
    expect((await errorOf(db.as(editor, (q) => q.query(`select public.fail_item($1, $2)`, [id, f.id])))).message).toBe('item/not-found');
  });

  test('empty and oversized files, bad kinds and foreign ids are refused with their codes', async () => {
    const id = await album();
    const code = async (files: unknown) => (await errorOf(db.as(editor, (q) => q.query(`select * from public.reserve_items($1, $2)`, [id, JSON.stringify(files)])))).message;
    expect(await code([file({ bytes: 0 })])).toBe('upload/empty');
    expect(await code([file({ bytes: 20 * 1024 ** 3 + 1 })])).toBe('upload/too-large');
    expect(await code([file({ kind: 'document' })])).toBe('validation/invalid');
    expect(await code([{ id: 'not-a-uuid', filename: 'a', mime: 'a/b', kind: 'file', bytes: 1 }])).toBe('validation/invalid');
    expect(await code([])).toBe('validation/invalid');
    const f = file();
    await db.as(contributor, (q) => reserve(q, id, [f]), { commit: true });
    expect(await code([f])).toBe('validation/invalid'); // the contributor's id, reused by the editor
    expect((await errorOf(db.as(viewer, (q) => reserve(q, id, [file()])))).message).toBe('album/forbidden');
    expect((await errorOf(db.as(stranger, (q) => reserve(q, id, [file()])))).message).toBe('album/not-found');
    // A 20 GiB file is within the limit.
    expect((await db.as(editor, (q) => reserve(q, id, [file({ bytes: 20 * 1024 ** 3 })])))[0]?.status).toBe('uploading');
  });

  test('finalize checks the checksum and numbers', async () => {
    const id = await album();
    const f = file();
    await db.as(editor, (q) => reserve(q, id, [f]), { commit: true });
    expect((await errorOf(db.as(editor, (q) => finalize(q, id, f.id, { sha256: 'xyz' })))).message).toBe('validation/invalid');
    expect((await errorOf(db.as(editor, (q) => finalize(q, id, f.id, { width: 'wide' })))).message).toBe('validation/invalid');
    expect((await errorOf(db.as(editor, (q) => finalize(q, id, f.id, { width: -5 })))).code).toBe('23514');
  });
});

describe('counters and activity', () => {
  test('item_count and bytes_total follow finalize, trash, restore and purge', async () => {
    const id = await album();
    const ids = await upload(editor, id, 3, 2500);
    expect(await summary(viewer, id)).toMatchObject({ item_count: 3, bytes_total: 7500 });
    await db.as(editor, (q) => q.query(`select public.trash_items($1, $2::uuid[])`, [id, ids.slice(0, 2)]), { commit: true });
    expect(await summary(viewer, id)).toMatchObject({ item_count: 1, bytes_total: 2500 });
    await db.as(owner, (q) => q.query(`select public.restore_items($1, array[$2::uuid])`, [id, ids[0]]), { commit: true });
    expect(await summary(viewer, id)).toMatchObject({ item_count: 2, bytes_total: 5000 });
    // Removed for good, as the purge does it (members cannot delete rows: they trash them).
    await db.query(`delete from public.items where id = $1`, [ids[2]]);
    expect(await summary(viewer, id)).toMatchObject({ item_count: 1, bytes_total: 2500 });
    // Counters cannot be written by anyone directly.
    expect((await errorOf(db.as(owner, (q) => q.query(`update public.albums set item_count = 99 where id = $1`, [id])))).code).toBe('42501');
  });

  test('a batch upload is one line of activity with its count, shown with album title and name', async () => {
    const id = await album('Party');
    await upload(contributor, id, 3);
    const rows = await db.as(viewer, (q) => q.query<{ verb: string; count: number; album_title: string; actor_name: string }>(
      `select verb, count, album_title, actor_name from public.activity_feed where album_id = $1 and verb = 'added_items'`, [id]));
    expect(rows).toEqual([{ verb: 'added_items', count: 3, album_title: 'Party', actor_name: 'Cora' }]);
    const verbs = await db.as(owner, (q) => q.query<{ verb: string }>(`select distinct verb from public.activity where album_id = $1 order by 1`, [id]));
    expect(verbs.map((v) => v.verb)).toEqual(['added_items', 'created_album', 'joined']);
  });
});

describe('trash_items and restore_items by role', () => {
  test('owner and editor trash anything; a contributor only their own, all or nothing; a viewer nothing', async () => {
    const id = await album();
    const [mine] = await upload(contributor, id, 1);
    const [theirs] = await upload(editor, id, 1);
    const trash = (who: Actor, ids: (string | undefined)[]) => db.as(who, (q) => q.query(`select public.trash_items($1, $2::uuid[])`, [id, ids]));
    expect((await errorOf(trash(contributor, [mine, theirs]))).message).toBe('album/forbidden');
    expect((await errorOf(trash(viewer, [mine]))).message).toBe('album/forbidden');
    expect((await errorOf(trash(stranger, [mine]))).message).toBe('album/not-found');
    expect((await errorOf(trash(owner, [randomUUID()]))).message).toBe('item/not-found');
    await db.as(contributor, (q) => q.query(`select public.trash_items($1, array[$2::uuid])`, [id, mine]), { commit: true });
    const trashView = await db.as(viewer, (q) => q.query(`select id from public.items where album_id = $1 and deleted_at is not null`, [id]));
    expect(trashView).toEqual([{ id: mine }]);
    expect((await errorOf(db.as(contributor, (q) => q.query(`select public.restore_items($1, array[$2::uuid])`, [id, theirs])))).message).toBe('album/forbidden');
    await db.as(contributor, (q) => q.query(`select public.restore_items($1, array[$2::uuid])`, [id, mine]), { commit: true });
    await db.as(owner, (q) => q.query(`select public.trash_items($1, $2::uuid[])`, [id, [mine, theirs]]), { commit: true });
    expect(await summary(owner, id)).toMatchObject({ item_count: 0 });
  });

  test('photos are sorted and counted by the clock where they were taken, and follow an edit of it', async () => {
    const id = await album();
    const files = [file(), file(), file()];
    await db.as(owner, async (q) => {
      await reserve(q, id, files);
      // 21:30 on 31 January in New York, 02:30 on 1 February in UTC.
      await finalize(q, id, files[0]!.id, { taken_at: '2024-01-31T21:30:00-05:00', metadata: { takenOffset: -300 } });
      // 00:30 on 1 February in UTC, its zone not known.
      await finalize(q, id, files[1]!.id, { taken_at: '2024-02-01T00:30:00Z' });
      // 08:00 on 1 February in Tokyo, 23:00 on 31 January in UTC.
      await finalize(q, id, files[2]!.id, { taken_at: '2024-02-01T08:00:00+09:00', metadata: { takenOffset: 540 } });
    }, { commit: true });
    expect(await months(viewer, `select * from public.count_items_by_month($1, 'taken')`, [id]))
      .toEqual([{ month: '2024-02', count: 2 }, { month: '2024-01', count: 1 }]);
    const order = await db.as(viewer, (q) =>
      q.query<{ id: string; taken_at: Date | string }>(`select id, taken_at from public.items where album_id = $1 order by sort_taken desc, id desc`, [id]));
    expect(order.map((r) => r.id)).toEqual([files[2]!.id, files[1]!.id, files[0]!.id]);
    // The instant itself is kept as it was.
    expect(new Date(order[2]!.taken_at).toISOString()).toBe('2024-02-01T02:30:00.000Z');
    // Its date shifted by 3 hours (the camera's clock was wrong): at 00:30 on 1 February, it moves to February.
    await db.as(owner, (q) => q.query(`select 1 from public.edit_items($1, array[$2::uuid], $3)`, [id, files[0]!.id, JSON.stringify({ shiftTakenAtMs: 3 * 3600_000 })]), { commit: true });
    expect(await months(viewer, `select * from public.count_items_by_month($1, 'taken')`, [id])).toEqual([{ month: '2024-02', count: 3 }]);
  });

  test('month counts are per UTC month, newest first, for the album or its trash', async () => {
    const id = await album();
    const files = [file(), file(), file()];
    await db.as(owner, async (q) => {
      await reserve(q, id, files);
      await finalize(q, id, files[0]!.id, { taken_at: '2023-12-31T23:30:00-02:00' }); // 2024-01 in UTC
      await finalize(q, id, files[1]!.id, { taken_at: '2023-12-01T00:00:00Z' });
      await finalize(q, id, files[2]!.id, { taken_at: '2023-12-15T00:00:00Z' });
      await q.query(`select public.trash_items($1, array[$2::uuid])`, [id, files[2]!.id]);
    }, { commit: true });
    expect(await months(viewer, `select * from public.count_items_by_month($1, 'taken')`, [id]))
      .toEqual([{ month: '2024-01', count: 1 }, { month: '2023-12', count: 1 }]);
    expect(await months(viewer, `select * from public.count_items_by_month($1, 'taken', true)`, [id])).toEqual([{ month: '2023-12', count: 1 }]);
    expect(await db.as(viewer, (q) => q.query(`select * from public.count_items_by_month($1, 'added', false, 'video')`, [id]))).toEqual([]);
    expect((await errorOf(db.as(viewer, (q) => q.query(`select * from public.count_items_by_month($1, 'size')`, [id])))).message).toBe('validation/invalid');
  });
});

describe('members and invites', () => {
  test('an invite token is returned once, stored only as its hash, and adds the role it names', async () => {
    const [a] = await db.as(owner, (q) => q.query<Summary>(`select * from public.create_album('Club')`), { commit: true });
    const [inv] = await db.as(owner, (q) => q.query<{ invite_id: string; token: string }>(`select * from public.create_invite($1, 'contributor', null, null, 1)`, [a!.id]), { commit: true });
    expect(inv!.token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const stored = await db.query<{ token_hash: string }>(`select token_hash from public.invites where id = $1`, [inv!.invite_id]);
    expect(stored[0]!.token_hash).not.toContain(inv!.token);
    expect(stored[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    const [joined] = await db.as(viewer, (q) => q.query<Summary>(`select * from public.accept_invite($1)`, [inv!.token]), { commit: true });
    expect(joined).toMatchObject({ id: a!.id, title: 'Club', role: 'contributor' });
    // Accepting again changes nothing; the single use is spent for anyone else.
    expect((await db.as(viewer, (q) => q.query<Summary>(`select * from public.accept_invite($1)`, [inv!.token])))[0]?.role).toBe('contributor');
    expect((await errorOf(db.as(stranger, (q) => q.query(`select * from public.accept_invite($1)`, [inv!.token])))).message).toBe('invite/used-up');
    expect((await errorOf(db.as(stranger, (q) => q.query(`select * from public.accept_invite('nope')`)))).message).toBe('invite/not-found');
  });

  test('revoked, expired and e-mail-bound invites are refused with their codes', async () => {
    const [a] = await db.as(owner, (q) => q.query<Summary>(`select * from public.create_album('Club')`), { commit: true });
    const make = async (email: string | null) =>
      (await db.as(owner, (q) => q.query<{ invite_id: string; token: string }>(`select * from public.create_invite($1, 'viewer', $2)`, [a!.id, email]), { commit: true }))[0]!;
    const revoked = await make(null);
    await db.as(owner, (q) => q.query(`select public.revoke_invite($1)`, [revoked.invite_id]), { commit: true });
    expect((await errorOf(db.as(stranger, (q) => q.query(`select * from public.accept_invite($1)`, [revoked.token])))).message).toBe('invite/revoked');
    const expired = await make(null);
    await db.query(`update public.invites set expires_at = now() - interval '1 minute' where id = $1`, [expired.invite_id]);
    expect((await errorOf(db.as(stranger, (q) => q.query(`select * from public.accept_invite($1)`, [expired.token])))).message).toBe('invite/expired');
    const bound = await make(viewer.email!.toUpperCase());
    expect((await errorOf(db.as(stranger, (q) => q.query(`select * from public.accept_invite($1)`, [bound.token])))).message).toBe('invite/not-found');
    expect((await db.as(viewer, (q) => q.query<Summary>(`select * from public.accept_invite($1)`, [bound.token])))[0]?.role).toBe('viewer');
    expect((await errorOf(db.as(owner, (q) => q.query(`select * from public.create_invite($1, 'owner')`, [a!.id])))).message).toBe('validation/invalid');
  });

  test('the owner changes roles and hands the album over; members leave; the owner cannot', async () => {
    const id = await album();
    await db.as(owner, (q) => q.query(`select public.set_member_role($1, $2, 'editor')`, [id, viewer.id]), { commit: true });
    expect((await summary(viewer, id))?.role).toBe('editor');
    expect((await errorOf(db.as(owner, (q) => q.query(`select public.set_member_role($1, $2, 'editor')`, [id, stranger.id])))).message).toBe('validation/invalid');
    expect((await errorOf(db.as(owner, (q) => q.query(`select public.remove_member($1, $2)`, [id, owner.id])))).message).toBe('album/forbidden');
    await db.as(contributor, (q) => q.query(`select public.remove_member($1, $2)`, [id, contributor.id]), { commit: true });
    expect(await summary(contributor, id)).toBeUndefined();
    await db.as(owner, (q) => q.query(`select public.set_member_role($1, $2, 'owner')`, [id, editor.id]), { commit: true });
    expect((await summary(editor, id))?.role).toBe('owner');
    expect((await summary(owner, id))?.role).toBe('editor');
    const [{ owner_id }] = (await db.query<{ owner_id: string }>(`select owner_id from public.albums where id = $1`, [id])) as [{ owner_id: string }];
    expect(owner_id).toBe(editor.id);
  });
});

describe('share links', () => {
  test('owner and editor create links; the token is returned once and only its hash stored; expiry is bounded', async () => {
    const id = await album();
    const [link] = await db.as(editor, (q) => q.query<{ link_id: string; token: string }>(
      `select * from public.create_share_link($1, $2)`, [id, JSON.stringify({ label: 'Family', allow_guest_upload: true, expires_at: null })]), { commit: true });
    expect(link!.token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const rows = await db.as(owner, (q) => q.query<{ label: string; expires_at: string | null; allow_download: boolean; allow_guest_upload: boolean; has_password: boolean }>(
      `select label, expires_at, allow_download, allow_guest_upload, has_password from public.share_links where id = $1`, [link!.link_id]));
    expect(rows).toEqual([{ label: 'Family', expires_at: null, allow_download: true, allow_guest_upload: true, has_password: false }]);
    // Stored as its hash only, which the owner cannot read.
    const stored = await db.query<{ token_hash: string }>(`select token_hash from public.share_links where id = $1`, [link!.link_id]);
    expect(stored).toEqual([{ token_hash: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    expect(stored[0]!.token_hash).not.toContain(link!.token);
    await expect(db.as(owner, (q) => q.query(`select * from public.share_links where id = $1`, [link!.link_id]))).rejects.toThrow(/permission denied/);
    // A password is hashed by the share-links function, which sets the hash with its own rights.
    const [locked] = await db.as(owner, (q) => q.query<{ link_id: string }>(`select * from public.create_share_link($1, '{}')`, [id]), { commit: true });
    await db.query(`update public.share_links set password_hash = $2 where id = $1`, [locked!.link_id, 'pbkdf2-sha256$600000$c2FsdHNhbHQ$aGFzaGhhc2g']);
    const [lockedRow] = await db.as(editor, (q) => q.query<{ has_password: boolean }>(`select has_password from public.share_links where id = $1`, [locked!.link_id]));
    expect(lockedRow).toEqual({ has_password: true });
    await expect(db.as(editor, (q) => q.query(`select password_hash from public.share_links where id = $1`, [locked!.link_id]))).rejects.toThrow(/permission denied/);
    const [withDefault] = await db.as(owner, (q) => q.query<{ link_id: string }>(`select * from public.create_share_link($1, '{}')`, [id]), { commit: true });
    const [{ days }] = (await db.query<{ days: number }>(`select round(extract(epoch from expires_at - created_at) / 86400)::int days from public.share_links where id = $1`, [withDefault!.link_id])) as [{ days: number }];
    expect(days).toBe(30);
    const soon = new Date(Date.now() + 10 * 60_000).toISOString();
    const late = new Date(Date.now() + 400 * 86_400_000).toISOString();
    for (const expires_at of [soon, late, 'tomorrow-ish']) {
      expect((await errorOf(db.as(owner, (q) => q.query(`select * from public.create_share_link($1, $2)`, [id, JSON.stringify({ expires_at })])))).message).toBe('validation/invalid');
    }
    expect((await errorOf(db.as(contributor, (q) => q.query(`select * from public.create_share_link($1, '{}')`, [id])))).message).toBe('album/forbidden');
  });

  test('a client calling create_share_link cannot choose the stored password hash', async () => {
    const id = await album();
    for (const password_hash of ['pbkdf2-sha256$600000$c2FsdHNhbHQ$aGFzaGhhc2g', 'x'.repeat(20)]) {
      const err = await errorOf(db.as(owner, (q) => q.query(`select * from public.create_share_link($1, $2)`, [id, JSON.stringify({ label: 'Open', password_hash })])));
      expect(err.message).toBe('validation/invalid');
    }
    const [{ n }] = (await db.query<{ n: number }>(`select count(*)::int n from public.share_links where album_id = $1`, [id])) as [{ n: number }];
    expect(n).toBe(0);
  });

  test('per-guest limits are set when the link is made, and only within their bounds', async () => {
    const id = await album();
    const [link] = await db.as(editor, (q) => q.query<{ link_id: string }>(`select * from public.create_share_link($1, $2)`,
      [id, JSON.stringify({ allow_guest_upload: true, guest_max_files: 20, guest_max_bytes: 5_000_000_000 })]), { commit: true });
    const [row] = await db.as(owner, (q) => q.query<{ guest_max_files: number; guest_max_bytes: string | number }>(
      `select guest_max_files, guest_max_bytes from public.share_links where id = $1`, [link!.link_id]));
    expect({ files: row!.guest_max_files, bytes: Number(row!.guest_max_bytes) }).toEqual({ files: 20, bytes: 5_000_000_000 });
    for (const bad of [{ guest_max_files: 0 }, { guest_max_files: 10001 }, { guest_max_bytes: -1 }, { guest_max_files: 'many' }]) {
      expect((await errorOf(db.as(owner, (q) => q.query(`select * from public.create_share_link($1, $2)`, [id, JSON.stringify(bad)])))).message).toBe('validation/invalid');
    }
  });

  test('managed_share_link_album names the album to owners and editors only', async () => {
    const id = await album();
    const [link] = await db.as(owner, (q) => q.query<{ link_id: string }>(`select * from public.create_share_link($1, '{}')`, [id]), { commit: true });
    const ask = (who: Actor, linkId: string) => db.as(who, (q) => q.query<{ album: string }>(`select public.managed_share_link_album($1) as album`, [linkId]));
    expect(await ask(editor, link!.link_id)).toEqual([{ album: id }]);
    expect((await errorOf(ask(contributor, link!.link_id))).message).toBe('album/forbidden');
    expect((await errorOf(ask(stranger, link!.link_id))).message).toBe('album/not-found');
    expect((await errorOf(ask(owner, randomUUID()))).message).toBe('album/not-found');
  });
});
