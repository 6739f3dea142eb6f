/**
 * What share-open serves, fetched from the real gateway: every URL it can emit works while the link is
 * valid, and for every way a link can be invalid no URL comes out and earlier visit tokens stop working.
 */
import assert from 'node:assert/strict';
import { test } from '../_shared/test-world.ts';
import { addPhoto, call, fetchBytes, type Json, makeLink, page, sharedAlbum, sql, visitorId } from './share-test-kit.ts';

/** Every URL of an open link's answers: the cover, each item's URLs in a page, and each variant of `urls`. */
async function everyUrl(visit: string, opened: Json): Promise<string[]> {
  const out: string[] = [];
  if (opened.album?.coverUrl) out.push(opened.album.coverUrl);
  const items = await call({ op: 'items', visit, sort: 'taken' });
  assert.equal(items.status, 200, JSON.stringify(items.body));
  for (const r of items.body.rows) for (const k of ['thumbUrl', 'previewUrl', 'posterUrl', 'originalUrl']) if (r[k]) out.push(r[k]);
  const ids = items.body.rows.map((r: Json) => r.id);
  for (const variant of ['original', 'preview', 'thumb']) {
    for (const download of [false, true]) {
      const u = await call({ op: 'urls', visit, itemIds: ids, variant, download });
      assert.equal(u.status, 200);
      out.push(...Object.values(u.body.urls as Record<string, string>));
    }
  }
  return out;
}

const states: [string, (linkId: string, albumId: string) => Promise<void>, string][] = [
  ['revoked', (id) => sql`update public.share_links set revoked_at = now() where id = ${id}`.then(() => undefined), 'share/revoked'],
  ['expired', (id) => sql`update public.share_links set created_at = now() - interval '2 days', expires_at = now() - interval '1 second' where id = ${id}`.then(() => undefined), 'share/expired'],
  ['album deleted', (_id, album) => sql`update public.albums set deleted_at = now() where id = ${album}`.then(() => undefined), 'share/not-found'],
];

test('authorised, every URL serves its bytes; with no, or a wrong, password there is no URL at all', async () => {
  const album = await sharedAlbum();
  const photo = await addPhoto(album);
  const { token } = await makeLink(album, { password: 'let me in please' });
  const v = visitorId();
  for (const password of [undefined, 'not the one']) {
    const r = await call({ op: 'open', token, visitor: v, ...(password ? { password } : {}) });
    assert.equal(r.status, 401);
    assert.doesNotMatch(JSON.stringify(r.body), /https?:/);
  }
  // No visit, a forged one: password-required, no URLs.
  for (const visit of [undefined, 'A'.repeat(22)]) {
    for (const body of [{ op: 'items', sort: 'taken' }, { op: 'urls', itemIds: [photo.id], variant: 'thumb' }, { op: 'counts', sort: 'taken' }]) {
      const r = await call({ ...body, visit });
      assert.deepEqual([r.status, r.body.code], [401, 'share/password-required']);
      assert.doesNotMatch(JSON.stringify(r.body), /https?:/);
    }
  }
  const opened = await call({ op: 'open', token, visitor: v, password: 'let me in please' });
  assert.equal(opened.status, 200);
  const urls = await everyUrl(opened.body.visit, opened.body);
  assert.equal(urls.length, 1 + 3 + 6);
  for (const url of urls) {
    const got = await fetchBytes(url);
    assert.equal(got.status, 200, url);
    const which = url.includes('/original?') ? 'original' : url.includes('/preview.webp?') ? 'preview.webp' : 'thumb.webp';
    assert.deepEqual(got.bytes, photo.bytes[which]);
  }
});

