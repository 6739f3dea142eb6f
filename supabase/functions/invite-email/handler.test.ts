/**
 * invite-email against a real database and an HTTP stub of the project's Auth: the owner's invitation is
 * made and mailed with a link that works, anyone else gets nothing and no mail goes out, and no answer
 * carries the token or says whether the address has an account.
 */
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { accessToken, asUser, createAlbum, createUser, ownerSql, test, testEnv } from '../_shared/test-world.ts';
import { startGoTrueStub, SERVICE_ROLE_KEY } from './gotrue-stub.ts';
import { handle, type InviteEmailDeps, inviteEmailDepsFromEnv } from './handler.ts';

const SITE = 'https://photos.example.org';
const sql = ownerSql();
const auth = startGoTrueStub(sql);
const deps = inviteEmailDepsFromEnv({
  ...testEnv(),
  SUPABASE_URL: auth.url,
  SUPABASE_SERVICE_ROLE_KEY: SERVICE_ROLE_KEY,
  SHOEBOX_SITE_URL: `${SITE}, http://localhost:5173`,
});

async function invite(userId: string | null, body: Record<string, unknown>, overrides: Partial<InviteEmailDeps> = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (userId) headers.authorization = `Bearer ${await accessToken({ sub: userId })}`;
  const res = await handle(new Request('http://localhost/functions/v1/invite-email', { method: 'POST', headers, body: JSON.stringify(body) }), { ...deps, ...overrides });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) as Record<string, unknown> };
}

const fresh = () => `new.${crypto.randomUUID().slice(0, 8)}@example.test`;
const emailInvites = async (albumId: string) =>
  [...await sql<{ email: string; token_hash: string }[]>`select email, token_hash from public.invites where album_id = ${albumId} and email is not null`];
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
/** The token the mail carries: the last part of its redirect_to. */
const tokenOf = (redirectTo: string | null) => /\/invite\/([A-Za-z0-9_-]+)$/.exec(redirectTo ?? '')?.[1] ?? '';

function mailsSince(mark: number) {
  return auth.requests.slice(mark);
}

test('the owner invites a new address: Auth is asked to invite it, with the service key and a link to /invite/{token}, and the link joins that person', async () => {
  const album = await createAlbum(sql, 'Lisbon');
  const email = fresh();
  const mark = auth.requests.length;
  const res = await invite(album.owner, { albumId: album.id, email: `  ${email.toUpperCase()} `, role: 'contributor', redirectOrigin: SITE });
  assert.equal(res.status, 200, res.text);

  const [mail, ...more] = mailsSince(mark);
  assert.equal(more.length, 0);
  assert.equal(mail!.path, '/auth/v1/invite');
  assert.equal(mail!.apikey, SERVICE_ROLE_KEY);
  assert.equal(mail!.authorization, `Bearer ${SERVICE_ROLE_KEY}`);
  assert.equal(mail!.body.email, email);
  assert.deepEqual(mail!.body.data, { album_title: 'Lisbon', inviter_name: 'Olive' });
  const token = tokenOf(mail!.redirectTo);
  assert.equal(mail!.redirectTo, `${SITE}/invite/${token}`);
  assert.equal(Buffer.from(token, 'base64url').length, 16);

  // Stored as its hash, bound to the address; the answer is the invitation without its token.
  const rows = await emailInvites(album.id);
  assert.deepEqual(rows, [{ email, token_hash: sha256(token) }]);
  assert.ok(!res.text.includes(token));
  const answered = res.body.invite as Record<string, unknown>;
  assert.deepEqual(Object.keys(answered).sort(), ['albumId', 'createdAt', 'createdBy', 'email', 'expiresAt', 'id', 'maxUses', 'revokedAt', 'role', 'useCount']);
  assert.equal(answered.email, email);
  assert.equal(answered.role, 'contributor');
  assert.equal(answered.createdBy, album.owner);
  const days = (Date.parse(answered.expiresAt as string) - Date.now()) / 86_400_000;
  assert.ok(days > 6.9 && days <= 7, `expires in ${days} days`);

  // The person who signs in with that address joins through the mailed token; anyone else cannot.
  const stranger = await createUser(sql, 'Mallory');
  await assert.rejects(asUser(sql, stranger, (tx) => tx`select * from public.accept_invite(${token})`), /invite\/not-found/);
  const invitee = crypto.randomUUID();
  await sql`insert into auth.users (id, email, raw_user_meta_data) values (${invitee}, ${email}, '{}')`;
  await sql.begin(async (tx) => {
    await tx`set local role authenticated`;
    await tx`select set_config('request.jwt.claims', ${JSON.stringify({ sub: invitee, role: 'authenticated', email })}, true)`;
    await tx`select * from public.accept_invite(${token})`;
  });
  const [member] = await sql<{ role: string }[]>`select role from public.album_members where album_id = ${album.id} and user_id = ${invitee}`;
  assert.equal(member?.role, 'contributor');
});

