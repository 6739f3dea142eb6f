/** share-open's `open`: tokens, passwords, the rate limit and the view count, against the real database. */
import assert from 'node:assert/strict';
import { test } from '../_shared/test-world.ts';
import { addPhoto, call, makeLink, sharedAlbum, sql, visitorId } from './share-test-kit.ts';

test('a link without a password opens: the album, its months, a visit token, and a view counted', async () => {
  const album = await sharedAlbum('Lisbon');
  await addPhoto(album, { takenAt: '2024-05-02T10:00:00Z' });
  await addPhoto(album, { takenAt: '2024-05-03T10:00:00Z' });
  const { token, linkId } = await makeLink(album, { label: 'Family' });
  const { status, body } = await call({ op: 'open', token, visitor: visitorId() });
  assert.equal(status, 200, JSON.stringify(body));
  assert.match(body.visit, /^[A-Za-z0-9_-]{22}$/);
  assert.equal(body.album.title, 'Lisbon');
  assert.equal(body.album.itemCount, 2);
  assert.match(body.album.coverUrl, /^http/);
  assert.deepEqual(body.months, [{ month: '2024-05', count: 2 }]);
  assert.deepEqual(body.link, { label: 'Family', expiresAt: body.link.expiresAt, allowDownload: true, allowGuestUpload: false, originals: true, guestMaxFiles: null, guestMaxBytes: null });
  const visitLife = Date.parse(body.visitExpiresAt) - Date.now();
  assert.ok(visitLife > 11.9 * 3600_000 && visitLife <= 12 * 3600_000);
  const [row] = await sql<{ view_count: number; last_opened_at: Date | null }[]>`select view_count, last_opened_at from public.share_links where id = ${linkId}`;
  assert.equal(row!.view_count, 1);
  assert.ok(row!.last_opened_at);
  // The visit token is stored hashed only.
  const stored = await sql<{ token_hash: string }[]>`select token_hash from public.share_visits where link_id = ${linkId}`;
  assert.equal(stored.length, 1);
  assert.notEqual(stored[0]!.token_hash, body.visit);
});

test('unknown, malformed, revoked and expired links, and a deleted album, answer their codes', async () => {
  const album = await sharedAlbum();
  const v = visitorId();
  assert.deepEqual(pick(await call({ op: 'open', token: 'A'.repeat(22), visitor: v })), [404, 'share/not-found']);
  assert.deepEqual(pick(await call({ op: 'open', token: '../x', visitor: v })), [404, 'share/not-found']);
  const revoked = await makeLink(album);
  await sql`update public.share_links set revoked_at = now() where id = ${revoked.linkId}`;
  assert.deepEqual(pick(await call({ op: 'open', token: revoked.token, visitor: v })), [410, 'share/revoked']);
  const expired = await makeLink(album);
  await sql`update public.share_links set created_at = now() - interval '2 days', expires_at = now() - interval '1 minute' where id = ${expired.linkId}`;
  const exp = await call({ op: 'open', token: expired.token, visitor: v });
  assert.deepEqual([...pick(exp), exp.body.reason], [410, 'share/expired', 'expired']);
  const gone = await makeLink(album);
  await sql`update public.albums set deleted_at = now() where id = ${album.id}`;
  assert.deepEqual(pick(await call({ op: 'open', token: gone.token, visitor: v })), [404, 'share/not-found']);
  assert.deepEqual(pick(await call({ op: 'open', token: gone.token, visitor: 'short' })), [400, 'validation/invalid']);
});

test('a password: asked for, a wrong one refused, the right one lets in; the eleventh wrong try in 15 minutes is rate-limited, and so is the right one then', async () => {
  const album = await sharedAlbum();
  const { token } = await makeLink(album, { password: 'open sesame' });
  const v = visitorId();
  assert.deepEqual(pick(await call({ op: 'open', token, visitor: v })), [401, 'share/password-required']);
  assert.equal((await call({ op: 'open', token, visitor: v, password: 'open sesame' })).status, 200);
  for (let i = 1; i <= 10; i++) {
    assert.deepEqual(pick(await call({ op: 'open', token, visitor: v, password: `guess ${i}` })), [401, 'share/wrong-password'], `try ${i}`);
  }
  const eleventh = await call({ op: 'open', token, visitor: v, password: 'guess 11' });
  assert.deepEqual(pick(eleventh), [429, 'share/rate-limited']);
  assert.ok(eleventh.body.retryAfterSeconds > 800 && eleventh.body.retryAfterSeconds <= 900, String(eleventh.body.retryAfterSeconds));
  assert.equal(eleventh.headers.get('retry-after'), String(eleventh.body.retryAfterSeconds));
  assert.deepEqual(pick(await call({ op: 'open', token, visitor: v, password: 'open sesame' })), [429, 'share/rate-limited']);
  // Another client is not held back by this one's guesses.
  assert.equal((await call({ op: 'open', token, visitor: visitorId(), password: 'open sesame' }, '198.51.100.4')).status, 200);
  // Sixteen minutes later the window has passed.
  const later = new Date(Date.now() + 16 * 60_000);
  assert.equal((await call({ op: 'open', token, visitor: v, password: 'open sesame' }, '203.0.113.7', later)).status, 200);
});

test('views: the same browser on the same day is one view, another browser a second; at the limit a third is refused and the first still gets in', async () => {
  const album = await sharedAlbum();
  const { token, linkId } = await makeLink(album, { maxViews: 2 });
  const [ana, ben, cy] = [visitorId(), visitorId(), visitorId()];
  const views = async () => (await sql<{ view_count: number }[]>`select view_count from public.share_links where id = ${linkId}`)[0]!.view_count;
  assert.equal((await call({ op: 'open', token, visitor: ana })).status, 200);
  assert.equal((await call({ op: 'open', token, visitor: ana })).status, 200);
  assert.equal(await views(), 1);
  assert.equal((await call({ op: 'open', token, visitor: ben })).status, 200);
  assert.equal(await views(), 2);
  const third = await call({ op: 'open', token, visitor: cy });
  assert.deepEqual([...pick(third), third.body.reason], [410, 'share/expired', 'view-limit']);
  assert.equal(await views(), 2);
  assert.equal((await call({ op: 'open', token, visitor: ana })).status, 200);
  // Tomorrow Ana is a new visitor-day, and the link is used up.
  const tomorrow = new Date(Date.now() + 86_400_000);
  const next = await call({ op: 'open', token, visitor: ana }, '203.0.113.7', tomorrow);
  assert.deepEqual([...pick(next), next.body.reason], [410, 'share/expired', 'view-limit']);
});

function pick(r: { status: number; body: Record<string, unknown> }): [number, unknown] {
  return [r.status, r.body.code];
}
