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

type Who = 'A' | 'O' | 'E' | 'C' | 'V' | 'S';
const ACTORS: Who[] = ['A', 'O', 'E', 'C', 'V', 'S'];
const NAMES: Record<Who, string> = { A: 'anonymous', O: 'owner', E: 'editor', C: 'contributor', V: 'viewer', S: 'stranger' };

interface Case {
  target: string;
  op: 'select' | 'insert' | 'update' | 'delete' | 'call';
  /** Who may, per §6: a string of actor letters ('' = nobody). */
  allowed: string;
  sql: (w: World, me: Actor) => [string, unknown[]?];
}

/**
 * A write that has a SQL function goes only through it (supabase/migrations/20261123120200_writes_through_functions.sql):
 * deleting items (trash_items, then the purge with their objects), renaming or choosing a cover
 * (update_album), removing members (remove_member). And the owner's view of others' unfinished uploads.
 */
const WRITES_THROUGH_FUNCTIONS: Case[] = [
  { target: 'items (own uploading)', op: 'delete', allowed: '', sql: (w) => [`delete from public.items where id = $1 returning 1`, [w.items.contributorUploading]] },
  { target: 'items (trashed)', op: 'delete', allowed: '', sql: (w) => [`delete from public.items where id = $1 returning 1`, [w.items.editorTrashed]] },
  { target: 'albums.cover_item_id', op: 'update', allowed: '', sql: (w) => [`update public.albums set cover_item_id = $2 where id = $1 returning 1`, [w.albumId, w.items.owner]] },
  { target: 'albums.description', op: 'update', allowed: '', sql: (w) => [`update public.albums set description = 'Changed' where id = $1 returning 1`, [w.albumId]] },
  { target: 'album_members (own, leaving)', op: 'delete', allowed: '', sql: (w, me) => [`delete from public.album_members where album_id = $1 and user_id = $2 returning 1`, [w.albumId, me.id]] },
  { target: 'update_album (cover)', op: 'call', allowed: 'OE', sql: (w) => [`select * from public.update_album($1, jsonb_build_object('cover_item_id', $2::uuid))`, [w.albumId, w.items.owner]] },
  { target: 'count_pending_items', op: 'call', allowed: 'O', sql: (w) => [`select public.count_pending_items($1)`, [w.albumId]] },
  { target: 'clear_pending_items', op: 'call', allowed: 'O', sql: (w) => [`select public.clear_pending_items($1)`, [w.albumId]] },
];

