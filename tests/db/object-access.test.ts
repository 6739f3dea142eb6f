/**
 * public.object_access: who may read, write and delete which bucket object when the bucket is not
 * Supabase Storage (the storage-sign function asks it before presigning). It must give the same answer
 * as the storage.objects policies give with Supabase Storage, key by key, for every role. An item's objects are
 * its original, preview, thumbnail and poster, and its XMP sidecar `original.xmp` ([Note: Sidecars beside
 * originals] in supabase/migrations/20261203100000_item_sidecars.sql).
 * Also the purge queue of private.purge_expired / purge_next_keys / purge_forget_keys.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { errorOf, startDb, type Actor, type Harness, type Queryable } from './db-harness';
import { objectKey, seedWorld, type World } from './seed';

type Action = 'read' | 'write' | 'delete';

let db: Harness;
let w: World;
/** An album of the stranger's with one item they are uploading: nobody in `w` is a member. */
let otherAlbumId: string;
let otherItemId: string;

const files = ['original', 'preview.webp', 'thumb.webp', 'poster.webp', 'original.xmp'] as const;

beforeAll(async () => {
  db = await startDb();
  w = await seedWorld(db);
  const [a] = await db.as(w.stranger, (q) => q.query<{ id: string }>(`select id from public.create_album('Elsewhere')`), { commit: true });
  otherAlbumId = a!.id;
  otherItemId = randomUUID();
  await db.as(w.stranger, (q) => q.query(`select * from public.reserve_items($1, $2)`, [otherAlbumId, JSON.stringify([
    { id: otherItemId, filename: 'a.jpg', mime: 'image/jpeg', kind: 'image', bytes: 10 },
  ])]), { commit: true });
});
afterAll(async () => {
  await db?.close();
});

const access = async (who: Actor, keys: string[], action: Action): Promise<Record<string, boolean>> => {
  const rows = await db.as(who, (q) => q.query<{ key: string; allowed: boolean }>(`select * from public.object_access($1, $2)`, [keys, action]));
  return Object.fromEntries(rows.map((r) => [r.key, r.allowed]));
};

const allowedKeys = async (who: Actor, keys: string[], action: Action) =>
  Object.entries(await access(who, keys, action)).filter(([, ok]) => ok).map(([k]) => k).sort();

const keysOf = (albumId: string, itemId: string) => files.map((f) => objectKey(albumId, itemId, f));

