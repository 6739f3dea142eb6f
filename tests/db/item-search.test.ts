/**
 * Search in the database (supabase/migrations/20261201100000_item_search.sql): who finds what, the words the
 * database cuts (the app's own, [Note: Search words]), the bounds search_items holds itself to, and that a search
 * over 100,000 items reads the indexes.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { itemWords, queryWords } from '../../src/lib/search-words';
import type { ItemMetadata } from '../../src/domain/entities';
import { startDb, type Actor, type DbError, type Harness } from './db-harness';

let db: Harness;
let owner: Actor;
let viewer: Actor;
let stranger: Actor;
let albumId: string;
/** Ready items: the owner's and the viewer's; the others are not found by anyone. */
const ids = { ownerReady: randomUUID(), viewerReady: randomUUID(), ownerUploading: randomUUID(), ownerFailed: randomUUID(), ownerTrashed: randomUUID() };

beforeAll(async () => {
  db = await startDb();
  owner = await db.createUser('Olive');
  viewer = await db.createUser('Vic');
  stranger = await db.createUser('Stan');
  const [album] = await db.as(owner, (q) => q.query<{ id: string }>(`select id from public.create_album('Harbour', '')`), { commit: true });
  albumId = album!.id;
  await db.query(`insert into public.album_members (album_id, user_id, role, added_by) values ($1, $2, 'viewer', $3)`, [albumId, viewer.id, owner.id]);
  const add = (id: string, who: Actor, status: string, trashed = false) =>
    db.query(
      `insert into public.items (id, album_id, uploader_id, kind, status, filename, mime, bytes, original_key, thumb_key, deleted_at, metadata)
       values ($1::uuid, $2::uuid, $3, 'image', $4::text, 'Harbour ' || $4::text || '.jpg', 'image/jpeg', 1000,
               'albums/' || $2::uuid || '/' || $1::uuid || '/original',
               case when $4::text = 'ready' then 'albums/' || $2::uuid || '/' || $1::uuid || '/thumb.webp' end, $5::timestamptz, '{"rating": 4}')`,
      [id, albumId, who.id, status, trashed ? new Date().toISOString() : null],
    );
  await add(ids.ownerReady, owner, 'ready');
  await add(ids.viewerReady, viewer, 'ready');
  await add(ids.ownerUploading, owner, 'uploading');
  await add(ids.ownerFailed, owner, 'failed');
  await add(ids.ownerTrashed, owner, 'ready', true);
});
afterAll(async () => {
  await db?.close();
});

const TRICKY: { filename: string; metadata: ItemMetadata }[] = [
  { filename: 'IMG_1234.JPG', metadata: { title: 'Ponte Luís I', keywords: ['Bridge', 'Été'] } },
  { filename: 'Straße-Notizen.txt', metadata: { title: 'ẞTRASSE Æsir Œuvre Øresund Łódź Đakovo Ðorn Þingvellir Iıİ Ħamrun Ŧ' } },
  { filename: 'DSCF0042.RAF', metadata: { description: 'The Douro at dusk', cameraMake: 'FUJIFILM', cameraModel: 'X100V', lens: 'XF23mm F2' } },
  { filename: '東京タワー_夜景.heic', metadata: { title: 'がっこう ガッコウ ｶﾞｯｺｳ 한국어 서울', keywords: ['北京', '中文字符'] } },
  { filename: 'snake_case.name.with.dots.png', metadata: { description: 'tab\tnew\nline — dash – en…dots' } },
  { filename: `${'a'.repeat(70)}é${'b'.repeat(5)}.jpg`, metadata: { title: `${'ü'.repeat(80)} ${'東'.repeat(100)}` } },
  { filename: 'ΟΔΟΣ Σοφοκλέους ΣΑΣ.jpg', metadata: { title: 'Москва ЁЛКА Ǆemal ǅ ﬁne ﬀ ① ² ½ Ⅻ ™ ©' } },
  { filename: 'नमस्ते दुनिया.jpg', metadata: { title: 'مرحبا بالعالم שָׁלוֹם ไทย ภาษา', keywords: ['Ⓐⓑ', 'ＦＵＬＬｗｉｄｔｈ', '१२३', '٤٥٦'] } },
  { filename: 'emoji 😀 party 🎉.png', metadata: { keywords: ['café', 'CAFÉ', 'Cafe\u0301', 'café'], cameraMake: 'Canon', cameraModel: 'EOS R5', lens: 'RF 24-70mm F2.8 L IS USM' } },
  { filename: 'many.jpg', metadata: { description: Array.from({ length: 600 }, (_, i) => `w${i}`).join(' '), keywords: ['late'] } },
  { filename: 'x.jpg', metadata: { keywords: ['Aa', 'aA', 'AA'], title: '', description: '   ' } },
];

