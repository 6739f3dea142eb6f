/**
 * The permission matrix of PRODUCT.md §6, as data: every table (and view, and the bucket's objects, and
 * the functions behind §6's actions) × {anonymous, owner, editor, contributor, viewer, stranger} ×
 * {select, insert, update, delete}. Each case runs as that actor with their JWT claims, in a transaction
 * that is rolled back, and counts as allowed when the statement touched the target row (or, for inserts and
 * functions, succeeded) and as denied when RLS hid the row or Postgres refused it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { anonymous, startDb, type Actor, type Harness } from './db-harness';
import { objectKey, seedWorld, type World } from './seed';
import { ACTORS, keyOf, NAMES, PERMISSION_TABLE, type PermissionKey, type PermissionRow, type Who } from '../../src/testing/permission-table';

type Sql = (w: World, me: Actor) => [string, unknown[]?];
interface Case extends PermissionRow {
  sql: Sql;
}

/** The statement of each row of the table, by its `target|op` (the expected outcomes are in the table). */
const SQL: Record<PermissionKey, Sql> = {
  // profiles: your own and your co-members' (display names next to comments and avatars).
  'profiles (viewer\'s)|select': (w) => [`select 1 from public.profiles where id = $1`, [w.viewer.id]],
  'profiles (viewer\'s)|insert': () => [`insert into public.profiles (id, display_name) values (gen_random_uuid(), 'Mallory')`],
  'profiles (viewer\'s)|update': (w) => [`update public.profiles set display_name = 'Renamed' where id = $1 returning 1`, [w.viewer.id]],
  'profiles (viewer\'s)|delete': (w) => [`delete from public.profiles where id = $1 returning 1`, [w.viewer.id]],

  // albums: "view items" (all members); "rename, delete album": owner, editor renames; creation via create_album.
  'albums|select': (w) => [`select 1 from public.albums where id = $1`, [w.albumId]],
  'albums|insert': (_w, me) => [`insert into public.albums (owner_id, title) values ($1, 'Sneaky')`, [me.id]],
  'albums|update': (w) => [`update public.albums set title = 'Renamed' where id = $1 returning 1`, [w.albumId]],
  'albums|delete': (w) => [`delete from public.albums where id = $1 returning 1`, [w.albumId]],
  'albums.item_count|update': (w) => [`update public.albums set item_count = 0 where id = $1 returning 1`, [w.albumId]],
  'album_summaries|select': (w) => [`select 1 from public.album_summaries where id = $1`, [w.albumId]],

  // album_members: "invite, change roles, remove members": owner only (target: the second viewer's row).
  'album_members|select': (w) => [`select 1 from public.album_members where album_id = $1 and user_id = $2`, [w.albumId, w.viewer2.id]],
  'album_members|insert': (w) => [`insert into public.album_members (album_id, user_id, role) values ($1, $2, 'viewer')`, [w.albumId, w.stranger.id]],
  'album_members|update': (w) => [`update public.album_members set role = 'editor' where album_id = $1 and user_id = $2 returning 1`, [w.albumId, w.viewer2.id]],
  'album_members|delete': (w) => [`delete from public.album_members where album_id = $1 and user_id = $2 returning 1`, [w.albumId, w.viewer2.id]],

  // invites: owner only.
  'invites|select': (w) => [`select 1 from public.invites where id = $1`, [w.inviteId]],
  'invites|insert': (w) => [`insert into public.invites (album_id, role, token_hash) values ($1, 'editor', repeat('a', 64))`, [w.albumId]],
  'invites|update': (w) => [`update public.invites set revoked_at = now() where id = $1 returning 1`, [w.inviteId]],
  'invites|delete': (w) => [`delete from public.invites where id = $1 returning 1`, [w.inviteId]],
  'invites.token_hash|select': (w) => [`select token_hash from public.invites where id = $1`, [w.inviteId]],

  // items: "view" all members; "add" through reserve_items; "edit metadata" and "delete": owner, editor all, contributor own.
  'items (editor\'s)|select': (w) => [`select 1 from public.items where id = $1`, [w.items.editor]],
  'items (editor\'s)|insert': (w, me) => [`insert into public.items (id, album_id, uploader_id, kind, filename, mime, bytes, original_key) select x, $1::uuid, $2::uuid, 'file', 'a.txt', 'text/plain', 1, 'albums/' || $1 || '/' || x || '/original' from gen_random_uuid() x`, [w.albumId, me.id]],
  'items (editor\'s)|update': (w) => [`update public.items set metadata = '{"rating":5}' where id = $1 returning 1`, [w.items.editor]],
  'items (editor\'s)|delete': (w) => [`delete from public.items where id = $1 returning 1`, [w.items.editor]],
  'items (contributor\'s)|update': (w) => [`update public.items set filename = 'renamed.jpg' where id = $1 returning 1`, [w.items.contributor]],
  'items (contributor\'s)|delete': (w) => [`delete from public.items where id = $1 returning 1`, [w.items.contributor]],
  'items.status|update': (w) => [`update public.items set status = 'failed' where id = $1 returning 1`, [w.items.contributor]],
  'items (uploading)|select': (w) => [`select 1 from public.items where id = $1`, [w.items.contributorUploading]],

  // comments: every member comments as themselves; the author edits; author, owner, editor delete (target: the viewer's).
  'comments (viewer\'s)|select': (w) => [`select 1 from public.comments where id = $1`, [w.viewerCommentId]],
  'comments (viewer\'s)|insert': (w) => [`insert into public.comments (item_id, album_id, body) values ($1, $2, 'Nice')`, [w.items.owner, w.albumId]],
  'comments (viewer\'s)|update': (w) => [`update public.comments set body = 'Edited' where id = $1 returning 1`, [w.viewerCommentId]],
  'comments (viewer\'s)|delete': (w) => [`delete from public.comments where id = $1 returning 1`, [w.viewerCommentId]],
  'comments (contributor\'s)|update': (w) => [`update public.comments set body = 'Edited' where id = $1 returning 1`, [w.contributorCommentId]],
  'comments (contributor\'s)|delete': (w) => [`delete from public.comments where id = $1 returning 1`, [w.contributorCommentId]],
  'comments (owner\'s)|update': (w) => [`update public.comments set body = 'Edited' where id = $1 returning 1`, [w.ownerCommentId]],
  'comments (owner\'s)|delete': (w) => [`delete from public.comments where id = $1 returning 1`, [w.ownerCommentId]],
  'comments.edited_at|update': (w) => [`update public.comments set edited_at = null where id = $1 returning 1`, [w.viewerCommentId]],
  'comments.deleted_at|update': (w) => [`update public.comments set deleted_at = now() where id = $1 returning 1`, [w.viewerCommentId]],
  'comments (as someone else)|insert': (w) => [`insert into public.comments (item_id, album_id, author_id, body) values ($1, $2, $3, 'Forged')`, [w.items.owner, w.albumId, w.viewer2.id]],

  // favorites: every member marks their own (target: the viewer's).
  'favorites (viewer\'s)|select': (w) => [`select 1 from public.favorites where item_id = $1 and user_id = $2`, [w.items.owner, w.viewer.id]],
  'favorites (viewer\'s)|insert': (w) => [`insert into public.favorites (item_id, album_id) values ($1, $2) on conflict do nothing returning 1`, [w.items.editor, w.albumId]],
  'favorites (viewer\'s)|update': (w) => [`update public.favorites set created_at = now() where item_id = $1 and user_id = $2 returning 1`, [w.items.owner, w.viewer.id]],
  'favorites (viewer\'s)|delete': (w) => [`delete from public.favorites where item_id = $1 and user_id = $2 returning 1`, [w.items.owner, w.viewer.id]],

  'favorites (as someone else)|insert': (w) => [`insert into public.favorites (item_id, album_id, user_id) values ($1, $2, $3)`, [w.items.contributor, w.albumId, w.viewer2.id]],
  'favorites (editor\'s)|delete': (w) => [`delete from public.favorites where item_id = $1 and user_id = $2 returning 1`, [w.items.owner, w.editor.id]],
  'item_counts|call': (w) => [`select * from public.item_counts($1, array[$2::uuid])`, [w.albumId, w.items.owner]],

  'album_visits (viewer\'s)|select': (w) => [`select 1 from public.album_visits where album_id = $1 and user_id = $2`, [w.albumId, w.viewer.id]],
  'album_visits (viewer\'s)|insert': (w, me) => [`insert into public.album_visits (album_id, user_id) values ($1, $2)`, [w.albumId, me.id]],
  'album_visits (viewer\'s)|update': (w) => [`update public.album_visits set seen_at = now() where album_id = $1 and user_id = $2 returning 1`, [w.albumId, w.viewer.id]],
  'album_visits (viewer\'s)|delete': (w) => [`delete from public.album_visits where album_id = $1 and user_id = $2 returning 1`, [w.albumId, w.viewer.id]],
  'mark_album_seen|call': (w) => [`select public.mark_album_seen($1)`, [w.albumId]],
  'unread_counts|call': () => [`select * from public.unread_counts()`],

  // share_links: "manage share links": owner, editor.
  'share_links|select': (w) => [`select 1 from public.share_links where id = $1`, [w.shareLinkId]],
  'share_links|insert': (w) => [`insert into public.share_links (album_id, token_hash) values ($1, repeat('b', 64))`, [w.albumId]],
  'share_links|update': (w) => [`update public.share_links set revoked_at = now() where id = $1 returning 1`, [w.shareLinkId]],
  'share_links|delete': (w) => [`delete from public.share_links where id = $1 returning 1`, [w.shareLinkId]],
  // The hashes are for the SQL functions that check them: nobody reads them, so no password is tried offline.
  'share_links.password_hash|select': (w) => [`select password_hash from public.share_links where id = $1`, [w.shareLinkId]],
  'share_links.token_hash|select': (w) => [`select token_hash from public.share_links where id = $1`, [w.shareLinkId]],
  'share_links.has_password|select': (w) => [`select has_password from public.share_links where id = $1`, [w.shareLinkId]],

  // devices: each signed-in user's own (target: the viewer's).
  'devices (viewer\'s)|select': (w) => [`select 1 from public.devices where id = $1`, [w.viewerDeviceId]],
  'devices (viewer\'s)|insert': () => [`insert into public.devices (id, label, kind) values (gen_random_uuid(), 'Firefox 140 on Linux', 'desktop')`],
  'devices (viewer\'s)|update': (w) => [`update public.devices set last_seen_at = now() where id = $1 returning 1`, [w.viewerDeviceId]],
  'devices (viewer\'s)|delete': (w) => [`delete from public.devices where id = $1 returning 1`, [w.viewerDeviceId]],

  // activity: members read; only functions and triggers write.
  'activity|select': (w) => [`select 1 from public.activity where album_id = $1`, [w.albumId]],
  'activity|insert': (w, me) => [`insert into public.activity (album_id, actor_id, verb) values ($1, $2, 'joined')`, [w.albumId, me.id]],
  'activity|update': (w) => [`update public.activity set count = 99 where album_id = $1 returning 1`, [w.albumId]],
  'activity|delete': (w) => [`delete from public.activity where album_id = $1 returning 1`, [w.albumId]],
  'activity_feed|select': (w) => [`select 1 from public.activity_feed where album_id = $1`, [w.albumId]],

  // storage.objects: members read the album's objects; writers write under items they reserved; members delete only
  // their unfinished upload's objects (an item in the album loses its bytes to purge alone).
  'storage.objects (editor\'s item)|select': (w) => [`select 1 from storage.objects where name = $1`, [objectKey(w.albumId, w.items.editor)]],
  'storage.objects (editor\'s item)|insert': (w) => [`insert into storage.objects (bucket_id, name) values ('shoebox', $1)`, [objectKey(w.albumId, w.items.editor, 'preview.webp')]],
  'storage.objects (editor\'s item)|update': (w) => [`update storage.objects set metadata = '{}' where name = $1 returning 1`, [objectKey(w.albumId, w.items.editor)]],
  'storage.objects (editor\'s item)|delete': (w) => [`delete from storage.objects where name = $1 returning 1`, [objectKey(w.albumId, w.items.editor)]],
  'storage.objects (contributor\'s item)|delete': (w) => [`delete from storage.objects where name = $1 returning 1`, [objectKey(w.albumId, w.items.contributor)]],
  'storage.objects (uploading item)|insert': (w) => [`insert into storage.objects (bucket_id, name) values ('shoebox', $1)`, [objectKey(w.albumId, w.items.contributorUploading, 'original')]],
  'storage.objects (uploading item)|delete': (w) => [`delete from storage.objects where name = $1 returning 1`, [objectKey(w.albumId, w.items.contributorUploading, 'thumb.webp')]],
  'storage.objects (outside albums/)|insert': (w) => [`insert into storage.objects (bucket_id, name) values ('shoebox', $1)`, [`public/${w.items.contributorUploading}/x`]],
  'storage.s3_multipart_uploads|select': (w) => [`select 1 from storage.s3_multipart_uploads where id = $1`, [w.multipartUploadId]],
  'storage.s3_multipart_uploads_parts|select': (w) => [`select 1 from storage.s3_multipart_uploads_parts where upload_id = $1`, [w.multipartUploadId]],

  // The functions behind §6's actions.
  'reserve_items|call': (w) => [`select * from public.reserve_items($1, jsonb_build_array(jsonb_build_object('id', gen_random_uuid(), 'filename', 'a.jpg', 'mime', 'image/jpeg', 'kind', 'image', 'bytes', 10)))`, [w.albumId]],
  'finalize_item (contributor\'s)|call': (w) => [`select * from public.finalize_item($1, $2, jsonb_build_object('sha256', repeat('c', 64)))`, [w.albumId, w.items.contributorUploading]],
  'edit_items (editor\'s)|call': (w) => [`select 1 from public.edit_items($1, array[$2::uuid], '{"rating": 4}')`, [w.albumId, w.items.editor]],
  'edit_items (contributor\'s)|call': (w) => [`select 1 from public.edit_items($1, array[$2::uuid], '{"addKeywords": ["sea"]}')`, [w.albumId, w.items.contributor]],
  'trash_items (editor\'s)|call': (w) => [`select public.trash_items($1, array[$2::uuid])`, [w.albumId, w.items.editor]],
  'trash_items (contributor\'s)|call': (w) => [`select public.trash_items($1, array[$2::uuid])`, [w.albumId, w.items.contributor]],
  'restore_items (editor\'s)|call': (w) => [`select public.restore_items($1, array[$2::uuid])`, [w.albumId, w.items.editorTrashed]],
  'count_items_by_month|call': (w) => [`select * from public.count_items_by_month($1, 'taken')`, [w.albumId]],
  'update_album (rename)|call': (w) => [`select * from public.update_album($1, '{"title":"Renamed"}')`, [w.albumId]],
  'delete_album|call': (w) => [`select public.delete_album($1)`, [w.albumId]],
  'create_invite|call': (w) => [`select * from public.create_invite($1, 'viewer')`, [w.albumId]],
  'set_member_role|call': (w) => [`select public.set_member_role($1, $2, 'contributor')`, [w.albumId, w.viewer2.id]],
  'remove_member|call': (w) => [`select public.remove_member($1, $2)`, [w.albumId, w.viewer2.id]],
  'create_share_link|call': (w) => [`select * from public.create_share_link($1, '{}')`, [w.albumId]],
  'create_album|call': () => [`select * from public.create_album('Mine')`],

  'items (own uploading)|delete': (w) => [`delete from public.items where id = $1 returning 1`, [w.items.contributorUploading]],
  'items (trashed)|delete': (w) => [`delete from public.items where id = $1 returning 1`, [w.items.editorTrashed]],
  'albums.cover_item_id|update': (w) => [`update public.albums set cover_item_id = $2 where id = $1 returning 1`, [w.albumId, w.items.owner]],
  'albums.description|update': (w) => [`update public.albums set description = 'Changed' where id = $1 returning 1`, [w.albumId]],
  'album_members (own, leaving)|delete': (w, me) => [`delete from public.album_members where album_id = $1 and user_id = $2 returning 1`, [w.albumId, me.id]],
  'update_album (cover)|call': (w) => [`select * from public.update_album($1, jsonb_build_object('cover_item_id', $2::uuid))`, [w.albumId, w.items.owner]],
  'update_album (keep location)|call': (w) => [`select * from public.update_album($1, '{"keep_location":true}')`, [w.albumId]],
  'albums.keep_location|update': (w) => [`update public.albums set keep_location = true where id = $1 returning 1`, [w.albumId]],
  'count_pending_items|call': (w) => [`select public.count_pending_items($1)`, [w.albumId]],
  'clear_pending_items|call': (w) => [`select public.clear_pending_items($1)`, [w.albumId]],

  'invite_preview (valid token)|call': (w) => [`select * from public.invite_preview($1)`, [w.inviteToken]],
  'invite_preview (revoked token)|call': (w) => [`select * from public.invite_preview($1)`, [w.revokedInviteToken]],
  'invite_preview (unknown token)|call': () => [`select * from public.invite_preview('no-such-invitation')`],
  'accept_invite (valid token)|call': (w) => [`select * from public.accept_invite($1)`, [w.inviteToken]],
  'accept_invite (revoked token)|call': (w) => [`select * from public.accept_invite($1)`, [w.revokedInviteToken]],
  'revoke_invite|call': (w) => [`select public.revoke_invite($1)`, [w.inviteId]],
  'transfer_ownership|call': (w) => [`select public.transfer_ownership($1, $2)`, [w.albumId, w.viewer2.id]],
  'leave_album (keeping items)|call': (w) => [`select public.leave_album($1, true)`, [w.albumId]],
  'leave_album (trashing items)|call': (w) => [`select public.leave_album($1, false)`, [w.albumId]],
  'set_member_role (owner\'s own)|call': (w) => [`select public.set_member_role($1, $2, 'editor')`, [w.albumId, w.owner.id]],
  'remove_member (the owner)|call': (w) => [`select public.remove_member($1, $2)`, [w.albumId, w.owner.id]],
};

