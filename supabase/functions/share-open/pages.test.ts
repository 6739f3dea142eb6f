/** share-open's item pages follow listItems' order and cursors; the link preview page escapes and hides what it must. */
import assert from 'node:assert/strict';
import { test } from '../_shared/test-world.ts';
import { addPhoto, call, type Json, makeLink, page, sharedAlbum, sql, visitorId } from './share-test-kit.ts';

test('pages walk the album newest first, with no repeat or gap, by month and by kind; trashed items are left out', async () => {
  const album = await sharedAlbum();
  const ids: string[] = [];
  for (let i = 0; i < 7; i++) ids.push((await addPhoto(album, { takenAt: `2024-0${1 + (i % 3)}-10T10:00:00Z` })).id);
  const trashed = ids.pop()!;
  await sql`update public.items set deleted_at = now() where id = ${trashed}`;
  const { token } = await makeLink(album);
  const visit = (await call({ op: 'open', token, visitor: visitorId() })).body.visit;
  const seen: Json[] = [];
  let cursor: string | null = null;
  do {
    const r: { body: Json } = await call({ op: 'items', visit, sort: 'taken', limit: 2, cursor });
    seen.push(...r.body.rows);
    cursor = r.body.nextCursor;
  } while (cursor);
  const expected = (await sql<{ id: string }[]>`
    select id from public.items where album_id = ${album.id} and deleted_at is null order by sort_taken desc, id desc`).map((r) => r.id);
  assert.deepEqual(seen.map((r) => r.id), expected);
  assert.equal(expected.length, 6);
  const march = await call({ op: 'items', visit, sort: 'taken', month: '2024-03' });
  assert.ok(march.body.rows.every((r: Json) => r.takenAt.startsWith('2024-03')));
  assert.equal((await call({ op: 'items', visit, sort: 'taken', kind: 'video' })).body.rows.length, 0);
  const counts = await call({ op: 'counts', visit, sort: 'taken' });
  assert.deepEqual(counts.body.months.reduce((n: number, m: Json) => n + m.count, 0), 6);
  assert.equal((await call({ op: 'items', visit, sort: 'taken', cursor: 'bad' })).body.code, 'validation/invalid');
});

test('the link preview page: title and cover for an open link, escaped; nothing of the album behind a password or a dead link; no view counted', async () => {
  const album = await sharedAlbum('<script>alert(1)</script> & "friends"');
  await addPhoto(album);
  const open = await makeLink(album);
  const p = await page(open.token);
  assert.equal(p.type, 'text/html; charset=utf-8');
  assert.ok(p.html.includes('og:title" content="&#60;script&#62;alert(1)&#60;/script&#62; &#38; &#34;friends&#34;"'));
  assert.ok(!p.html.includes('<script>'));
  assert.match(p.html, /og:image" content="http[^"]*preview\.webp/);
  assert.ok(p.html.includes(`url=https://photos.example.test/s/${open.token}`));
  const [row] = await sql<{ view_count: number }[]>`select view_count from public.share_links where id = ${open.linkId}`;
  assert.equal(row!.view_count, 0);

  const locked = await makeLink(album, { password: 'a secret pass' });
  for (const token of [locked.token, 'B'.repeat(22), '"><img src=x onerror=alert(1)>']) {
    const g = await page(token);
    assert.ok(!g.html.includes('friends') && !g.html.includes('og:image') && !g.html.includes('<img'), g.html);
    assert.match(g.html, /A shared album/);
  }

  // A link at its view limit previews nothing of the album either, and counts nothing.
  const once = await makeLink(album, { maxViews: 1 });
  assert.equal((await call({ op: 'open', token: once.token, visitor: visitorId() })).status, 200);
  const used = await page(once.token);
  assert.ok(!used.html.includes('friends') && !used.html.includes('og:image'), used.html);
  assert.match(used.html, /A shared album/);
  const [usedRow] = await sql<{ view_count: number }[]>`select view_count from public.share_links where id = ${once.linkId}`;
  assert.equal(usedRow!.view_count, 1);
});

test('a page says which originals are stored gzip-compressed, so the visitor inflates those and no others', async () => {
  const album = await sharedAlbum('Tracks');
  const packed = await addPhoto(album, { filename: 'ride.gpx', mime: 'application/xml', kind: 'file' });
  const plain = await addPhoto(album);
  await sql`update public.items set bytes = 5000, stored_encoding = 'gzip', stored_bytes = 400 where id = ${packed.id}`;
  const { token } = await makeLink(album);
  const visit = (await call({ op: 'open', token, visitor: visitorId() })).body.visit;
  const rows: Json[] = (await call({ op: 'items', visit, sort: 'added' })).body.rows;
  assert.equal(rows.find((r) => r.id === packed.id)?.storedEncoding, 'gzip');
  assert.equal(rows.find((r) => r.id === plain.id)?.storedEncoding, undefined);
  assert.equal(rows.find((r) => r.id === packed.id)?.bytes, 5000);
});