for (const [name, spoil, code] of states) {
  test(`${name}: the link answers ${code}, gives no URL, and visit tokens from before stop working at once`, async () => {
    const album = await sharedAlbum();
    const photo = await addPhoto(album);
    const { token, linkId } = await makeLink(album);
    const opened = await call({ op: 'open', token, visitor: visitorId() });
    assert.equal(opened.status, 200);
    const visit = opened.body.visit;
    assert.ok((await everyUrl(visit, opened.body)).length > 0);
    await spoil(linkId, album.id);
    for (const body of [
      { op: 'open', token, visitor: visitorId() },
      { op: 'items', visit, sort: 'taken' },
      { op: 'counts', visit, sort: 'added' },
      ...['original', 'preview', 'thumb'].map((variant) => ({ op: 'urls', visit, itemIds: [photo.id], variant })),
    ]) {
      const r = await call(body);
      assert.deepEqual([r.status, r.body.code], [code === 'share/not-found' ? 404 : 410, code], `${body.op}: ${JSON.stringify(r.body)}`);
      assert.doesNotMatch(JSON.stringify(r.body), /https?:/);
    }
    const preview = await page(token);
    assert.doesNotMatch(preview.html, /og:image|X-Amz/);
  });
}

test('at the view limit a new visitor gets no URL, while a visitor let in before keeps theirs', async () => {
  const album = await sharedAlbum();
  await addPhoto(album);
  const { token } = await makeLink(album, { maxViews: 1 });
  const first = await call({ op: 'open', token, visitor: visitorId() });
  assert.equal(first.status, 200);
  const refused = await call({ op: 'open', token, visitor: visitorId() });
  assert.deepEqual([refused.status, refused.body.code, refused.body.reason], [410, 'share/expired', 'view-limit']);
  assert.doesNotMatch(JSON.stringify(refused.body), /https?:/);
  assert.equal((await call({ op: 'items', visit: first.body.visit, sort: 'taken' })).body.rows.length, 1);
});

test('originals only where downloads are on and the album does not keep locations; previews still served', async () => {
  const album = await sharedAlbum();
  const photo = await addPhoto(album);
  const noDownloads = await makeLink(album, { allowDownload: false });
  const a = await call({ op: 'open', token: noDownloads.token, visitor: visitorId() });
  assert.equal(a.body.link.originals, false);
  const items = await call({ op: 'items', visit: a.body.visit, sort: 'taken' });
  assert.equal(items.body.rows[0].originalUrl, null);
  assert.match(items.body.rows[0].thumbUrl, /thumb\.webp/);
  const u = await call({ op: 'urls', visit: a.body.visit, itemIds: [photo.id], variant: 'original' });
  assert.deepEqual([u.body.urls, u.body.originals], [{}, false]);

  await sql`update public.albums set keep_location = true where id = ${album.id}`;
  const withDownloads = await makeLink(album);
  const b = await call({ op: 'open', token: withDownloads.token, visitor: visitorId() });
  assert.equal(b.body.link.originals, false);
  const urls = await call({ op: 'urls', visit: b.body.visit, itemIds: [photo.id], variant: 'original', download: true });
  assert.deepEqual(urls.body.urls, {});
  const previews = await call({ op: 'urls', visit: b.body.visit, itemIds: [photo.id], variant: 'preview', download: true });
  const got = await fetchBytes(previews.body.urls[photo.id]);
  assert.deepEqual([got.status, got.type, got.disposition], [200, 'image/webp', "attachment; filename*=UTF-8''IMG_0001.webp"]);
});

test('an album that removes locations gives no original of an item whose location could not be removed', async () => {
  const album = await sharedAlbum();
  const removed = await addPhoto(album, { metadata: { location: 'removed' } });
  const kept = await addPhoto(album, { filename: 'VID_0001.mp4', mime: 'video/mp4', kind: 'video', metadata: { location: 'kept' } });
  const { token } = await makeLink(album);
  const { body } = await call({ op: 'open', token, visitor: visitorId() });
  assert.equal(body.link.originals, true);
  const items = await call({ op: 'items', visit: body.visit, sort: 'taken' });
  const byId = new Map<string, Json>(items.body.rows.map((r: Json) => [r.id, r]));
  assert.match(byId.get(removed.id)?.originalUrl, /original/);
  assert.equal(byId.get(kept.id)?.originalUrl, null);
  assert.match(byId.get(kept.id)?.thumbUrl, /thumb\.webp/);
  for (const download of [false, true]) {
    const u = await call({ op: 'urls', visit: body.visit, itemIds: [removed.id, kept.id], variant: 'original', download });
    assert.deepEqual(Object.keys(u.body.urls), [removed.id]);
  }
});

