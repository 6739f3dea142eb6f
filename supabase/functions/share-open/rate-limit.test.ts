/** The wrong-password table must not hold anything from which a client's address can be worked out. */
import assert from 'node:assert/strict';
import { test, testEnv } from '../_shared/test-world.ts';
import { sha256Hex } from '../_shared/share-access.ts';
import { handle, shareOpenDepsFromEnv } from './handler.ts';
import { deps, makeLink, sharedAlbum, sql, visitorId } from './share-test-kit.ts';

const IP = '203.0.113.9';

async function wrongPassword(token: string, d = deps): Promise<number> {
  const res = await handle(new Request('http://localhost/functions/v1/share-open', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `${IP}, 10.0.0.1` },
    body: JSON.stringify({ op: 'open', token, visitor: visitorId(), password: 'not the password' }),
  }), d);
  await res.body?.cancel();
  return res.status;
}

const stored = async (linkId: string) =>
  (await sql<{ client_hash: string }[]>`select client_hash from public.share_password_failures where link_id = ${linkId} order by at`).map((r) => r.client_hash);

test('a wrong password stores a keyed hash of the client: not the plain SHA-256 anyone could recompute from an address, and another key gives another value', async () => {
  const album = await sharedAlbum();
  const { token, linkId } = await makeLink(album, { password: 'open sesame' });
  assert.equal(await wrongPassword(token), 401);
  const [first] = await stored(linkId);
  assert.ok(first);
  // An attacker holding the table and guessing addresses computes exactly this; it must not match.
  assert.notEqual(first, await sha256Hex(`${linkId}\n${IP}`));
  assert.notEqual(first, await sha256Hex(IP));
  assert.ok(!first.includes(IP));

  // The same client under a deployment with another secret is another value.
  const other = shareOpenDepsFromEnv({ ...testEnv(), SHOEBOX_SITE_URL: 'https://photos.example.test', S3_SECRET_ACCESS_KEY: 'another secret entirely' });
  assert.equal(await wrongPassword(token, other), 401);
  const [, underOther] = await stored(linkId);
  assert.notEqual(underOther, first);
  await other.sql.end();

  // Still one client under one key: its next wrong password is counted against the same value.
  assert.equal(await wrongPassword(token), 401);
  const all = await stored(linkId);
  assert.equal(all.filter((h) => h === first).length, 2);
});
