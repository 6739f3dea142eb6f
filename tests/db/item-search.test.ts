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

  test('every character of the first two planes folds and joins or parts words as in the app', async () => {
    // Each character between two letters: whether it is a letter or digit, a mark, a separator, and what it folds to.
    const points: number[] = [];
    for (let c = 0x80; c < 0x20000; c++) if (c < 0xd800 || c > 0xdfff) points.push(c);
    const differ: string[] = [];
    const newer: number[] = [];
    for (let i = 0; i < points.length; i += 250) {
      const text = points.slice(i, i + 250).map((c) => `q${String.fromCodePoint(c)}z`).join(' ');
      const [row] = await db.query<{ words: string[] }>(`select private.item_search_words($1, '{}') as words`, [text]);
      const app = itemWords({ filename: text, metadata: {} });
      if (JSON.stringify(row!.words) !== JSON.stringify(app)) {
        // Which ones: each on its own.
        const chunk = points.slice(i, i + 250).map((c) => `q${String.fromCodePoint(c)}z`);
        const each = await db.query<{ words: string[] }>(
          `select private.item_search_words(u.x, '{}') as words from unnest($1::text[]) with ordinality u(x, n) order by u.n`,
          [chunk],
        );
        // A character newer than the database's Unicode tables (Postgres 18 has Unicode 16, Node Unicode 17)
        // decomposes in the app only: the database learns it with its next version. Anything else is a mistake.
        const nfkd = await db.query<{ d: string }>(`select normalize(u.x, nfkd) as d from unnest($1::text[]) with ordinality u(x, n) order by u.n`, [chunk]);
        chunk.forEach((one, k) => {
          const want = itemWords({ filename: one, metadata: {} });
          if (JSON.stringify(each[k]!.words) === JSON.stringify(want)) return;
          if (nfkd[k]!.d !== one.normalize('NFKD')) newer.push(one.codePointAt(1)!);
          else differ.push(`U+${one.codePointAt(1)!.toString(16)}: ${JSON.stringify(each[k]!.words)} ≠ ${JSON.stringify(want)}`);
        });
      }
    }
    expect(differ).toEqual([]);
    // About 1 on Postgres 18 (Unicode 16), about 100 on Postgres 15 (Unicode 14): the new letters of those versions.
    expect(newer.length).toBeLessThan(500);
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

describe('100,000 items', () => {
  let big: Actor;
  let bigAlbum: string;
  const KEYWORD = (n: number) => `kw${String(n).padStart(2, '0')}x`;

  beforeAll(async () => {
    big = await db.createUser('Bea');
    const albums = await db.query<{ id: string }>(
      `with a as (insert into public.albums (owner_id, title) select $1, 'Trip ' || g from generate_series(1, 20) g returning id)
       insert into public.album_members (album_id, user_id, role) select id, $1, 'owner' from a returning album_id as id`,
      [big.id],
    );
    bigAlbum = albums[0]!.id;
    // One INSERT, so the statement triggers run once. Each item has one of 100 keywords (1 % each).
    await db.query(
      `insert into public.items (id, album_id, uploader_id, kind, status, filename, mime, bytes, original_key, thumb_key, taken_at, metadata)
       select s.id, s.album, $2::uuid, 'image', 'ready', 'IMG_' || s.g || '.JPG', 'image/jpeg', 1000,
              'albums/' || s.album || '/' || s.id || '/original', 'albums/' || s.album || '/' || s.id || '/thumb.webp',
              timestamptz '2015-01-01' + (s.g * interval '37 minutes'),
              jsonb_build_object('keywords', jsonb_build_array('kw' || lpad((s.g % 100)::text, 2, '0') || 'x', 'Holiday'),
                                 'rating', s.g % 6, 'cameraMake', 'FUJIFILM', 'cameraModel', 'X100V')
       from (select gen_random_uuid() id, g, ($1::uuid[])[1 + g % 20] album from generate_series(1, 100000) g) s`,
      [albums.map((a) => a.id), big.id],
    );
    await db.exec('analyze');
  }, 600_000);

  /** The plan of the statement search_items runs for these arguments, as its definer runs it. */
  async function plan(args: { query?: string; album?: string; rating?: number }): Promise<string> {
    const [row] = await db.query<{ sql: string; q: string | null }>(
      `select private.search_sql(private.search_query($1), $2, $3, null, null, null, null, null, false, null, null, 101) as sql,
              private.search_query($1)::text as q`,
      [args.query ?? null, args.album ?? null, args.rating ?? null],
    );
    await db.query(`select set_config('request.jwt.claims', $1, false)`, [JSON.stringify({ sub: big.id, role: 'authenticated' })]);
    try {
      await db.exec(
        `prepare search_plan(tsquery, uuid, numeric, text, text, timestamptz, timestamptz, uuid, boolean, timestamptz, uuid, integer) as ${row!.sql}`,
      );
      // EXPLAIN EXECUTE takes no parameters of its own: the values are written in, quoted.
      const [call] = await db.query<{ sql: string }>(
        `select format('explain execute search_plan(%L::tsquery, %L::uuid, %L::numeric, null, null, null, null, null, false, null, null, 101)', $1::text, $2::text, $3::text) as sql`,
        [row!.q, args.album ?? null, args.rating ?? null],
      );
      const lines = await db.query<{ 'QUERY PLAN': string }>(call!.sql);
      return lines.map((l) => l['QUERY PLAN']).join('\n');
    } finally {
      await db.exec('deallocate search_plan');
      await db.query(`select set_config('request.jwt.claims', '', false)`);
    }
  }

  test('a word found in 1 % of them reads the words index, across albums and within one', async () => {
    expect(await plan({ query: KEYWORD(42) })).toMatch(/Bitmap Index Scan on items_search_doc_idx/);
    expect(await plan({ query: `${KEYWORD(42)} holiday`, album: bigAlbum })).toMatch(/Bitmap Index Scan on items_search_doc_idx/);
  });

  test('a filter without words reads the newest first and stops at the page', async () => {
    expect(await plan({ rating: 4 })).toMatch(/Index (Only )?Scan using items_album_taken_idx/);
    expect(await plan({ album: bigAlbum })).toMatch(/Index (Only )?Scan using items_album_taken_idx/);
  });

  test('the answers are right, and come quickly', async () => {
    const started = performance.now();
    const found = await search(big, { p_text: KEYWORD(42), p_limit: 501 });
    const ms = performance.now() - started;
    expect(found).toHaveLength(501);
    const all = await db.query<{ n: number }>(`select count(*)::int as n from public.items where metadata -> 'keywords' ? $1`, [KEYWORD(42)]);
    expect(all[0]!.n).toBe(1000);
    expect(await search(big, { p_text: `img_42421.jpg` })).toHaveLength(1);
    expect(await search(big, { p_text: `img_42421`, p_album_id: bigAlbum })).toHaveLength(0);
    console.log(`search of 100,000 items for a word in 1 %: ${ms.toFixed(0)} ms`);
  });
});