/** Built from PRODUCT.md §6; the comments name the row of the table each line comes from. */
const MATRIX: Case[] = [
  // profiles: your own and your co-members' (display names next to comments and avatars).
  { target: 'profiles (viewer\'s)', op: 'select', allowed: 'OECV', sql: (w) => [`select 1 from public.profiles where id = $1`, [w.viewer.id]] },
  { target: 'profiles (viewer\'s)', op: 'insert', allowed: '', sql: () => [`insert into public.profiles (id, display_name) values (gen_random_uuid(), 'Mallory')`] },
  { target: 'profiles (viewer\'s)', op: 'update', allowed: 'V', sql: (w) => [`update public.profiles set display_name = 'Renamed' where id = $1 returning 1`, [w.viewer.id]] },
  { target: 'profiles (viewer\'s)', op: 'delete', allowed: '', sql: (w) => [`delete from public.profiles where id = $1 returning 1`, [w.viewer.id]] },

  // albums: "view items" (all members); "rename, delete album": owner, editor renames; creation via create_album.
  { target: 'albums', op: 'select', allowed: 'OECV', sql: (w) => [`select 1 from public.albums where id = $1`, [w.albumId]] },
  { target: 'albums', op: 'insert', allowed: '', sql: (_w, me) => [`insert into public.albums (owner_id, title) values ($1, 'Sneaky')`, [me.id]] },
  { target: 'albums', op: 'update', allowed: '', sql: (w) => [`update public.albums set title = 'Renamed' where id = $1 returning 1`, [w.albumId]] },
  { target: 'albums', op: 'delete', allowed: '', sql: (w) => [`delete from public.albums where id = $1 returning 1`, [w.albumId]] },
  { target: 'albums.item_count', op: 'update', allowed: '', sql: (w) => [`update public.albums set item_count = 0 where id = $1 returning 1`, [w.albumId]] },
  { target: 'album_summaries', op: 'select', allowed: 'OECV', sql: (w) => [`select 1 from public.album_summaries where id = $1`, [w.albumId]] },

  // album_members: "invite, change roles, remove members": owner only (target: the second viewer's row).
  { target: 'album_members', op: 'select', allowed: 'OECV', sql: (w) => [`select 1 from public.album_members where album_id = $1 and user_id = $2`, [w.albumId, w.viewer2.id]] },
  { target: 'album_members', op: 'insert', allowed: '', sql: (w) => [`insert into public.album_members (album_id, user_id, role) values ($1, $2, 'viewer')`, [w.albumId, w.stranger.id]] },
  { target: 'album_members', op: 'update', allowed: '', sql: (w) => [`update public.album_members set role = 'editor' where album_id = $1 and user_id = $2 returning 1`, [w.albumId, w.viewer2.id]] },
  { target: 'album_members', op: 'delete', allowed: '', sql: (w) => [`delete from public.album_members where album_id = $1 and user_id = $2 returning 1`, [w.albumId, w.viewer2.id]] },

  // invites: owner only.
  { target: 'invites', op: 'select', allowed: 'O', sql: (w) => [`select 1 from public.invites where id = $1`, [w.inviteId]] },
  { target: 'invites', op: 'insert', allowed: '', sql: (w) => [`insert into public.invites (album_id, role, token_hash) values ($1, 'editor', repeat('a', 64))`, [w.albumId]] },
  { target: 'invites', op: 'update', allowed: 'O', sql: (w) => [`update public.invites set revoked_at = now() where id = $1 returning 1`, [w.inviteId]] },
  { target: 'invites', op: 'delete', allowed: 'O', sql: (w) => [`delete from public.invites where id = $1 returning 1`, [w.inviteId]] },
  { target: 'invites.token_hash', op: 'select', allowed: '', sql: (w) => [`select token_hash from public.invites where id = $1`, [w.inviteId]] },

  // items: "view" all members; "add" through reserve_items; "edit metadata" and "delete": owner, editor all, contributor own.
  { target: 'items (editor\'s)', op: 'select', allowed: 'OECV', sql: (w) => [`select 1 from public.items where id = $1`, [w.items.editor]] },
  { target: 'items (editor\'s)', op: 'insert', allowed: '', sql: (w, me) => [`insert into public.items (id, album_id, uploader_id, kind, filename, mime, bytes, original_key) select x, $1::uuid, $2::uuid, 'file', 'a.txt', 'text/plain', 1, 'albums/' || $1 || '/' || x || '/original' from gen_random_uuid() x`, [w.albumId, me.id]] },
  { target: 'items (editor\'s)', op: 'update', allowed: 'OE', sql: (w) => [`update public.items set metadata = '{"rating":5}' where id = $1 returning 1`, [w.items.editor]] },
  { target: 'items (editor\'s)', op: 'delete', allowed: '', sql: (w) => [`delete from public.items where id = $1 returning 1`, [w.items.editor]] },
  { target: 'items (contributor\'s)', op: 'update', allowed: 'OEC', sql: (w) => [`update public.items set filename = 'renamed.jpg' where id = $1 returning 1`, [w.items.contributor]] },
  { target: 'items (contributor\'s)', op: 'delete', allowed: '', sql: (w) => [`delete from public.items where id = $1 returning 1`, [w.items.contributor]] },
  { target: 'items.status', op: 'update', allowed: '', sql: (w) => [`update public.items set status = 'failed' where id = $1 returning 1`, [w.items.contributor]] },
  { target: 'items (uploading)', op: 'select', allowed: 'C', sql: (w) => [`select 1 from public.items where id = $1`, [w.items.contributorUploading]] },

  // comments: every member comments as themselves; the author edits; author, owner, editor delete (target: the viewer's).
  { target: 'comments (viewer\'s)', op: 'select', allowed: 'OECV', sql: (w) => [`select 1 from public.comments where id = $1`, [w.viewerCommentId]] },
  { target: 'comments (viewer\'s)', op: 'insert', allowed: 'OECV', sql: (w) => [`insert into public.comments (item_id, album_id, body) values ($1, $2, 'Nice')`, [w.items.owner, w.albumId]] },
  { target: 'comments (viewer\'s)', op: 'update', allowed: 'V', sql: (w) => [`update public.comments set body = 'Edited', edited_at = now() where id = $1 returning 1`, [w.viewerCommentId]] },
  { target: 'comments (viewer\'s)', op: 'delete', allowed: 'OEV', sql: (w) => [`delete from public.comments where id = $1 returning 1`, [w.viewerCommentId]] },
  { target: 'comments (as someone else)', op: 'insert', allowed: '', sql: (w) => [`insert into public.comments (item_id, album_id, author_id, body) values ($1, $2, $3, 'Forged')`, [w.items.owner, w.albumId, w.viewer2.id]] },

  // favorites: every member marks their own (target: the viewer's).
  { target: 'favorites (viewer\'s)', op: 'select', allowed: 'OECV', sql: (w) => [`select 1 from public.favorites where item_id = $1 and user_id = $2`, [w.items.owner, w.viewer.id]] },
  { target: 'favorites (viewer\'s)', op: 'insert', allowed: 'OECV', sql: (w) => [`insert into public.favorites (item_id, album_id) values ($1, $2) on conflict do nothing returning 1`, [w.items.editor, w.albumId]] },
  { target: 'favorites (viewer\'s)', op: 'update', allowed: '', sql: (w) => [`update public.favorites set created_at = now() where item_id = $1 and user_id = $2 returning 1`, [w.items.owner, w.viewer.id]] },
  { target: 'favorites (viewer\'s)', op: 'delete', allowed: 'V', sql: (w) => [`delete from public.favorites where item_id = $1 and user_id = $2 returning 1`, [w.items.owner, w.viewer.id]] },

  // share_links: "manage share links": owner, editor.
  { target: 'share_links', op: 'select', allowed: 'OE', sql: (w) => [`select 1 from public.share_links where id = $1`, [w.shareLinkId]] },
  { target: 'share_links', op: 'insert', allowed: '', sql: (w) => [`insert into public.share_links (album_id, token_hash) values ($1, repeat('b', 64))`, [w.albumId]] },
  { target: 'share_links', op: 'update', allowed: 'OE', sql: (w) => [`update public.share_links set revoked_at = now() where id = $1 returning 1`, [w.shareLinkId]] },
  { target: 'share_links', op: 'delete', allowed: 'OE', sql: (w) => [`delete from public.share_links where id = $1 returning 1`, [w.shareLinkId]] },
  // The hashes are for the SQL functions that check them: nobody reads them, so no password is tried offline.
  { target: 'share_links.password_hash', op: 'select', allowed: '', sql: (w) => [`select password_hash from public.share_links where id = $1`, [w.shareLinkId]] },
  { target: 'share_links.token_hash', op: 'select', allowed: '', sql: (w) => [`select token_hash from public.share_links where id = $1`, [w.shareLinkId]] },
  { target: 'share_links.has_password', op: 'select', allowed: 'OE', sql: (w) => [`select has_password from public.share_links where id = $1`, [w.shareLinkId]] },

  // devices: each signed-in user's own (target: the viewer's).
  { target: 'devices (viewer\'s)', op: 'select', allowed: 'V', sql: (w) => [`select 1 from public.devices where id = $1`, [w.viewerDeviceId]] },
  { target: 'devices (viewer\'s)', op: 'insert', allowed: 'OECVS', sql: () => [`insert into public.devices (id, label, kind) values (gen_random_uuid(), 'Firefox 140 on Linux', 'desktop')`] },
  { target: 'devices (viewer\'s)', op: 'update', allowed: 'V', sql: (w) => [`update public.devices set last_seen_at = now() where id = $1 returning 1`, [w.viewerDeviceId]] },
  { target: 'devices (viewer\'s)', op: 'delete', allowed: 'V', sql: (w) => [`delete from public.devices where id = $1 returning 1`, [w.viewerDeviceId]] },

  // activity: members read; only functions and triggers write.
  { target: 'activity', op: 'select', allowed: 'OECV', sql: (w) => [`select 1 from public.activity where album_id = $1`, [w.albumId]] },
  { target: 'activity', op: 'insert', allowed: '', sql: (w, me) => [`insert into public.activity (album_id, actor_id, verb) values ($1, $2, 'joined')`, [w.albumId, me.id]] },
  { target: 'activity', op: 'update', allowed: '', sql: (w) => [`update public.activity set count = 99 where album_id = $1 returning 1`, [w.albumId]] },
  { target: 'activity', op: 'delete', allowed: '', sql: (w) => [`delete from public.activity where album_id = $1 returning 1`, [w.albumId]] },
  { target: 'activity_feed', op: 'select', allowed: 'OECV', sql: (w) => [`select 1 from public.activity_feed where album_id = $1`, [w.albumId]] },

  // storage.objects: members read the album's objects; writers write under items they reserved; deletes follow the item rules.
  { target: 'storage.objects (editor\'s item)', op: 'select', allowed: 'OECV', sql: (w) => [`select 1 from storage.objects where name = $1`, [objectKey(w.albumId, w.items.editor)]] },
  { target: 'storage.objects (editor\'s item)', op: 'insert', allowed: '', sql: (w) => [`insert into storage.objects (bucket_id, name) values ('shoebox', $1)`, [objectKey(w.albumId, w.items.editor, 'preview.webp')]] },
  { target: 'storage.objects (editor\'s item)', op: 'update', allowed: '', sql: (w) => [`update storage.objects set metadata = '{}' where name = $1 returning 1`, [objectKey(w.albumId, w.items.editor)]] },
  { target: 'storage.objects (editor\'s item)', op: 'delete', allowed: 'OE', sql: (w) => [`delete from storage.objects where name = $1 returning 1`, [objectKey(w.albumId, w.items.editor)]] },
  { target: 'storage.objects (contributor\'s item)', op: 'delete', allowed: 'OEC', sql: (w) => [`delete from storage.objects where name = $1 returning 1`, [objectKey(w.albumId, w.items.contributor)]] },
  { target: 'storage.objects (uploading item)', op: 'insert', allowed: 'C', sql: (w) => [`insert into storage.objects (bucket_id, name) values ('shoebox', $1)`, [objectKey(w.albumId, w.items.contributorUploading, 'original')]] },
  { target: 'storage.objects (outside albums/)', op: 'insert', allowed: '', sql: (w) => [`insert into storage.objects (bucket_id, name) values ('shoebox', $1)`, [`public/${w.items.contributorUploading}/x`]] },
  { target: 'storage.s3_multipart_uploads', op: 'select', allowed: 'C', sql: (w) => [`select 1 from storage.s3_multipart_uploads where id = $1`, [w.multipartUploadId]] },
  { target: 'storage.s3_multipart_uploads_parts', op: 'select', allowed: 'C', sql: (w) => [`select 1 from storage.s3_multipart_uploads_parts where upload_id = $1`, [w.multipartUploadId]] },

  // The functions behind §6's actions.
  { target: 'reserve_items', op: 'call', allowed: 'OEC', sql: (w) => [`select * from public.reserve_items($1, jsonb_build_array(jsonb_build_object('id', gen_random_uuid(), 'filename', 'a.jpg', 'mime', 'image/jpeg', 'kind', 'image', 'bytes', 10)))`, [w.albumId]] },
  { target: 'finalize_item (contributor\'s)', op: 'call', allowed: 'C', sql: (w) => [`select * from public.finalize_item($1, $2, jsonb_build_object('sha256', repeat('c', 64)))`, [w.albumId, w.items.contributorUploading]] },
  { target: 'trash_items (editor\'s)', op: 'call', allowed: 'OE', sql: (w) => [`select public.trash_items($1, array[$2::uuid])`, [w.albumId, w.items.editor]] },
  { target: 'trash_items (contributor\'s)', op: 'call', allowed: 'OEC', sql: (w) => [`select public.trash_items($1, array[$2::uuid])`, [w.albumId, w.items.contributor]] },
  { target: 'restore_items (editor\'s)', op: 'call', allowed: 'OE', sql: (w) => [`select public.restore_items($1, array[$2::uuid])`, [w.albumId, w.items.editorTrashed]] },
  { target: 'count_items_by_month', op: 'call', allowed: 'OECV', sql: (w) => [`select * from public.count_items_by_month($1, 'taken')`, [w.albumId]] },
  { target: 'update_album (rename)', op: 'call', allowed: 'OE', sql: (w) => [`select * from public.update_album($1, '{"title":"Renamed"}')`, [w.albumId]] },
  { target: 'delete_album', op: 'call', allowed: 'O', sql: (w) => [`select public.delete_album($1)`, [w.albumId]] },
  { target: 'create_invite', op: 'call', allowed: 'O', sql: (w) => [`select * from public.create_invite($1, 'viewer')`, [w.albumId]] },
  { target: 'set_member_role', op: 'call', allowed: 'O', sql: (w) => [`select public.set_member_role($1, $2, 'contributor')`, [w.albumId, w.viewer2.id]] },
  { target: 'remove_member', op: 'call', allowed: 'O', sql: (w) => [`select public.remove_member($1, $2)`, [w.albumId, w.viewer2.id]] },
  { target: 'create_share_link', op: 'call', allowed: 'OE', sql: (w) => [`select * from public.create_share_link($1, '{}')`, [w.albumId]] },
  { target: 'create_album', op: 'call', allowed: 'OECVS', sql: () => [`select * from public.create_album('Mine')`] },
  ...WRITES_THROUGH_FUNCTIONS,
];

