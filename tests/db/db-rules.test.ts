/**
 * The rules a member could get around before: unfinished uploads that block an album for good, metadata of
 * any size, and invisible characters that make a title or a name read as something else.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { boundItemMetadata, jsonbTextBytes } from '../../src/lib/item-metadata';
import { errorOf, startCast, storeOriginal, type Actor, type Harness, type Queryable } from './db-harness';
import { seedShareLink } from './share-link-seed';

let db: Harness, owner: Actor, editor: Actor, contributor: Actor, viewer: Actor;

beforeAll(async () => ({ db, owner, editor, contributor, viewer } = await startCast()));
afterAll(() => db?.close());

const files = (n: number) => Array.from({ length: n }, () => ({ id: randomUUID(), filename: 'IMG_1.jpg', mime: 'image/jpeg', kind: 'image', bytes: 1000 }));

const reserve = (who: Actor, albumId: string, batch: unknown[], commit = true) =>
  db.as(who, (q) => q.query<{ id: string }>(`select id from public.reserve_items($1, $2)`, [albumId, JSON.stringify(batch)]), { commit });

const finalize = async (q: Queryable, albumId: string, itemId: string, metadata: unknown) => {
  await storeOriginal(q, albumId, itemId);
  return q.query(`select id from public.finalize_item($1, $2, $3)`, [albumId, itemId, JSON.stringify({ sha256: 'a'.repeat(64), metadata })]);
};

const invite = async (albumId: string, who: Actor, role: string) => {
  const [inv] = await db.as(owner, (q) => q.query<{ token: string }>(`select * from public.create_invite($1, $2)`, [albumId, role]), { commit: true });
  await db.as(who, (q) => q.query(`select * from public.accept_invite($1)`, [inv!.token]), { commit: true });
};

/** An album of `owner` with editor, contributor and viewer (committed). */
async function album(title = 'Trip'): Promise<string> {
  const [a] = await db.as(owner, (q) => q.query<{ id: string }>(`select id from public.create_album($1)`, [title]), { commit: true });
  for (const [who, role] of [[editor, 'editor'], [contributor, 'contributor'], [viewer, 'viewer']] as const) await invite(a!.id, who, role);
  return a!.id;
}

const pendingCount = async (who: Actor, albumId: string) =>
  Number((await db.as(who, (q) => q.query<{ n: number }>(`select public.count_pending_items($1) as n`, [albumId])))[0]!.n);

const queuedKeys = async (itemIds: string[]) =>
  (await db.query<{ key: string }>(`select key from private.purge_queue where split_part(key, '/', 3) = any ($1::text[])`, [itemIds])).length;

const rowsLeft = async (itemIds: string[]) =>
  Number((await db.query<{ n: number }>(`select count(*)::int as n from public.items where id = any ($1::uuid[])`, [itemIds]))[0]!.n);

