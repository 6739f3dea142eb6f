/**
 * An album several people use: invitations (their codes, the invite page's preview, revocation, the race for
 * the last use), handing the album over, leaving with or without one's items, role rules, comments and
 * favourites on the tiles, and unread activity per album. Run as signed-in users on real Postgres.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { errorOf, startCast, storeOriginal, type Actor, type Harness, type Queryable } from './db-harness';

let db: Harness, owner: Actor, editor: Actor, contributor: Actor, viewer: Actor, stranger: Actor;

beforeAll(async () => ({ db, owner, editor, contributor, viewer, stranger } = await startCast()));
afterAll(() => db?.close());

type Invite = { invite_id: string; token: string };
type Summary = { id: string; role: string; item_count: number; cover_thumb_key: string | null };

const commit = { commit: true };
const call = <T extends Record<string, unknown> = Record<string, unknown>>(who: Actor, sql: string, params: unknown[] = []) =>
  db.as(who, (q) => q.query<T>(sql, params), commit);
const codeOf = async (p: Promise<unknown>) => (await errorOf(p)).message;

async function createInvite(albumId: string, role = 'viewer', maxUses: number | null = null): Promise<Invite> {
  const [inv] = await call<Invite>(owner, `select * from public.create_invite($1, $2, null, null, $3)`, [albumId, role, maxUses]);
  return inv!;
}
const accept = (who: Actor, token: string) => call<Summary>(who, `select * from public.accept_invite($1)`, [token]);
const roleOf = async (albumId: string, who: Actor) =>
  (await db.query<{ role: string }>(`select role from public.album_members where album_id = $1 and user_id = $2`, [albumId, who.id]))[0]?.role;
const useCount = async (inviteId: string) =>
  (await db.query<{ use_count: number }>(`select use_count from public.invites where id = $1`, [inviteId]))[0]!.use_count;

/** An album of `owner` with editor, contributor and viewer as members (committed). */
async function album(title = 'Lisbon'): Promise<string> {
  const [a] = await call<{ id: string }>(owner, `select id from public.create_album($1)`, [title]);
  for (const [who, role] of [[editor, 'editor'], [contributor, 'contributor'], [viewer, 'viewer']] as const) {
    await accept(who, (await createInvite(a!.id, role)).token);
  }
  return a!.id;
}