type Outcome = { allowed: boolean; error?: { code: string; message: string } };

let db: Harness;
let world: World;
const outcomes = new Map<string, Outcome>();

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

describe('the permission matrix of PRODUCT.md §6', () => {
  test('every case is allowed or denied exactly as §6 says', async () => {
    const unexpected: string[] = [];
    const lines: string[] = [];
    const header = `${'target'.padEnd(38)} ${'op'.padEnd(7)} ${ACTORS.map((a) => NAMES[a].slice(0, 5).padEnd(6)).join('')}`;
    for (const c of MATRIX) {
      let line = `${c.target.padEnd(38)} ${c.op.padEnd(7)} `;
      for (const who of ACTORS) {
        const out = await run(c, who);
        outcomes.set(key(c, who), out);
        const expected = c.allowed.includes(who);
        // A refusal is a refusal by policy or privilege, never some other failure of the statement.
        const refusal = !out.error || out.error.code === '42501' || (out.error.code === 'P0001' && /^(album\/(not-found|forbidden)|item\/not-found)$/.test(out.error.message));
        const ok = out.allowed === expected && refusal;
        if (!ok) unexpected.push(`${c.target} ${c.op} as ${NAMES[who]}: expected ${expected ? 'allowed' : 'denied'}, got ${out.allowed ? 'allowed' : 'denied'}${out.error ? ` (${out.error.code} ${out.error.message})` : ''}`);
        line += `${(out.allowed ? '✔' : '·') + (ok ? ' ' : '!')}`.padEnd(6);
      }
      lines.push(line);
    }
    console.log(`${header}\n${lines.join('\n')}\n${MATRIX.length * ACTORS.length} cases, ${unexpected.length} unexpected`);
    expect(unexpected).toEqual([]);
  });

  test('a stranger cannot learn that the album exists: every refused call says album/not-found', () => {
    const calls = MATRIX.filter((c) => c.op === 'call' && !c.allowed.includes('S'));
    expect(calls.length).toBeGreaterThan(10);
    for (const c of calls) expect(outcomes.get(key(c, 'S'))?.error?.message, c.target).toBe('album/not-found');
    // …and a member lacking the role is told so.
    expect(outcomes.get(key(MATRIX.find((c) => c.target === 'delete_album')!, 'E'))?.error?.message).toBe('album/forbidden');
  });

  test('an anonymous visitor is refused by privilege everywhere, not merely shown nothing', () => {
    const refusedByPrivilege = MATRIX.filter((c) => !c.target.startsWith('storage.')).every((c) => outcomes.get(key(c, 'A'))?.error?.code === '42501');
    expect(refusedByPrivilege).toBe(true);
  });
});