describe('pending uploads: one member cannot block an album', () => {
  test('a contributor holds at most 10,000 unfinished uploads in an album; a retry of those already held still works', async () => {
    const id = await album('Capped');
    const held = files(10000);
    await reserve(contributor, id, held);
    const e = await errorOf(reserve(contributor, id, files(1)));
    expect(e).toMatchObject({ code: 'P0001', message: 'upload/quota-exceeded' });
    // The same rows asked again (a lost response) are not new rows.
    expect(await reserve(contributor, id, held.slice(0, 5), false)).toHaveLength(5);
    // The cap is per member: the editor still adds files.
    expect(await reserve(editor, id, files(1), false)).toHaveLength(1);
  }, 120_000);

  test('the owner sees how many uploads others never finished and clears them, with their objects queued for the purge', async () => {
    const id = await album('Cleared');
    const byContributor = (await reserve(contributor, id, files(3))).map((r) => r.id);
    const byEditor = (await reserve(editor, id, files(2))).map((r) => r.id);
    await db.as(editor, (q) => q.query(`select public.fail_item($1, $2)`, [id, byEditor[0]]), { commit: true });
    const own = (await reserve(owner, id, files(1))).map((r) => r.id);

    expect(await pendingCount(owner, id)).toBe(5);
    for (const who of [editor, contributor, viewer]) {
      expect((await errorOf(db.as(who, (q) => q.query(`select public.count_pending_items($1)`, [id])))).message).toBe('album/forbidden');
      expect((await errorOf(db.as(who, (q) => q.query(`select public.clear_pending_items($1)`, [id])))).message).toBe('album/forbidden');
    }

    const [cleared] = await db.as(owner, (q) => q.query<{ n: number }>(`select public.clear_pending_items($1) as n`, [id]), { commit: true });
    expect(Number(cleared!.n)).toBe(5);
    expect(await pendingCount(owner, id)).toBe(0);
    expect(await rowsLeft([...byContributor, ...byEditor])).toBe(0);
    // Five keys an item's objects may have: the original, the preview, the thumbnail, the poster and the sidecar.
    expect(await queuedKeys([...byContributor, ...byEditor])).toBe(5 * 5);
    // The owner's own upload is theirs to finish.
    await db.as(owner, (q) => finalize(q, id, own[0]!, {}), { commit: true });
    // The contributor's upload is gone: finishing it is refused, not half-done.
    expect((await errorOf(db.as(contributor, (q) => finalize(q, id, byContributor[0]!, {})))).message).toBe('item/not-found');
  });

  test('a removed member\'s unfinished uploads go with them and no longer count', async () => {
    const id = await album('Removed');
    const left = (await reserve(contributor, id, files(4))).map((r) => r.id);
    expect(await pendingCount(owner, id)).toBe(4);
    await db.as(owner, (q) => q.query(`select public.remove_member($1, $2)`, [id, contributor.id]), { commit: true });
    expect(await pendingCount(owner, id)).toBe(0);
    expect(await rowsLeft(left)).toBe(0);
    expect(await queuedKeys(left)).toBe(4 * 5);

    // Leaving does the same.
    const editorLeft = (await reserve(editor, id, files(2))).map((r) => r.id);
    await db.as(editor, (q) => q.query(`select public.remove_member($1, $2)`, [id, editor.id]), { commit: true });
    expect(await rowsLeft(editorLeft)).toBe(0);
  });
});