test('an address with an account gets a magic link instead, and the answer is the same as for a new address', async () => {
  const album = await createAlbum(sql);
  const known = (await sql<{ email: string }[]>`select email from auth.users where id = ${await createUser(sql, 'Kim')}`)[0]!.email;
  const mark = auth.requests.length;
  const existing = await invite(album.owner, { albumId: album.id, email: known, role: 'viewer', redirectOrigin: SITE, expiresInDays: 3 });
  assert.equal(existing.status, 200, existing.text);
  const mails = mailsSince(mark);
  // Auth refuses to invite a confirmed account (email_exists), so the magic link follows.
  assert.deepEqual(mails.map((m) => m.path), ['/auth/v1/invite', '/auth/v1/otp']);
  const link = mails[1]!;
  assert.equal(link.body.email, known);
  assert.equal(link.body.create_user, false);
  assert.equal(link.apikey, SERVICE_ROLE_KEY);
  const token = tokenOf(link.redirectTo);
  assert.equal(link.redirectTo, `${SITE}/invite/${token}`);
  assert.ok(!existing.text.includes(token));
  assert.deepEqual((await emailInvites(album.id)).map((r) => r.token_hash), [sha256(token)]);

  const other = await invite(album.owner, { albumId: album.id, email: fresh(), role: 'viewer', redirectOrigin: SITE, expiresInDays: 3 });
  const shape = (r: typeof other) => {
    const i = r.body.invite as Record<string, unknown>;
    return { status: r.status, keys: Object.keys(r.body), inviteKeys: Object.keys(i).sort(), role: i.role, useCount: i.useCount, maxUses: i.maxUses };
  };
  assert.deepEqual(shape(existing), shape(other));
});

test('editors, contributors and viewers get album/forbidden, a stranger and an unknown album album/not-found, and no mail goes out', async () => {
  const album = await createAlbum(sql);
  const stranger = await createUser(sql, 'Sam');
  const mark = auth.requests.length;
  for (const member of [album.editor, album.contributor, album.viewer]) {
    const res = await invite(member, { albumId: album.id, email: fresh(), role: 'viewer', redirectOrigin: SITE });
    assert.deepEqual([res.status, res.body.code], [403, 'album/forbidden']);
  }
  const res = await invite(stranger, { albumId: album.id, email: fresh(), role: 'viewer', redirectOrigin: SITE });
  assert.deepEqual([res.status, res.body.code], [404, 'album/not-found']);
  const unknown = await invite(album.owner, { albumId: crypto.randomUUID(), email: fresh(), role: 'viewer', redirectOrigin: SITE });
  assert.deepEqual([unknown.status, unknown.body.code], [404, 'album/not-found']);
  assert.deepEqual(mailsSince(mark), []);
  assert.deepEqual(await emailInvites(album.id), []);
});

test('without a signed-in session the answer is auth/session-expired', async () => {
  const album = await createAlbum(sql);
  const mark = auth.requests.length;
  const none = await invite(null, { albumId: album.id, email: fresh(), role: 'viewer', redirectOrigin: SITE });
  assert.deepEqual([none.status, none.body.code], [401, 'auth/session-expired']);
  const anon = await handle(new Request('http://localhost/functions/v1/invite-email', {
    method: 'POST',
    headers: { authorization: `Bearer ${await accessToken({ role: 'anon' })}` },
    body: JSON.stringify({ albumId: album.id, email: fresh(), role: 'viewer', redirectOrigin: SITE }),
  }), deps);
  assert.equal(anon.status, 401);
  assert.deepEqual(mailsSince(mark), []);
});

test('a link to any site but the app is refused: no invitation, no mail', async () => {
  const album = await createAlbum(sql);
  const mark = auth.requests.length;
  for (const redirectOrigin of ['https://evil.example', `${SITE}/`, `${SITE}.evil.example`, 'http://photos.example.org', 'javascript:alert(1)', undefined]) {
    const res = await invite(album.owner, { albumId: album.id, email: fresh(), role: 'viewer', redirectOrigin });
    assert.deepEqual([res.status, res.body.code, (res.body.details as { field?: string }).field], [400, 'validation/invalid', 'redirectOrigin'], String(redirectOrigin));
  }
  assert.deepEqual(mailsSince(mark), []);
  assert.deepEqual(await emailInvites(album.id), []);
  // Each listed origin is accepted.
  const local = await invite(album.owner, { albumId: album.id, email: fresh(), role: 'viewer', redirectOrigin: 'http://localhost:5173' });
  assert.equal(local.status, 200, local.text);
  assert.match(mailsSince(mark)[0]!.redirectTo!, /^http:\/\/localhost:5173\/invite\/[A-Za-z0-9_-]{22}$/);
});

