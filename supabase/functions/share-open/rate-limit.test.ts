/** Wrong passwords: what the table keeps of a client, and the limits no address, header or parallel burst escapes. */
import assert from 'node:assert/strict';
import { test, testEnv } from '../_shared/test-world.ts';
import { sha256Hex } from '../_shared/share-access.ts';
import { handle, shareOpenDepsFromEnv } from './handler.ts';
import { call, deps, makeLink, sharedAlbum, sql, visitorId } from './share-test-kit.ts';

const IP = '203.0.113.9';

async function wrongPassword(token: string, d = deps): Promise<number> {
  const res = await handle(new Request('http://localhost/functions/v1/share-open', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.0.0.1, ${IP}` },
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

const guess = (token: string, password: string, ip: string, spoofed?: string) => call({ op: 'open', token, visitor: visitorId(), password }, ip, undefined, spoofed);
const statuses = (answers: { status: number }[]) => answers.reduce<Record<number, number>>((n, a) => ({ ...n, [a.status]: (n[a.status] ?? 0) + 1 }), {});

test('a client that writes X-Forwarded-For itself is still one client: a new first entry each time buys no guess', async () => {
  const { token } = await makeLink(await sharedAlbum(), { password: 'open sesame' });
  const answers = [];
  for (let i = 1; i <= 50; i++) answers.push(await guess(token, `guess ${i}`, '203.0.113.50', `198.18.0.${i}`));
  assert.deepEqual(answers.slice(0, 10).map((a) => a.status), Array(10).fill(401));
  assert.deepEqual(answers.slice(10).map((a) => a.status), Array(40).fill(429));
  assert.equal((await guess(token, 'open sesame', '203.0.113.50', '198.18.1.1')).status, 429);
});

test('forty wrong passwords sent at once from one address: ten are checked, the other thirty refused unchecked', async () => {
  const { token } = await makeLink(await sharedAlbum(), { password: 'open sesame' });
  const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => guess(token, `guess ${i}`, '203.0.113.51')));
  assert.deepEqual(statuses(answers), { 401: 10, 429: 30 });
  assert.equal((await guess(token, 'open sesame', '203.0.113.51')).status, 429);
});

test('from forty addresses, in parallel: the link takes thirty wrong passwords in 15 minutes, then refuses every address until the window passes', async () => {
  const { token } = await makeLink(await sharedAlbum(), { password: 'open sesame' });
  const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => guess(token, `guess ${i}`, `198.51.100.${i + 1}`)));
  assert.deepEqual(statuses(answers), { 401: 30, 429: 10 });
  // A new address with the right password is refused too: otherwise the limit would be one more address away.
  const fresh = await guess(token, 'open sesame', '192.0.2.200');
  assert.equal(fresh.status, 429);
  assert.equal(fresh.body.code, 'share/rate-limited');
  assert.ok(fresh.body.retryAfterSeconds > 800 && fresh.body.retryAfterSeconds <= 900, String(fresh.body.retryAfterSeconds));
  const later = new Date(Date.now() + 16 * 60_000);
  assert.equal((await call({ op: 'open', token, visitor: visitorId(), password: 'open sesame' }, '192.0.2.200', later)).status, 200);
});

test('the right password is not counted as a wrong one: a visitor who gets in leaves the limits as they were', async () => {
  const { token, linkId } = await makeLink(await sharedAlbum(), { password: 'open sesame' });
  for (let i = 0; i < 5; i++) assert.equal((await guess(token, 'open sesame', '203.0.113.52')).status, 200);
  assert.deepEqual(await stored(linkId), []);
});

test('a deployment that names its edge\'s address header: that header is the client, whatever X-Forwarded-For says', async () => {
  const named = { ...deps, clientIpHeader: 'cf-connecting-ip' };
  const { token } = await makeLink(await sharedAlbum(), { password: 'open sesame' });
  const from = (edge: string, forwarded: string) =>
    handle(new Request('http://localhost/functions/v1/share-open', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': edge, 'x-forwarded-for': forwarded },
      body: JSON.stringify({ op: 'open', token, visitor: visitorId(), password: 'wrong' }),
    }), named).then(async (res) => (await res.body?.cancel(), res.status));
  for (let i = 0; i < 10; i++) assert.equal(await from('203.0.113.53', `10.9.0.${i}`), 401);
  assert.equal(await from('203.0.113.53', '10.9.1.1'), 429);
  // Another address at the edge is another client.
  assert.equal(await from('203.0.113.54', '10.9.0.1'), 401);
});