describe('object_access by role', () => {
  const albumKeys = () => Object.values(w.items).flatMap((id) => keysOf(w.albumId, id)).sort();

  test('every member reads every object of the album, a stranger none', async () => {
    for (const who of [w.owner, w.editor, w.contributor, w.viewer]) {
      expect(await allowedKeys(who, albumKeys(), 'read')).toEqual(albumKeys());
    }
    expect(await allowedKeys(w.stranger, albumKeys(), 'read')).toEqual([]);
  });

  test('the uploader writes every object of their item that is still uploading; a ready item only its sidecar, by whoever may edit it', async () => {
    const uploading = keysOf(w.albumId, w.items.contributorUploading);
    const sidecar = (id: string) => objectKey(w.albumId, id, 'original.xmp');
    // A contributor: their own upload, and the sidecar of their own ready item.
    expect(await allowedKeys(w.contributor, albumKeys(), 'write')).toEqual([...uploading, sidecar(w.items.contributor)].sort());
    // The owner and editor: the sidecar of every ready item in the album, whoever uploaded it; never in the trash
    // (the editor's own trashed item included), never another member's upload in progress.
    const ready = [w.items.owner, w.items.editor, w.items.contributor].map(sidecar).sort();
    for (const who of [w.owner, w.editor]) expect(await allowedKeys(who, albumKeys(), 'write')).toEqual(ready);
    for (const who of [w.viewer, w.stranger]) expect(await allowedKeys(who, albumKeys(), 'write')).toEqual([]);
  });

  test('a ready item\'s original, preview, thumbnail and poster stay as stored: nobody writes them', async () => {
    const stored = [w.items.owner, w.items.editor, w.items.contributor, w.items.editorTrashed]
      .flatMap((id) => files.filter((f) => f !== 'original.xmp').map((f) => objectKey(w.albumId, id, f)));
    for (const who of [w.owner, w.editor, w.contributor, w.viewer, w.stranger]) {
      expect(await allowedKeys(who, stored, 'write')).toEqual([]);
    }
  });

  test('a ready item\'s sidecar: never in the trash; a member whose role changes keeps exactly what the new role edits', async () => {
    const own = objectKey(w.albumId, w.items.contributor, 'original.xmp');
    const owners = objectKey(w.albumId, w.items.owner, 'original.xmp');
    const trashed = objectKey(w.albumId, w.items.editorTrashed, 'original.xmp');
    for (const who of [w.owner, w.editor, w.contributor, w.viewer, w.stranger]) {
      expect(await allowedKeys(who, [trashed], 'write')).toEqual([]);
    }
    // Trashing the item takes the right away, for the owner and the uploader alike.
    const afterTrash = await db.as(w.owner, async (q) => {
      await q.query(`select public.trash_items($1, $2)`, [w.albumId, [w.items.contributor]]);
      const byOwner = await q.query<{ allowed: boolean }>(`select allowed from public.object_access($1, 'write')`, [[own]]);
      await q.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify({ sub: w.contributor.id, role: 'authenticated' })]);
      const byUploader = await q.query<{ allowed: boolean }>(`select allowed from public.object_access($1, 'write')`, [[own]]);
      return [...byOwner, ...byUploader].map((r) => r.allowed);
    });
    expect(afterTrash).toEqual([false, false]);
    // A contributor who became a viewer edits nothing, so writes no sidecar.
    const demoted = await db.as(w.owner, async (q) => {
      await q.query(`select public.set_member_role($1, $2, 'viewer')`, [w.albumId, w.contributor.id]);
      await q.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify({ sub: w.contributor.id, role: 'authenticated' })]);
      return q.query<{ key: string; allowed: boolean }>(`select * from public.object_access($1, 'write')`, [[own, owners]]);
    });
    expect(demoted.map((r) => r.allowed)).toEqual([false, false]);
    // An editor made contributor keeps only the sidecars of their own items.
    const narrowed = await db.as(w.owner, async (q) => {
      await q.query(`select public.set_member_role($1, $2, 'contributor')`, [w.albumId, w.editor.id]);
      await q.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify({ sub: w.editor.id, role: 'authenticated' })]);
      return q.query<{ key: string; allowed: boolean }>(`select * from public.object_access($1, 'write')`,
        [[objectKey(w.albumId, w.items.editor, 'original.xmp'), owners, own]]);
    });
    expect(narrowed.map((r) => r.allowed)).toEqual([true, false, false]);
  });

  test('Supabase Storage\'s overwrite (an UPDATE of the object\'s row) is allowed for a ready item\'s sidecar only', async () => {
    const names = [w.items.owner, w.items.contributor].flatMap((id) => [objectKey(w.albumId, id, 'original.xmp'), objectKey(w.albumId, id, 'original')]);
    for (const name of names) await db.query(`insert into storage.objects (bucket_id, name) values ('shoebox', $1) on conflict do nothing`, [name]);
    // Rows the update policy does not admit are left as they are (and rolled back either way).
    const updated = (who: Actor) => db.as(who, (q) => q.query<{ name: string }>(
      `with u as (update storage.objects set metadata = '{"size": 1}'::jsonb where bucket_id = 'shoebox' and name = any ($1) returning name)
       select name from u order by name`, [names]));
    const sidecars = names.filter((n) => n.endsWith('/original.xmp')).sort();
    expect((await updated(w.editor)).map((r) => r.name)).toEqual(sidecars);
    expect((await updated(w.contributor)).map((r) => r.name)).toEqual([objectKey(w.albumId, w.items.contributor, 'original.xmp')]);
    expect(await updated(w.viewer)).toEqual([]);
    expect(await updated(w.stranger)).toEqual([]);
  });

  test('nobody deletes the bytes of an item in the album (ready or trashed: purge does); the uploader deletes an unfinished upload', async () => {
    const unfinished = keysOf(w.albumId, w.items.contributorUploading).sort();
    expect(await allowedKeys(w.contributor, albumKeys(), 'delete')).toEqual(unfinished);
    for (const who of [w.owner, w.editor, w.viewer, w.stranger]) {
      expect(await allowedKeys(who, albumKeys(), 'delete')).toEqual([]);
    }
    // A failed upload's leftovers are still its uploader's to delete; once finalized, no longer.
    const failed = await db.as(w.contributor, async (q) => {
      await q.query(`select public.fail_item($1, $2)`, [w.albumId, w.items.contributorUploading]);
      return q.query<{ allowed: boolean }>(`select allowed from public.object_access($1, 'delete')`, [unfinished]);
    });
    expect(failed.map((r) => r.allowed)).toEqual([true, true, true, true, true]);
  });

  test('the stranger may write under their own reservation in their own album, and nobody else may', async () => {
    const theirs = keysOf(otherAlbumId, otherItemId);
    expect(await allowedKeys(w.stranger, theirs, 'write')).toEqual([...theirs].sort());
    for (const who of [w.owner, w.editor, w.contributor, w.viewer]) {
      expect(await allowedKeys(who, theirs, 'read')).toEqual([]);
      expect(await allowedKeys(who, theirs, 'write')).toEqual([]);
    }
  });

  test('a contributor demoted to viewer can no longer write their reserved upload; a deleted album allows nothing', async () => {
    const key = objectKey(w.albumId, w.items.contributorUploading, 'original');
    const sidecar = objectKey(w.albumId, w.items.owner, 'original.xmp');
    const after = await db.as(w.owner, async (q) => {
      await q.query(`select public.set_member_role($1, $2, 'viewer')`, [w.albumId, w.contributor.id]);
      await q.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify({ sub: w.contributor.id, role: 'authenticated' })]);
      return q.query<{ allowed: boolean }>(`select allowed from public.object_access($1, 'write')`, [[key]]);
    });
    expect(after).toEqual([{ allowed: false }]);

    const deleted = await db.as(w.owner, async (q) => {
      await q.query(`select public.delete_album($1)`, [w.albumId]);
      return q.query<{ action: string; allowed: boolean }>(
        `select a.action, o.allowed from unnest(array['read', 'write', 'delete']) a(action)
         cross join lateral public.object_access($1, a.action) o`, [[key, sidecar]]);
    });
    expect(deleted.map((r) => r.allowed)).toEqual([false, false, false, false, false, false]);
  });

  test('answers in the order asked, repeats included; an unknown action is refused; anonymous callers may not ask', async () => {
    const a = objectKey(w.albumId, w.items.owner, 'thumb.webp');
    const b = objectKey(otherAlbumId, otherItemId, 'thumb.webp');
    const rows = await db.as(w.viewer, (q) => q.query(`select * from public.object_access($1, 'read')`, [[b, a, b]]));
    expect(rows).toEqual([{ key: b, allowed: false }, { key: a, allowed: true }, { key: b, allowed: false }]);

    const bad = await errorOf(db.as(w.viewer, (q) => q.query(`select * from public.object_access($1, 'list')`, [[a]])));
    expect(bad).toMatchObject({ code: 'P0001', message: 'validation/invalid' });
    const tooMany = await errorOf(db.as(w.viewer, (q) => q.query(`select * from public.object_access($1, 'read')`, [Array(1001).fill(a)])));
    expect(tooMany).toMatchObject({ code: 'P0001', message: 'validation/invalid' });
    const anon = await errorOf(db.as({ id: null }, (q) => q.query(`select * from public.object_access($1, 'read')`, [[a]])));
    expect(anon.code).toBe('42501');
  });
});