const MATRIX: Case[] = PERMISSION_TABLE.map((row) => ({ ...row, sql: SQL[keyOf(row)] }));

type Outcome = { allowed: boolean; error?: { code: string; message: string } };

let db: Harness;
let world: World;

beforeAll(async () => {
  db = await startDb();
  world = await seedWorld(db);
});
afterAll(async () => {
  await db?.close();
});

function actorOf(who: Who): Actor {
  return { A: anonymous, O: world.owner, E: world.editor, C: world.contributor, V: world.viewer, S: world.stranger }[who];
}

async function run(c: Case, who: Who): Promise<Outcome> {
  const actor = actorOf(who);
  const [sql, params] = c.sql(world, actor);
  try {
    const rows = await db.as(actor, (q) => q.query(sql, params));
    const touched = c.op === 'insert' || c.op === 'call' ? true : rows.length > 0;
    return { allowed: touched };
  } catch (e) {
    const err = e as { code?: string; message?: string };
    return { allowed: false, error: { code: err.code ?? '?', message: err.message ?? String(e) } };
  }
}

const key = (c: Case, who: Who) => `${c.target}|${c.op}|${who}`;

let measured: Promise<Map<string, Outcome>> | null = null;
/** Every case as every actor, run once for the file: each test reads what was found, whichever runs first. */
function matrixOutcomes(): Promise<Map<string, Outcome>> {
  measured ??= (async () => {
    const found = new Map<string, Outcome>();
    for (const c of MATRIX) for (const who of ACTORS) found.set(key(c, who), await run(c, who));
    return found;
  })();
  return measured;
}