test('malformed requests are validation/invalid naming the field, before anything is written or sent', async () => {
  const album = await createAlbum(sql);
  const mark = auth.requests.length;
  const base = { albumId: album.id, email: fresh(), role: 'viewer', redirectOrigin: SITE };
  const cases: [Record<string, unknown>, string][] = [
    [{ ...base, email: 'not an address' }, 'email'],
    [{ ...base, email: '' }, 'email'],
    [{ ...base, email: `${'a'.repeat(320)}@example.test` }, 'email'],
    [{ ...base, role: 'owner' }, 'role'],
    [{ ...base, expiresInDays: 0 }, 'expiresInDays'],
    [{ ...base, expiresInDays: 366 }, 'expiresInDays'],
    [{ ...base, albumId: 'x' }, 'albumId'],
  ];
  for (const [body, field] of cases) {
    const res = await invite(album.owner, body);
    assert.deepEqual([res.status, res.body.code, (res.body.details as { field?: string }).field], [400, 'validation/invalid', field], JSON.stringify(body).slice(0, 80));
  }
  assert.deepEqual(mailsSince(mark), []);
  assert.deepEqual(await emailInvites(album.id), []);
});

test('when Auth cannot send the mail the answer is backend/unreachable and no invitation is left behind', async () => {
  const album = await createAlbum(sql);
  auth.failWith = { status: 500, code: 'unexpected_failure', message: 'Error sending invite email' };
  try {
    const res = await invite(album.owner, { albumId: album.id, email: fresh(), role: 'editor', redirectOrigin: SITE });
    assert.deepEqual([res.status, res.body.code], [502, 'backend/unreachable']);
    assert.deepEqual(await emailInvites(album.id), []);
    // Over Auth's own mail rate limit (429): the same.
    auth.failWith = { status: 429, code: 'over_email_send_rate_limit', message: 'email rate limit exceeded' };
    const limited = await invite(album.owner, { albumId: album.id, email: fresh(), role: 'editor', redirectOrigin: SITE });
    assert.deepEqual([limited.status, limited.body.code], [502, 'backend/unreachable']);
    assert.deepEqual(await emailInvites(album.id), []);
  } finally {
    auth.failWith = null;
  }
  // Auth unreachable altogether.
  const down = inviteEmailDepsFromEnv({ ...testEnv(), SUPABASE_URL: 'http://127.0.0.1:9', SUPABASE_SERVICE_ROLE_KEY: SERVICE_ROLE_KEY, SHOEBOX_SITE_URL: SITE });
  const res = await invite(album.owner, { albumId: album.id, email: fresh(), role: 'editor', redirectOrigin: SITE }, { sendMail: down.sendMail });
  assert.deepEqual([res.status, res.body.code], [502, 'backend/unreachable']);
  assert.deepEqual(await emailInvites(album.id), []);
});

test('an address Auth will not mail is the caller’s to correct, and leaves no invitation', async () => {
  const album = await createAlbum(sql);
  const res = await invite(album.owner, { albumId: album.id, email: 'ada@exa_mple.test', role: 'viewer', redirectOrigin: SITE });
  assert.deepEqual([res.status, res.body.code, (res.body.details as { field?: string }).field], [400, 'validation/invalid', 'email']);
  assert.deepEqual(await emailInvites(album.id), []);
});

test('past the hourly limit of an album the owner hears so and nothing more is sent; links without an address do not count', async () => {
  const album = await createAlbum(sql);
  const limited = { hourlyLimit: 2 };
  await asUser(sql, album.owner, (tx) => tx`select * from public.create_invite(${album.id}, 'viewer')`);
  for (let i = 0; i < 2; i++) {
    const res = await invite(album.owner, { albumId: album.id, email: fresh(), role: 'viewer', redirectOrigin: SITE }, limited);
    assert.equal(res.status, 200, res.text);
  }
  const mark = auth.requests.length;
  const res = await invite(album.owner, { albumId: album.id, email: fresh(), role: 'viewer', redirectOrigin: SITE }, limited);
  assert.deepEqual([res.status, res.body.code, res.body.details], [429, 'validation/invalid', { field: 'email', rule: 'too-many', limit: 2 }]);
  assert.deepEqual(mailsSince(mark), []);
  assert.equal((await emailInvites(album.id)).length, 2);
});

test('SHOEBOX_SITE_URL must name http(s) origins', () => {
  const env = { ...testEnv(), SUPABASE_URL: auth.url, SUPABASE_SERVICE_ROLE_KEY: SERVICE_ROLE_KEY };
  assert.throws(() => inviteEmailDepsFromEnv(env), /SHOEBOX_SITE_URL/);
  assert.throws(() => inviteEmailDepsFromEnv({ ...env, SHOEBOX_SITE_URL: 'ftp://x.example' }), /SHOEBOX_SITE_URL/);
  assert.deepEqual(inviteEmailDepsFromEnv({ ...env, SHOEBOX_SITE_URL: 'https://a.example/app/, http://localhost:5173' }).siteOrigins,
    ['https://a.example', 'http://localhost:5173']);
  assert.throws(() => inviteEmailDepsFromEnv({ ...env, SHOEBOX_SITE_URL: SITE, SUPABASE_SERVICE_ROLE_KEY: '' }), /SUPABASE_SERVICE_ROLE_KEY/);
  return Promise.resolve();
});