describe('object_access agrees with the storage.objects policies', () => {
  // Canonical keys of every item, keys in an album nobody here belongs to, and malformed keys: the
  // policies and the function must give the same answer for each.
  const keySet = () => {
    const item = w.items.owner;
    return [
      ...Object.values(w.items).flatMap((id) => keysOf(w.albumId, id)),
      ...keysOf(otherAlbumId, otherItemId),
      `albums/${w.albumId}/${w.items.contributorUploading}/notes.txt`,
      `albums/${w.albumId}/${item}/original.XMP`,
      `albums/${w.albumId}/${item}/thumb.xmp`,
      `albums/${w.albumId}/${item}/original.xmp/extra`,
      `albums/${w.albumId}/${item}.xmp`,
      `albums/${w.albumId}/${w.items.contributorUploading}/original/extra`,
      `albums/${w.albumId}/${w.items.contributorUploading}/../original`,
      `albums/${w.albumId}/${w.items.contributorUploading}`,
      `albums/${w.albumId}/not-a-uuid/original`,
      `albums/${w.albumId.toUpperCase()}/${item}/original`,
      `albums/${w.albumId}`,
      `albums//${item}/original`,
      `photos/${w.albumId}/${item}/original`,
      'albums',
      '',
    ];
  };

  /** What the policies let `who` do to each key, observed by doing it (always rolled back). */
  async function byPolicy(who: Actor, keys: string[], action: Action): Promise<string[]> {
    if (action === 'read') {
      const rows = await db.as(who, (q) => q.query<{ name: string }>(`select name from storage.objects where bucket_id = 'shoebox' and name = any ($1)`, [keys]));
      return rows.map((r) => r.name).sort();
    }
    if (action === 'delete') {
      const rows = await db.as(who, (q) => q.query<{ name: string }>(
        `with d as (delete from storage.objects where bucket_id = 'shoebox' and name = any ($1) returning name) select name from d`, [keys]));
      return rows.map((r) => r.name).sort();
    }
    return db.as(who, async (q: Queryable) => {
      const ok: string[] = [];
      for (const key of keys) {
        await q.query('savepoint w');
        try {
          await q.query(`insert into storage.objects (bucket_id, name, owner_id) values ('shoebox', $1, $2)`, [key, who.id]);
          ok.push(key);
        } catch (e) {
          const code = (e as { code?: string }).code;
          // 23505: the policy let the row through and only the existing object stopped it.
          if (code === '23505') ok.push(key);
          else if (code !== '42501') throw e;
        }
        await q.query('rollback to savepoint w');
      }
      return ok.sort();
    });
  }

  beforeAll(async () => {
    // Every key exists as an object, so reads and deletes can be observed.
    for (const key of keySet()) {
      await db.query(`insert into storage.objects (bucket_id, name) values ('shoebox', $1) on conflict do nothing`, [key]);
    }
  });

  for (const action of ['read', 'write', 'delete'] as const) {
    test(`${action}: the same keys for owner, editor, contributor, viewer and stranger`, async () => {
      let allowed = 0;
      for (const [name, who] of Object.entries({ owner: w.owner, editor: w.editor, contributor: w.contributor, viewer: w.viewer, stranger: w.stranger })) {
        const expected = await byPolicy(who, keySet(), action);
        const got = await allowedKeys(who, keySet(), action);
        expect(got, `${name} ${action}`).toEqual(expected);
        allowed += got.length;
      }
      // Not vacuous: some role may do this to some keys, and no role to all of them.
      expect(allowed).toBeGreaterThan(0);
      expect(allowed).toBeLessThan(5 * keySet().length);
    });
  }
});

