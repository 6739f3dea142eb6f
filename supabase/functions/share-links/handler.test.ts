/**
 * share-links against a real database: owners and editors make links whose password only this function can
 * hash, and the stored hash is PBKDF2-SHA-256 with 600,000 iterations and a salt of its own.
 */
import assert from 'node:assert/strict';
import { accessToken, asUser, createAlbum, createUser, ownerSql, test, testEnv } from '../_shared/test-world.ts';
import { verifyPassword } from '../_shared/password-hash.ts';
import { handle, shareLinksDepsFromEnv } from './handler.ts';
import type { ShareLinkRow } from './share-link-row.ts';

type Body = { code?: string; token: string; link: ShareLinkRow; details: { field: string } };

const sql = ownerSql();
const deps = shareLinksDepsFromEnv(testEnv());

async function call(userId: string | null, body: unknown) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (userId) headers.authorization = `Bearer ${await accessToken({ sub: userId })}`;
  const res = await handle(new Request('http://localhost/functions/v1/share-links', { method: 'POST', headers, body: JSON.stringify(body) }), deps);
  return { status: res.status, body: await res.json() as Body };
}

const create = (albumId: string, over: Record<string, unknown> = {}) =>
  ({ op: 'create', albumId, allowDownload: true, allowGuestUpload: false, ...over });

const storedHash = async (linkId: string) =>
  (await sql<{ password_hash: string | null }[]>`select password_hash from public.share_links where id = ${linkId}`)[0]!.password_hash;

test('an editor makes a link with a password: PBKDF2-SHA-256, 600,000 iterations, 16-byte salt; only the right password matches', async () => {
  const album = await createAlbum(sql);
  const { status, body } = await call(album.editor, create(album.id, { label: 'Grandma', password: 'correct horse', maxViews: 5, guestMaxFiles: 3 }));
  assert.equal(status, 200, JSON.stringify(body));
  assert.match(body.token, /^[A-Za-z0-9_-]{22}$/);
  assert.equal(body.link.hasPassword, true);
  assert.equal(body.link.label, 'Grandma');
  assert.equal(body.link.maxViews, 5);
  assert.equal(body.link.guestMaxFiles, 3);
  assert.equal(body.link.albumId, album.id);
  assert.equal(body.link.createdBy, album.editor);
  // 30 days when no expiry is sent.
  assert.ok(Math.abs(Date.parse(body.link.expiresAt!) - Date.now() - 30 * 86_400_000) < 60_000);
  assert.ok(!JSON.stringify(body).includes('pbkdf2'));

  const hash = await storedHash(body.link.id);
  const m = /^pbkdf2-sha256\$(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/.exec(hash ?? '');
  assert.ok(m, hash ?? 'no hash');
  assert.equal(m[1], '600000');
  assert.equal(atob(m[2]!).length, 16);
  assert.equal(atob(m[3]!).length, 32);
  assert.ok(!hash!.includes('correct horse'));
  assert.equal(await verifyPassword('correct horse', hash!), true);
  assert.equal(await verifyPassword('correct horsf', hash!), false);
  assert.equal(await verifyPassword('', hash!), false);

  // The same password on another link has another salt and another hash.
  const again = await call(album.owner, create(album.id, { password: 'correct horse' }));
  const other = await storedHash(again.body.link.id);
  assert.notEqual(other!.split('$')[2], m[2]);
  assert.notEqual(other!.split('$')[3], m[3]);
});

test('a contributor, a viewer and a stranger cannot make links; no session is refused', async () => {
  const album = await createAlbum(sql);
  const stranger = await createUser(sql, 'Stan');
  assert.equal((await call(album.contributor, create(album.id))).body.code, 'album/forbidden');
  assert.equal((await call(album.viewer, create(album.id))).body.code, 'album/forbidden');
  assert.equal((await call(stranger, create(album.id))).body.code, 'album/not-found');
  assert.equal((await call(null, create(album.id))).status, 401);
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from public.share_links where album_id = ${album.id}`;
  assert.equal(row!.n, 0);
});

test('never only when asked; bad fields are named; passwords have 8 to 128 characters', async () => {
  const album = await createAlbum(sql);
  const never = await call(album.owner, create(album.id, { expiresAt: null }));
  assert.equal(never.body.link.expiresAt, null);
  const inAWeek = new Date(Date.now() + 7 * 86_400_000).toISOString();
  assert.equal((await call(album.owner, create(album.id, { expiresAt: inAWeek }))).body.link.expiresAt, inAWeek);
  for (const [over, field] of [
    [{ password: 'short' }, 'password'], [{ password: 'x'.repeat(129) }, 'password'], [{ expiresAt: 'soon' }, 'expiresAt'],
    [{ allowDownload: 'yes' }, 'allowDownload'], [{ maxViews: 0 }, 'maxViews'], [{ guestMaxBytes: -5 }, 'guestMaxBytes'],
  ] as const) {
    const { status, body } = await call(album.owner, create(album.id, over));
    assert.equal(status, 400);
    assert.equal(body.details.field, field);
  }
  // Too soon for the database's own bounds.
  const tooSoon = await call(album.owner, create(album.id, { expiresAt: new Date(Date.now() + 60_000).toISOString() }));
  assert.deepEqual([tooSoon.status, tooSoon.body.code], [400, 'validation/invalid']);
});

test('set-password: owners and editors change or remove it, others cannot', async () => {
  const album = await createAlbum(sql);
  const made = await call(album.owner, create(album.id));
  const linkId = made.body.link.id;
  assert.equal(made.body.link.hasPassword, false);
  const set = await call(album.editor, { op: 'set-password', linkId, password: 'new secret 1' });
  assert.equal(set.status, 200, JSON.stringify(set.body));
  assert.equal(set.body.link.hasPassword, true);
  assert.equal(await verifyPassword('new secret 1', (await storedHash(linkId))!), true);
  assert.equal((await call(album.contributor, { op: 'set-password', linkId, password: 'mine mine' })).body.code, 'album/forbidden');
  assert.equal((await call(album.owner, { op: 'set-password', linkId: crypto.randomUUID(), password: 'whatever1' })).body.code, 'album/not-found');
  assert.equal(await verifyPassword('new secret 1', (await storedHash(linkId))!), true);
  const cleared = await call(album.owner, { op: 'set-password', linkId, password: null });
  assert.equal(cleared.body.link.hasPassword, false);
  assert.equal(await storedHash(linkId), null);
});

test('a client calling create_share_link itself cannot store a password hash', async () => {
  const album = await createAlbum(sql);
  await assert.rejects(
    asUser(sql, album.owner, (tx) => tx`select * from public.create_share_link(${album.id}, ${tx.json({ password_hash: 'pbkdf2-sha256$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAA' })})`),
    (e: { message?: string }) => e.message === 'validation/invalid',
  );
});