describe('item metadata is bounded on every path', () => {
  const reserved = async (albumId: string) => (await reserve(contributor, albumId, files(1)))[0]!.id;

  test('finalize_item refuses metadata of 20 MiB, of 17 KiB, with 201 keywords, a keyword over 100 characters or an unknown key', async () => {
    const id = await album('Metadata');
    const item = await reserved(id);
    const bad: [string, unknown][] = [
      ['20 MiB', { description: 'x'.repeat(20 * 1024 * 1024) }],
      ['17 KiB', { description: 'x'.repeat(17 * 1024) }],
      ['201 keywords', { keywords: Array.from({ length: 201 }, (_, i) => `k${i}`) }],
      ['a keyword of 101 characters', { keywords: ['k'.repeat(101)] }],
      ['an unknown key', { cameraMake: 'Canon', tracking: 'x' }],
      ['a number as text', { iso: '100' }],
      ['animated as anything but true', { animated: 'yes' }],
      ['a creator that is not text', { creator: ['Ana', 'Rui'] }],
      ['an offset past 14 hours', { takenOffset: 900 }],
      ['an offset of part of a minute', { takenOffset: 90.5 }],
      ['an offset as text', { takenOffset: '+02:00' }],
      ['a kept sidecar as anything but true', { sidecar: 'original.xmp' }],
    ];
    for (const [what, metadata] of bad) {
      const e = await errorOf(db.as(contributor, (q) => finalize(q, id, item, metadata)));
      expect(e, what).toMatchObject({ code: 'P0001', message: 'validation/invalid' });
    }
    const fine = { cameraMake: 'Canon', iso: 100, rating: 4, keywords: Array.from({ length: 200 }, (_, i) => `keyword ${i}`), notice: 'image/too-large', animated: true, creator: 'Ana Lima, Rui Sá', rights: 'CC BY 4.0', takenOffset: -210, sidecar: true };
    await db.as(contributor, (q) => finalize(q, id, item, fine), { commit: true });
    const [row] = await db.as(viewer, (q) => q.query<{ metadata: { keywords: string[] } }>(`select metadata from public.items where id = $1`, [item]));
    expect(row!.metadata.keywords).toHaveLength(200);
  });

  test('the app measures metadata as the database does, and what it cuts down is accepted', async () => {
    const samples = [{}, { a: 1 }, { keywords: ['é', 'x"y', 'tab\there', '日本'], rating: 4.5, iso: 100 }, { exposureTime: 0.000125, fNumber: 1.8 }];
    for (const m of samples) {
      const [row] = await db.query<{ n: number }>(`select octet_length($1::jsonb::text) as n`, [JSON.stringify(m)]);
      expect(jsonbTextBytes(m), JSON.stringify(m)).toBe(Number(row!.n));
    }
    const id = await album('Cut down');
    const huge = {
      cameraMake: 'Canon', tracking: 'id', exposureTime: 1e-7, title: 't'.repeat(5000), description: 'd'.repeat(3 * 1024 * 1024),
      keywords: Array.from({ length: 3000 }, (_, i) => `${i} ${'k'.repeat(200)}`),
    };
    const item = await reserved(id);
    await db.as(contributor, (q) => finalize(q, id, item, boundItemMetadata(huge)), { commit: true });
    const [row] = await db.as(viewer, (q) => q.query<{ metadata: { cameraMake: string; keywords?: string[] } }>(`select metadata from public.items where id = $1`, [item]));
    expect(row!.metadata.cameraMake).toBe('Canon');
  });

  test('an edit of the metadata is held to the same bound, and goes only through edit_items', async () => {
    const id = await album('Edited');
    const item = await reserved(id);
    await db.as(contributor, (q) => finalize(q, id, item, {}), { commit: true });
    const edit = (value: unknown) => db.as(editor, (q) => q.query(`select 1 from public.edit_items($1, array[$2::uuid], $3)`, [id, item, JSON.stringify(value)]));
    // 200 keywords of 100 characters pass each rule alone, and make 20 KB together: past the 16 KiB bound.
    const long = Array.from({ length: 200 }, (_, i) => `${i}`.padEnd(100, 'k'));
    for (const value of [{ addKeywords: long }, { description: 'x'.repeat(2001) }]) {
      expect((await errorOf(edit(value))).message).toBe('validation/invalid');
    }
    const direct = await errorOf(db.as(editor, (q) => q.query(`update public.items set metadata = '{"rating":5}' where id = $1`, [item])));
    expect(direct.code).toBe('42501');
    const [ok] = await edit({ rating: 5 });
    expect(ok).toBeTruthy();
  });
});