/** Adds `n` ready images as `who` (committed); returns their ids. */
async function upload(who: Actor, albumId: string, n: number): Promise<string[]> {
  const files = Array.from({ length: n }, () => ({ id: randomUUID(), filename: 'IMG.jpg', mime: 'image/jpeg', kind: 'image', bytes: 100 }));
  await db.as(who, async (q: Queryable) => {
    await q.query(`select * from public.reserve_items($1, $2)`, [albumId, JSON.stringify(files)]);
    for (const f of files) {
      await storeOriginal(q, albumId, f.id, f.bytes);
      await q.query(`select * from public.finalize_item($1, $2, $3)`, [albumId, f.id, JSON.stringify({ sha256: 'a'.repeat(64), has_thumb: true, thumbhash: 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==' })]);
    }
  }, commit);
  return files.map((f) => f.id);
}

describe('invitations', () => {
  test('unknown, withdrawn, expired and used-up invitations each refuse with their own code', async () => {
    const id = await album();
    expect(await codeOf(accept(stranger, 'no-such-token'))).toBe('invite/not-found');
    const revoked = await createInvite(id);
    await call(owner, `select public.revoke_invite($1)`, [revoked.invite_id]);
    expect(await codeOf(accept(stranger, revoked.token))).toBe('invite/revoked');
    const expired = await createInvite(id);
    await db.query(`update public.invites set expires_at = now() - interval '1 minute' where id = $1`, [expired.invite_id]);
    expect(await codeOf(accept(stranger, expired.token))).toBe('invite/expired');
    const once = await createInvite(id, 'viewer', 1);
    await accept(stranger, once.token);
    const late = await db.createUser('Lara');
    expect(await codeOf(accept(late, once.token))).toBe('invite/used-up');
    expect(await roleOf(id, late)).toBeUndefined();
    // The invitation of a deleted album is gone with it.
    const gone = await createInvite(id);
    await call(owner, `select public.delete_album($1)`, [id]);
    expect(await codeOf(accept(late, gone.token))).toBe('invite/not-found');
  });

  test('two people accepting the last use at once: exactly one joins, the other hears invite/used-up', async () => {
    const id = await album();
    const last = await createInvite(id, 'contributor', 1);
    const ana = await db.createUser('Ana');
    const ben = await db.createUser('Ben');
    if (db.session) {
      // Two connections: Ana's transaction holds the invitation while Ben's accept waits for it.
      const a = await db.session();
      const b = await db.session();
      try {
        await a.begin(ana);
        await b.begin(ben);
        const [benBackend] = await b.query<{ pid: number }>('select pg_backend_pid() as pid');
        const benPid = benBackend!.pid;
        await a.query(`select * from public.accept_invite($1)`, [last.token]);
        let benDone = false;
        const benTry = b.query(`select * from public.accept_invite($1)`, [last.token]).finally(() => { benDone = true; });
        const benOutcome = errorOf(benTry);
        // Ben's accept waits for the lock Ana's transaction holds, as the server itself says.
        await expect
          .poll(async () => (await db.query<{ wait: string | null }>('select wait_event_type as wait from pg_stat_activity where pid = $1', [benPid]))[0]?.wait)
          .toBe('Lock');
        expect(benDone).toBe(false);
        await a.query('commit');
        expect((await benOutcome).message).toBe('invite/used-up');
        await b.query('rollback');
      } finally {
        await a.close();
        await b.close();
      }
    } else {
      // PGlite has one connection: the two accepts are served one after the other.
      const outcomes = await Promise.allSettled([accept(ana, last.token), accept(ben, last.token)]);
      expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
      const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
      expect((refused.reason as Error).message).toBe('invite/used-up');
    }
    const joined = [await roleOf(id, ana), await roleOf(id, ben)].filter(Boolean);
    expect(joined).toEqual(['contributor']);
    expect(await useCount(last.invite_id)).toBe(1);
  });

  test('a member accepting again keeps their role and spends no use; a higher role is taken and spends one', async () => {
    const id = await album();
    const asViewer = await createInvite(id, 'viewer', 2);
    // The editor keeps the higher role; nothing is spent, even on a link that has since expired.
    expect((await accept(editor, asViewer.token))[0]?.role).toBe('editor');
    expect(await useCount(asViewer.invite_id)).toBe(0);
    await db.query(`update public.invites set expires_at = now() - interval '1 minute' where id = $1`, [asViewer.invite_id]);
    expect((await accept(editor, asViewer.token))[0]?.role).toBe('editor');
    // The viewer invited as an editor becomes one, and that is a use of the link.
    const asEditor = await createInvite(id, 'editor', 1);
    expect((await accept(viewer, asEditor.token))[0]?.role).toBe('editor');
    expect(await useCount(asEditor.invite_id)).toBe(1);
    expect(await codeOf(accept(stranger, asEditor.token))).toBe('invite/used-up');
  });

  test('the invite page shows a stranger with a valid token the title, cover and inviter, and nothing else', async () => {
    const id = await album('Porto');
    const [itemId] = await upload(owner, id, 1);
    const inv = await createInvite(id);
    const preview = await call(stranger, `select * from public.invite_preview($1)`, [inv.token]);
    // The bucket does not serve a non-member the thumbnail: the blurred placeholder stands in for it, and the key,
    // which names an item of the album, is not given.
    expect(preview).toEqual([{ album_title: 'Porto', cover_thumb_key: null, inviter_name: 'Olive', cover_thumbhash: 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==' }]);
    expect(JSON.stringify(preview)).not.toContain(itemId);
    // A member opening the same invitation gets the key: the bucket serves them the thumbnail.
    const [mine] = await call<{ cover_thumb_key: string }>(owner, `select * from public.invite_preview($1)`, [inv.token]);
    expect(mine!.cover_thumb_key).toBe(`albums/${id}/${itemId}/thumb.webp`);
    // Looking is not joining.
    expect(await roleOf(id, stranger)).toBeUndefined();
    expect(await codeOf(call(stranger, `select * from public.invite_preview('nope')`))).toBe('invite/not-found');
    await call(owner, `select public.revoke_invite($1)`, [inv.invite_id]);
    expect(await codeOf(call(stranger, `select * from public.invite_preview($1)`, [inv.token]))).toBe('invite/revoked');
    const bound = (await call<Invite>(owner, `select * from public.create_invite($1, 'viewer', 'someone@example.test')`, [id]))[0]!;
    expect(await codeOf(call(stranger, `select * from public.invite_preview($1)`, [bound.token]))).toBe('invite/not-found');
    await expect(db.as({ id: null }, (q) => q.query(`select * from public.invite_preview($1)`, [inv.token]))).rejects.toThrow(/permission denied/);
  });

  test('the owner lists pending invitations without their hashes and revokes them; nobody else can', async () => {
    const id = await album();
    const inv = await createInvite(id, 'contributor', 3);
    const pending = `select id, role, max_uses, use_count from public.invites
      where album_id = $1 and revoked_at is null and expires_at > now() and (max_uses is null or use_count < max_uses)`;
    expect(await call(owner, pending, [id])).toContainEqual({ id: inv.invite_id, role: 'contributor', max_uses: 3, use_count: 0 });
    await expect(call(owner, `select token_hash from public.invites where id = $1`, [inv.invite_id])).rejects.toThrow(/permission denied/);
    expect(await codeOf(call(editor, `select public.revoke_invite($1)`, [inv.invite_id]))).toBe('album/forbidden');
    expect(await codeOf(call(stranger, `select public.revoke_invite($1)`, [inv.invite_id]))).toBe('album/not-found');
    expect(await codeOf(call(stranger, `select public.revoke_invite($1)`, [randomUUID()]))).toBe('album/not-found');
    // A withdrawal is final: no direct write un-revokes it.
    await call(owner, `select public.revoke_invite($1)`, [inv.invite_id]);
    await expect(call(owner, `update public.invites set revoked_at = null where id = $1`, [inv.invite_id])).rejects.toThrow(/permission denied/);
    expect((await call(owner, pending, [id])).map((r) => r.id)).not.toContain(inv.invite_id);
  });
});

describe('members', () => {
  test('the owner hands the album over to a member: one owner, the old one an editor, albums.owner_id follows', async () => {
    const id = await album();
    expect(await codeOf(call(owner, `select public.transfer_ownership($1, $2)`, [id, stranger.id]))).toBe('validation/invalid');
    expect(await codeOf(call(editor, `select public.transfer_ownership($1, $2)`, [id, editor.id]))).toBe('album/forbidden');
    await call(owner, `select public.transfer_ownership($1, $2)`, [id, contributor.id]);
    expect(await roleOf(id, contributor)).toBe('owner');
    expect(await roleOf(id, owner)).toBe('editor');
    const owners = await db.query(`select user_id from public.album_members where album_id = $1 and role = 'owner'`, [id]);
    expect(owners).toEqual([{ user_id: contributor.id }]);
    expect(await db.query(`select owner_id from public.albums where id = $1`, [id])).toEqual([{ owner_id: contributor.id }]);
    // The former owner has an editor's rights only.
    expect(await codeOf(call(owner, `select public.transfer_ownership($1, $2)`, [id, owner.id]))).toBe('album/forbidden');
    const verbs = await call<{ verb: string; actor_name: string }>(viewer, `select verb, actor_name from public.activity_feed where album_id = $1 and verb = 'transferred_ownership'`, [id]);
    expect(verbs).toEqual([{ verb: 'transferred_ownership', actor_name: 'Olive' }]);
  });

  test('roles: a viewer cannot change roles, an editor cannot remove the owner, the owner cannot demote themselves', async () => {
    const id = await album();
    expect(await codeOf(call(viewer, `select public.set_member_role($1, $2, 'editor')`, [id, viewer.id]))).toBe('album/forbidden');
    expect(await codeOf(call(editor, `select public.remove_member($1, $2)`, [id, owner.id]))).toBe('album/forbidden');
    expect(await codeOf(call(owner, `select public.set_member_role($1, $2, 'editor')`, [id, owner.id]))).toBe('album/forbidden');
    expect(await codeOf(call(owner, `select public.remove_member($1, $2)`, [id, owner.id]))).toBe('album/forbidden');
    expect(await roleOf(id, owner)).toBe('owner');
    await call(owner, `select public.set_member_role($1, $2, 'contributor')`, [id, viewer.id]);
    await call(owner, `select public.remove_member($1, $2)`, [id, editor.id]);
    const feed = await call<{ verb: string; subject: string }>(owner, `select verb, subject from public.activity_feed where album_id = $1 and verb in ('changed_role', 'removed_member') order by created_at`, [id]);
    expect(feed).toEqual([{ verb: 'changed_role', subject: viewer.id }, { verb: 'removed_member', subject: editor.id }]);
  });

  test('leaving keeps one\'s items in the album, or puts them in the trash; unfinished uploads go; the owner cannot leave', async () => {
    const id = await album();
    const kept = await upload(contributor, id, 2);
    const trashed = await upload(editor, id, 3);
    await call(owner, `select * from public.update_album($1, jsonb_build_object('cover_item_id', $2::uuid))`, [id, trashed[0]]);
    const pending = randomUUID();
    await call(editor, `select * from public.reserve_items($1, $2)`, [id, JSON.stringify([{ id: pending, filename: 'x.jpg', mime: 'image/jpeg', kind: 'image', bytes: 5 }])]);

    expect(await codeOf(call(owner, `select public.leave_album($1, true)`, [id]))).toBe('album/forbidden');
    await call(contributor, `select public.leave_album($1, true)`, [id]);
    await call(editor, `select public.leave_album($1, false)`, [id]);

    expect(await roleOf(id, contributor)).toBeUndefined();
    expect(await roleOf(id, editor)).toBeUndefined();
    const items = await call<{ id: string }>(owner, `select id from public.items where album_id = $1 and deleted_at is null`, [id]);
    expect(items.map((r) => r.id).sort()).toEqual([...kept].sort());
    const trash = await call<{ id: string }>(owner, `select id from public.items where album_id = $1 and deleted_at is not null`, [id]);
    expect(trash.map((r) => r.id).sort()).toEqual([...trashed].sort());
    const [summary] = await call<Summary>(owner, `select * from public.album_summaries where id = $1`, [id]);
    expect(summary?.item_count).toBe(2);
    expect(await db.query(`select cover_item_id from public.albums where id = $1`, [id])).toEqual([{ cover_item_id: null }]);
    expect(await db.query(`select 1 from public.items where id = $1`, [pending])).toEqual([]);
    // The owner restores what left with the editor.
    await call(owner, `select public.restore_items($1, $2)`, [id, trashed]);
    const feed = await call<{ verb: string; actor_name: string; count: number }>(owner, `select verb, count from public.activity_feed where album_id = $1 and verb in ('left', 'trashed_items') order by created_at`, [id]);
    expect(feed).toEqual([{ verb: 'left', count: 1 }, { verb: 'trashed_items', count: 3 }, { verb: 'left', count: 1 }]);
  });
});

describe('comments and favourites', () => {
  test('the author edits (the database stamps the edit) and deletes their own; owner and editors delete any; others not', async () => {
    const id = await album();
    const [itemId] = await upload(owner, id, 1);
    const comment = async (who: Actor, body: string) =>
      (await call<{ id: string }>(who, `insert into public.comments (item_id, album_id, body) values ($1, $2, $3) returning id`, [itemId, id, body]))[0]!.id;
    const mine = await comment(viewer, 'Lovely light');
    const [edited] = await call<{ body: string; edited_at: string | null }>(viewer, `update public.comments set body = 'Lovely light!' where id = $1 returning body, edited_at`, [mine]);
    expect(edited?.edited_at).not.toBeNull();
    await expect(call(viewer, `update public.comments set edited_at = null where id = $1`, [mine])).rejects.toThrow(/permission denied/);
    await expect(call(viewer, `update public.comments set deleted_at = now() where id = $1`, [mine])).rejects.toThrow(/permission denied/);
    expect(await call(contributor, `update public.comments set body = 'Hijacked' where id = $1 returning 1`, [mine])).toEqual([]);
    expect(await call(contributor, `delete from public.comments where id = $1 returning 1`, [mine])).toEqual([]);
    expect(await call(editor, `delete from public.comments where id = $1 returning 1`, [mine])).toEqual([{ '?column?': 1 }]);
    const ownersWords = await comment(owner, 'Thanks');
    expect(await call(editor, `delete from public.comments where id = $1 returning 1`, [ownersWords])).toHaveLength(1);
    const own = await comment(contributor, 'Mine');
    expect(await call(contributor, `delete from public.comments where id = $1 returning 1`, [own])).toHaveLength(1);
    expect(await db.query(`select 1 from public.comments where album_id = $1`, [id])).toEqual([]);
  });

  test('tiles read comment and favourite counts per page, and each person\'s own heart only', async () => {
    const id = await album();
    const [a, b, hidden] = [...await upload(owner, id, 2), randomUUID()];
    await call(contributor, `select * from public.reserve_items($1, $2)`, [id, JSON.stringify([{ id: hidden, filename: 'x.jpg', mime: 'image/jpeg', kind: 'image', bytes: 5 }])]);
    for (const who of [viewer, viewer, editor]) {
      await call(who, `insert into public.comments (item_id, album_id, body) values ($1, $2, 'Nice')`, [a, id]);
    }
    for (const who of [viewer, contributor]) await call(who, `insert into public.favorites (item_id, album_id) values ($1, $2)`, [a, id]);
    await expect(call(viewer, `insert into public.favorites (item_id, album_id, user_id) values ($1, $2, $3)`, [b, id, editor.id])).rejects.toThrow(/row-level security/);
    const counts = async (who: Actor) =>
      (await call<{ item_id: string; comment_count: number; favorite_count: number; my_favorite: boolean }>(who,
        `select * from public.item_counts($1, $2) order by comment_count desc`, [id, [a, b, hidden]]));
    expect(await counts(viewer)).toEqual([
      { item_id: a, comment_count: 3, favorite_count: 2, my_favorite: true },
      { item_id: b, comment_count: 0, favorite_count: 0, my_favorite: false },
    ]);
    expect((await counts(owner)).map((r) => r.my_favorite)).toEqual([false, false]);
    const givers = await call<{ display_name: string }>(owner, `select p.display_name from public.favorites f join public.profiles p on p.id = f.user_id where f.item_id = $1 order by 1`, [a]);
    expect(givers.map((r) => r.display_name)).toEqual(['Cora', 'Vic']);
    await call(viewer, `delete from public.favorites where item_id = $1 and user_id = $2`, [a, viewer.id]);
    expect((await counts(viewer))[0]).toMatchObject({ favorite_count: 1, my_favorite: false });
    expect(await codeOf(call(stranger, `select * from public.item_counts($1, $2)`, [id, [a]]))).toBe('album/not-found');
    // Three comments by one person in a few minutes are one line of activity.
    const lines = await call<{ actor_name: string; count: number }>(owner, `select actor_name, count from public.activity_feed where album_id = $1 and verb = 'commented' order by actor_name`, [id]);
    expect(lines).toEqual([{ actor_name: 'Eddie', count: 1 }, { actor_name: 'Vic', count: 2 }]);
  });
});

describe('unread activity', () => {
  test('each member sees what others did since they last opened the album, not their own doing', async () => {
    const id = await album();
    const unread = async (who: Actor) =>
      (await call<{ album_id: string; unread: number }>(who, `select * from public.unread_counts()`)).find((r) => r.album_id === id)?.unread;
    await call(viewer, `select public.mark_album_seen($1)`, [id]);
    await call(owner, `select public.mark_album_seen($1)`, [id]);
    expect(await unread(viewer)).toBe(0);
    await upload(editor, id, 4);
    const [itemId] = await upload(contributor, id, 1);
    await call(owner, `insert into public.comments (item_id, album_id, body) values ($1, $2, 'Great')`, [itemId, id]);
    expect(await unread(viewer)).toBe(3);
    expect(await unread(owner)).toBe(2);
    await call(viewer, `select public.mark_album_seen($1)`, [id]);
    expect(await unread(viewer)).toBe(0);
    expect(await unread(owner)).toBe(2);
    // When someone opened an album is theirs alone to read; a stranger marks nothing.
    expect(await call(owner, `select user_id from public.album_visits where album_id = $1`, [id])).toEqual([{ user_id: owner.id }]);
    expect(await codeOf(call(stranger, `select public.mark_album_seen($1)`, [id]))).toBe('album/not-found');
    expect(await unread(stranger)).toBeUndefined();
  });
});