describe('purge queue', () => {
  /** Runs `fn` with the service role, the way the purge function connects; rolled back unless `commit`. */
  async function asService<T>(fn: (q: Queryable) => Promise<T>, commit = false): Promise<T> {
    await db.query('begin');
    try {
      await db.query('set local role service_role');
      const out = await fn(db);
      await db.query(commit ? 'commit' : 'rollback');
      return out;
    } catch (e) {
      await db.query('rollback');
      throw e;
    }
  }

  test('signed-in users cannot call the purge functions', async () => {
    for (const sql of [`select private.purge_expired(now(), 10)`, `select * from private.purge_next_keys(null, 10)`, `select private.purge_forget_keys(array['x'])`]) {
      expect((await errorOf(db.as(w.owner, (q) => q.query(sql)))).code, sql).toBe('42501');
    }
  });

  test('an item trashed 31 days ago is deleted and its five keys queued, its sidecar with them; one trashed 29 days ago stays until forgotten keys are gone', async () => {
    const [old, recent] = [randomUUID(), randomUUID()];
    for (const [id, days] of [[old, 31], [recent, 29]] as const) {
      await db.query(
        `insert into public.items (id, album_id, uploader_id, kind, status, filename, mime, bytes, original_key, deleted_at)
         values ($1, $2, $3, 'image', 'ready', 'x.jpg', 'image/jpeg', 10, $4, now() - make_interval(days => $5))`,
        [id, w.albumId, w.owner.id, objectKey(w.albumId, id, 'original'), days],
      );
    }
    const { moved, queued, rows } = await asService(async (q) => {
      const [r] = await q.query<{ n: number }>(`select private.purge_expired(now(), 250) as n`);
      const keys = await q.query<{ k: string }>(`select k from private.purge_next_keys(null, 1000) k`);
      const left = await q.query<{ id: string }>(`select id from public.items where id = any ($1)`, [[old, recent]]);
      return { moved: r!.n, queued: keys.map((k) => k.k), rows: left.map((x) => x.id) };
    }, true);
    expect(moved).toBeGreaterThanOrEqual(1);
    expect(rows).toEqual([recent]);
    expect(queued).toEqual(expect.arrayContaining(keysOf(w.albumId, old)));
    expect(queued.filter((k) => k.includes(old)).sort()).toEqual(keysOf(w.albumId, old).sort());
    expect(queued).toContain(objectKey(w.albumId, old, 'original.xmp'));
    expect(queued.some((k) => k.includes(recent))).toBe(false);

    // Once the bucket confirms, the keys leave the queue; a later page starts after the cursor.
    const after = await asService(async (q) => {
      const [f] = await q.query<{ n: number }>(`select private.purge_forget_keys($1) as n`, [keysOf(w.albumId, old)]);
      const rest = await q.query<{ k: string }>(`select k from private.purge_next_keys(null, 1000) k`);
      return { forgotten: f!.n, rest: rest.map((r) => r.k) };
    }, true);
    expect(after.forgotten).toBe(5);
    expect(after.rest.some((k) => k.includes(old))).toBe(false);
  });

  test('a deleted album is purged with all its items an hour after deletion, not before', async () => {
    const [a] = await db.as(w.owner, (q) => q.query<{ id: string }>(`select id from public.create_album('Doomed')`), { commit: true });
    const albumId = a!.id;
    const itemId = randomUUID();
    await db.query(
      `insert into public.items (id, album_id, uploader_id, kind, status, filename, mime, bytes, original_key)
       values ($1, $2, $3, 'image', 'ready', 'x.jpg', 'image/jpeg', 10, $4)`,
      [itemId, albumId, w.owner.id, objectKey(albumId, itemId, 'original')],
    );
    await db.as(w.owner, (q) => q.query(`select public.delete_album($1)`, [albumId]), { commit: true });
    const count = async () => Number((await db.query<{ n: string }>(`select count(*) n from public.albums where id = $1`, [albumId]))[0]!.n);

    await asService((q) => q.query(`select private.purge_expired(now(), 250)`), true);
    expect(await count()).toBe(1);
    await asService((q) => q.query(`select private.purge_expired(now() + interval '61 minutes', 250)`), true);
    expect(await count()).toBe(0);
    const queued = await asService((q) => q.query<{ k: string }>(`select k from private.purge_next_keys($1, 1000) k`, [`albums/${albumId}/`]));
    expect(queued.map((r) => r.k)).toEqual(expect.arrayContaining(keysOf(albumId, itemId)));
  });
});