describe('titles, descriptions and names refuse invisible format characters', () => {
  const invisible = ['\u202e', '\u202a', '\u2066', '\u2069', '\u200e', '\u200f', '\u200b', '\u2060', '\ufeff', '\u00ad', '\u061c'];

  test('create_album and update_album refuse them in the title and the description', async () => {
    const id = await album('Plain');
    for (const c of invisible) {
      const title = `Trip${c}gpj.exe`;
      for (const [what, sql, params] of [
        ['create title', `select id from public.create_album($1)`, [title]],
        ['create description', `select id from public.create_album('Ok', $1)`, [`Sand${c}`]],
        ['update title', `select id from public.update_album($1, $2)`, [id, JSON.stringify({ title })]],
        ['update description', `select id from public.update_album($1, $2)`, [id, JSON.stringify({ description: `a${c}b` })]],
      ] as const) {
        const e = await errorOf(db.as(owner, (q) => q.query(sql, [...params])));
        expect(e, `${what} U+${c.codePointAt(0)!.toString(16)}`).toMatchObject({ code: 'P0001', message: 'validation/invalid' });
      }
    }
  });

  test('a description keeps its line breaks and tabs; emoji joined by ZWJ and Persian with ZWNJ stay allowed', async () => {
    const [a] = await db.as(owner, (q) => q.query<{ title: string; description: string }>(
      `select title, description from public.create_album($1, $2)`, ['Family 👨‍👩‍👧 می‌خواهم', 'Day one\n\tthe lake']));
    expect(a).toEqual({ title: 'Family 👨‍👩‍👧 می‌خواهم', description: 'Day one\n\tthe lake' });
  });

  test('a display name with a bidi override or a zero-width space is refused', async () => {
    for (const name of ['Mallory\u202e', '\u2067Bob', 'Al\u200bice']) {
      const e = await errorOf(db.as(viewer, (q) => q.query(`update public.profiles set display_name = $2 where id = $1`, [viewer.id, name])));
      expect(e.code, JSON.stringify(name)).toBe('23514');
    }
  });

  test('a title, a name, a link label or a guest name that draws nothing is refused, and so are line separators', async () => {
    const id = await album('Plain');
    for (const bad of ['\u3164', '\u2800', '\u00a0', '\u3000\u3000', '\u115f', 'a\u2028b', 'a\u2029b', 'a\ufffcb']) {
      const what = JSON.stringify(bad);
      expect(await errorOf(db.as(owner, (q) => q.query(`select id from public.create_album($1)`, [bad]))), what).toMatchObject({ message: 'validation/invalid' });
      expect(await errorOf(db.as(owner, (q) => q.query(`select id from public.update_album($1, $2)`, [id, JSON.stringify({ title: bad })]))), what).toMatchObject({ message: 'validation/invalid' });
      expect((await errorOf(db.as(viewer, (q) => q.query(`update public.profiles set display_name = $2 where id = $1`, [viewer.id, bad])))).code, what).toBe('23514');
      expect((await errorOf(db.as(owner, (q) => q.query(`select * from public.create_share_link($1, $2)`, [id, JSON.stringify({ label: bad })])))).message, what).toBe('validation/invalid');
    }
    // Beside visible characters they stay ordinary text.
    const [a] = await db.as(owner, (q) => q.query<{ title: string }>(`select title from public.create_album($1)`, ['Ana\u00a0& Bea']));
    expect(a!.title).toBe('Ana\u00a0& Bea');
  });

  test('a new account named with characters that draw nothing is called Someone', async () => {
    const who = await db.createUser('\u3164\u3164');
    const [p] = await db.query<{ display_name: string }>(`select display_name from public.profiles where id = $1`, [who.id]);
    expect(p!.display_name).toBe('Someone');
  });

  test('a new account named with invisible characters gets its name without them', async () => {
    const who = await db.createUser('Eve\u202egnirts');
    const [p] = await db.query<{ display_name: string }>(`select display_name from public.profiles where id = $1`, [who.id]);
    expect(p!.display_name).toBe('Evegnirts');
  });
});

describe('clearing unfinished uploads', () => {
  test('one call of clear_pending_items clears at most 5,000 rows, so that each stays a short statement', async () => {
    const id = await album('Crowded');
    await reserve(contributor, id, files(10_000));
    await reserve(editor, id, files(2_000));
    const clear = async () => Number((await db.as(owner, (q) => q.query<{ n: number }>(`select public.clear_pending_items($1) as n`, [id]), { commit: true }))[0]!.n);
    expect([await clear(), await clear(), await clear(), await clear()]).toEqual([5_000, 5_000, 2_000, 0]);
    expect(await pendingCount(owner, id)).toBe(0);
  });
});