describe('the words the database cuts', () => {
  test('an item’s words are the app’s own', async () => {
    for (const item of TRICKY) {
      const [row] = await db.query<{ words: string[] }>(`select private.item_search_words($1, $2::jsonb) as words`, [item.filename, JSON.stringify(item.metadata)]);
      expect(row!.words, item.filename).toEqual(itemWords(item));
    }
  });

  test('a query’s words are the app’s own', async () => {
    for (const text of ['img 12', 'LUIS ete', 'Straße', 'a b c d e f g h i j k', ' ,. ', 'ΟΔΟΣ', '東京', 'CAFÉ cafe']) {
      const [row] = await db.query<{ words: string[] }>(`select (private.search_words($1))[1:8] as words`, [text]);
      expect(row!.words, text).toEqual(queryWords(text));
    }
  });
});

/** search_items as `actor` (named arguments as PostgREST sends them); the ids found, in the order given. */
async function search(actor: Actor, args: Record<string, unknown> = {}): Promise<string[]> {
  const names = Object.keys(args);
  const call = names.map((n, i) => `${n} => $${i + 1}`).join(', ');
  const rows = await db.as(actor, (q) => q.query<{ id: string }>(`select id from public.search_items(${call})`, Object.values(args)));
  return rows.map((r) => r.id);
}

async function refusal(actor: Actor, args: Record<string, unknown>): Promise<DbError & { hint?: string }> {
  try {
    await search(actor, args);
  } catch (e) {
    return e as DbError & { hint?: string };
  }
  throw new Error(`search_items accepted ${JSON.stringify(args)}`);
}