test('originals keep storage-sign\'s content rules: a photo inline, an HTML file as bytes to download', async () => {
  const album = await sharedAlbum();
  const photo = await addPhoto(album);
  const html = await addPhoto(album, { filename: 'page.html', mime: 'text/html', kind: 'file' });
  const { token } = await makeLink(album);
  const { body } = await call({ op: 'open', token, visitor: visitorId() });
  const u = await call({ op: 'urls', visit: body.visit, itemIds: [photo.id, html.id], variant: 'original' });
  const p = await fetchBytes(u.body.urls[photo.id]);
  const h = await fetchBytes(u.body.urls[html.id]);
  assert.deepEqual([p.type, p.disposition], ['image/jpeg', 'inline']);
  assert.deepEqual([h.type, h.disposition], ['application/octet-stream', "attachment; filename*=UTF-8''page.html"]);
  const d = await call({ op: 'urls', visit: body.visit, itemIds: [photo.id], variant: 'original', download: true });
  assert.equal((await fetchBytes(d.body.urls[photo.id])).disposition, "attachment; filename*=UTF-8''IMG_0001.jpg");
});

test('URLs and visits expire no later than the link: a link with 10 minutes left gives URLs of at most 600 s', async () => {
  const album = await sharedAlbum();
  await addPhoto(album);
  const { token, linkId } = await makeLink(album);
  await sql`update public.share_links set created_at = now() - interval '1 day', expires_at = now() + interval '10 minutes' where id = ${linkId}`;
  const opened = await call({ op: 'open', token, visitor: visitorId() });
  assert.ok(Date.parse(opened.body.visitExpiresAt) <= Date.now() + 600_000);
  const urls = await everyUrl(opened.body.visit, opened.body);
  assert.ok(urls.length > 0);
  const linkEnd = Date.now() + 600_000;
  for (const url of urls) {
    const q = new URL(url).searchParams;
    const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(q.get('X-Amz-Date')!)!;
    const signedAt = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
    const expires = Number(q.get('X-Amz-Expires'));
    assert.ok(expires <= 600, String(expires));
    assert.ok(signedAt + expires * 1000 <= linkEnd + 1000);
  }
  // A link with a year left: URLs of an hour.
  const longer = await makeLink(album);
  const o2 = await call({ op: 'open', token: longer.token, visitor: visitorId() });
  assert.equal(new URL(o2.body.album.coverUrl).searchParams.get('X-Amz-Expires'), '3600');
});

test('no storage key, user id, e-mail address or location in any answer', async () => {
  const album = await sharedAlbum();
  const photo = await addPhoto(album);
  const { token } = await makeLink(album);
  const opened = await call({ op: 'open', token, visitor: visitorId() });
  const visit = opened.body.visit;
  const answers = [opened.body, (await call({ op: 'items', visit, sort: 'added' })).body, (await call({ op: 'counts', visit, sort: 'taken' })).body];
  for (const variant of ['original', 'preview', 'thumb']) answers.push((await call({ op: 'urls', visit, itemIds: [photo.id], variant })).body);
  const emails = (await sql<{ email: string }[]>`select email from auth.users where id in ${sql([album.owner, album.contributor])}`).map((r) => r.email);
  for (const answer of answers) {
    // URLs name the object they sign; the rest of the answer must not.
    const text = JSON.stringify(answer, (_k, v) => (typeof v === 'string' && /^https?:/.test(v) ? 'URL' : v));
    for (const secret of [album.owner, album.contributor, album.editor, `albums/${album.id}`, ...emails]) assert.ok(!text.includes(secret), `${secret} in ${text}`);
    assert.doesNotMatch(text, /gps|latitude|longitude|location"/i);
  }
  const item = answers[1]!.rows[0];
  assert.equal(item.addedBy, 'Cora');
  assert.deepEqual(item.metadata, { cameraMake: 'Fujifilm', cameraModel: 'X100V', lens: '23mm', keywords: ['tram'] });
});