describe('a share link, once made, changes only by being revoked', () => {
  test('an editor revokes a link directly: once, at the database\'s time; it cannot be opened again, made endless or given its views back', async () => {
    const albumId = await album('Linked');
    const linkId = await seedShareLink(db, { albumId, createdBy: owner.id!, expiresInHours: 24, maxViews: 5 });
    const [before] = await db.query<{ expires_at: Date }>(`select expires_at from public.share_links where id = $1`, [linkId]);
    // Back-dated by a day, the revocation is stamped now all the same.
    await db.as(editor, (q) => q.query(`update public.share_links set revoked_at = now() - interval '1 day' where id = $1`, [linkId]), { commit: true });
    const [revoked] = await db.query<{ revoked_at: Date; now: Date }>(`select revoked_at, now() as now from public.share_links where id = $1`, [linkId]);
    expect(Math.abs(revoked!.now.getTime() - revoked!.revoked_at.getTime())).toBeLessThan(60_000);
    for (const who of [editor, owner]) {
      expect(await errorOf(db.as(who, (q) => q.query(`update public.share_links set revoked_at = null where id = $1`, [linkId])))).toMatchObject({ message: 'share/revoked' });
      expect(await errorOf(db.as(who, (q) => q.query(`update public.share_links set revoked_at = now() + interval '1 day' where id = $1`, [linkId])))).toMatchObject({ message: 'share/revoked' });
      for (const set of [`expires_at = null`, `expires_at = now() + interval '10 years'`, `created_at = now()`, `view_count = 0`]) {
        expect((await errorOf(db.as(who, (q) => q.query(`update public.share_links set ${set} where id = $1`, [linkId])))).code, set).toBe('42501');
      }
      // The view limit only comes down: raised or taken away, a used-up link would open again.
      for (const set of [`max_views = null`, `max_views = 6`]) {
        expect(await errorOf(db.as(who, (q) => q.query(`update public.share_links set ${set} where id = $1`, [linkId]))), set).toMatchObject({ message: 'validation/invalid' });
      }
    }
    // What managing a link still is: its label, and lowering its limits.
    await db.as(editor, (q) => q.query(`update public.share_links set label = 'Family', max_views = 3, allow_download = false where id = $1`, [linkId]), { commit: true });
    const [after] = await db.query<{ revoked_at: Date; expires_at: Date; label: string; max_views: number }>(`select revoked_at, expires_at, label, max_views from public.share_links where id = $1`, [linkId]);
    expect(after!.revoked_at).toEqual(revoked!.revoked_at);
    expect(after!.expires_at).toEqual(before!.expires_at);
    expect([after!.label, after!.max_views]).toEqual(['Family', 3]);
  });
});

describe('comments and hearts go only on items a member sees', () => {
  test('another member\'s unfinished upload answers a comment or a heart as an unknown id does: the same refusal, nothing kept', async () => {
    const albumId = await album('Uploads in progress');
    const [pending] = await reserve(contributor, albumId, files(1));
    const unknown = randomUUID();
    const refusal = async (who: Actor, itemId: string) => {
      const comment = await errorOf(db.as(who, (q) => q.query(`insert into public.comments (album_id, item_id, body) values ($1, $2, 'Nice')`, [albumId, itemId])));
      const heart = await errorOf(db.as(who, (q) => q.query(`insert into public.favorites (album_id, item_id) values ($1, $2)`, [albumId, itemId])));
      return [comment.code, heart.code];
    };
    for (const who of [viewer, editor, owner]) {
      expect(await refusal(who, pending!.id)).toEqual(await refusal(who, unknown));
      expect(await refusal(who, pending!.id)).toEqual(['42501', '42501']);
    }
    const [kept] = await db.query<{ n: number }>(`select (select count(*) from public.comments where item_id = $1)::int + (select count(*) from public.favorites where item_id = $1)::int as n`, [pending!.id]);
    expect(kept!.n).toBe(0);
  });
});