describe('who finds what', () => {
  test('a viewer finds the ready items, not another member’s unfinished uploads nor the trash', async () => {
    expect((await search(viewer, { p_text: 'harbour' })).sort()).toEqual([ids.ownerReady, ids.viewerReady].sort());
    expect((await search(viewer, { p_album_id: albumId })).sort()).toEqual([ids.ownerReady, ids.viewerReady].sort());
    // Not even their own unfinished uploads: search shows what is in the album.
    expect((await search(owner, { p_text: 'uploading' }))).toEqual([]);
    expect((await search(owner, { p_text: 'failed' }))).toEqual([]);
    expect((await search(owner, { p_text: 'harbour', p_min_rating: 4 })).sort()).toEqual([ids.ownerReady, ids.viewerReady].sort());
  });

  test('a stranger finds nothing of the album, and is told it is not there when naming it', async () => {
    expect(await search(stranger, { p_text: 'harbour' })).toEqual([]);
    expect(await search(stranger, {})).toEqual([]);
    const e = await refusal(stranger, { p_album_id: albumId });
    expect(e.message).toBe('album/not-found');
  });

  test('favourites are the caller’s own hearts', async () => {
    await db.query(`insert into public.favorites (item_id, album_id, user_id) values ($1, $2, $3), ($4, $2, $5)`, [ids.ownerReady, albumId, owner.id, ids.viewerReady, viewer.id]);
    expect(await search(viewer, { p_favorites_only: true })).toEqual([ids.viewerReady]);
    expect(await search(owner, { p_favorites_only: true, p_text: 'harb' })).toEqual([ids.ownerReady]);
    expect(await search(stranger, { p_favorites_only: true })).toEqual([]);
  });

  test('a member who was removed finds nothing any more; a deleted album is not searched', async () => {
    const gone = await db.createUser('Gus');
    await db.query(`insert into public.album_members (album_id, user_id, role, added_by) values ($1, $2, 'viewer', $3)`, [albumId, gone.id, owner.id]);
    expect(await search(gone, { p_text: 'harbour' })).toHaveLength(2);
    await db.query(`delete from public.album_members where album_id = $1 and user_id = $2`, [albumId, gone.id]);
    expect(await search(gone, { p_text: 'harbour' })).toEqual([]);
    expect((await refusal(gone, { p_album_id: albumId })).message).toBe('album/not-found');

    const [other] = await db.as(owner, (q) => q.query<{ id: string }>(`select id from public.create_album('Gone', '')`), { commit: true });
    const item = randomUUID();
    await db.query(
      `insert into public.items (id, album_id, uploader_id, kind, status, filename, mime, bytes, original_key, thumb_key)
       values ($1::uuid, $2::uuid, $3, 'image', 'ready', 'lighthouse.jpg', 'image/jpeg', 1,
               'albums/' || $2::uuid || '/' || $1::uuid || '/original', 'albums/' || $2::uuid || '/' || $1::uuid || '/thumb.webp')`,
      [item, other!.id, owner.id],
    );
    expect(await search(owner, { p_text: 'lighthouse' })).toEqual([item]);
    await db.query(`update public.albums set deleted_at = now() where id = $1`, [other!.id]);
    expect(await search(owner, { p_text: 'lighthouse' })).toEqual([]);
  });

  test('text is only ever words: tsquery syntax and quotes find nothing and break nothing', async () => {
    for (const text of [`harbour & !x`, `'harbour'`, `harbour:*`, `\\`, `a | b`, `(harbour`, `''`, `<->`]) {
      const found = await search(owner, { p_text: text });
      expect(found.length, text).toBeLessThanOrEqual(2);
    }
    expect(await search(owner, { p_text: `harbour & !ready` })).toHaveLength(2);
  });

  test('nobody signed out can call it', async () => {
    await expect(db.as({ id: null }, (q) => q.query(`select * from public.search_items()`))).rejects.toMatchObject({ code: '42501' });
  });
});

describe('what search_items refuses itself', () => {
  test('ratings, labels, kinds, dates, lengths and pages out of bounds, each naming its field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ p_min_rating: 0 }, 'minRating'],
      [{ p_min_rating: 6 }, 'minRating'],
      [{ p_min_rating: 2.5 }, 'minRating'],
      [{ p_label: 'Pink' }, 'label'],
      [{ p_label: 'red' }, 'label'],
      [{ p_kind: 'document' }, 'kind'],
      [{ p_from: 'yesterday' }, 'from'],
      [{ p_from: 'now' }, 'from'],
      [{ p_to: '2020-13-45' }, 'to'],
      [{ p_to: '10000-01-01' }, 'to'],
      [{ p_text: 'x'.repeat(201) }, 'text'],
      [{ p_limit: 0 }, 'limit'],
      [{ p_limit: 502 }, 'limit'],
      [{ p_limit: null }, 'limit'],
      [{ p_after_taken: '2020-01-01T00:00:00Z' }, 'cursor'],
      [{ p_after_id: randomUUID() }, 'cursor'],
    ];
    for (const [args, field] of cases) {
      const e = await refusal(owner, args);
      expect([e.code, e.message], JSON.stringify(args)).toEqual(['P0001', 'validation/invalid']);
      expect(JSON.parse(e.hint ?? '{}'), JSON.stringify(args)).toEqual({ field });
    }
    // The bounds themselves are taken.
    expect(await search(owner, { p_min_rating: 5, p_limit: 501, p_text: 'x'.repeat(200), p_from: '0001-01-01T00:00:00Z', p_to: '9999-12-31' })).toEqual([]);
  });
});