describe('the permission matrix of PRODUCT.md §6', () => {
  test('every case is allowed or denied exactly as §6 says', async () => {
    const outcomes = await matrixOutcomes();
    const unexpected: string[] = [];
    const lines: string[] = [];
    const header = `${'target'.padEnd(38)} ${'op'.padEnd(7)} ${ACTORS.map((a) => NAMES[a].slice(0, 5).padEnd(6)).join('')}`;
    for (const c of MATRIX) {
      let line = `${c.target.padEnd(38)} ${c.op.padEnd(7)} `;
      for (const who of ACTORS) {
        const out = outcomes.get(key(c, who))!;
        const expected = c.allowed.includes(who);
        // A refusal is a refusal by policy or privilege, never some other failure of the statement.
        const refusal = !out.error || out.error.code === '42501' || (out.error.code === 'P0001' && /^(album\/(not-found|forbidden)|item\/not-found|invite\/(not-found|revoked|expired|used-up))$/.test(out.error.message));
        const ok = out.allowed === expected && refusal;
        if (!ok) unexpected.push(`${c.target} ${c.op} as ${NAMES[who]}: expected ${expected ? 'allowed' : 'denied'}, got ${out.allowed ? 'allowed' : 'denied'}${out.error ? ` (${out.error.code} ${out.error.message})` : ''}`);
        line += `${(out.allowed ? '✔' : '·') + (ok ? ' ' : '!')}`.padEnd(6);
      }
      lines.push(line);
    }
    console.log(`${header}\n${lines.join('\n')}\n${MATRIX.length * ACTORS.length} cases, ${unexpected.length} unexpected`);
    expect(unexpected).toEqual([]);
  });

  test('a stranger cannot learn that the album exists: every refused call says album/not-found', async () => {
    const outcomes = await matrixOutcomes();
    // Calls that name an album; an invitation's token says what is wrong with it, and nothing of its album.
    const calls = MATRIX.filter((c) => c.op === 'call' && !c.allowed.includes('S') && !/^(invite_preview|accept_invite) /.test(c.target));
    expect(calls.length).toBeGreaterThan(10);
    for (const c of calls) expect(outcomes.get(key(c, 'S'))?.error?.message, c.target).toBe('album/not-found');
    // …and a member lacking the role is told so.
    expect(outcomes.get(key(MATRIX.find((c) => c.target === 'delete_album')!, 'E'))?.error?.message).toBe('album/forbidden');
  });

  test('an anonymous visitor is refused by privilege everywhere, not merely shown nothing', async () => {
    const outcomes = await matrixOutcomes();
    const refusedByPrivilege = MATRIX.filter((c) => !c.target.startsWith('storage.')).every((c) => outcomes.get(key(c, 'A'))?.error?.code === '42501');
    expect(refusedByPrivilege).toBe(true);
  });
});
