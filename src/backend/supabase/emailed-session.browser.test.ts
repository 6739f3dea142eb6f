import { afterEach, expect, test } from 'vitest';
import { PROFILE_ROW, stubBackend, USER } from '../../testing/supabase-test-session';
import { accessToken, tokenResponse, WireStub } from '../../testing/supabase-wire-stub';

const start = window.location.href;
afterEach(() => window.history.replaceState(null, '', start));

test('someone who follows a mailed invitation is signed in as that account, and the tokens leave the address', async () => {
  const token = tokenResponse(USER);
  const stub = new WireStub();
  // setSession asks Auth who the access token belongs to before keeping it.
  stub.on('GET', '/auth/v1/user', token.user as object);
  stub.on('GET', '/rest/v1/profiles', [PROFILE_ROW]);
  window.history.replaceState(null, '', `/invite/abc?x=1#access_token=${String(token.access_token)}&expires_in=3600&refresh_token=rt-9&token_type=bearer&type=invite`);
  const backend = stubBackend(stub);
  expect(window.location.hash).toBe('');
  expect(window.location.pathname + window.location.search).toBe('/invite/abc?x=1');
  const session = await backend.auth.getSession();
  expect(session?.userId).toBe(USER.id);
  expect(session?.profile.displayName).toBe('Ada');
  expect(stub.requests.some((r) => r.path === '/auth/v1/user' && r.headers.get('authorization') === `Bearer ${String(token.access_token)}`)).toBe(true);
});

test('a link whose session Auth refuses leaves the visitor signed out, with the address cleaned', async () => {
  const stub = new WireStub();
  stub.on('GET', '/auth/v1/user', () => new Response(JSON.stringify({ code: 403, error_code: 'bad_jwt', msg: 'invalid JWT' }), { status: 403, headers: { 'Content-Type': 'application/json' } }));
  const forged = accessToken(USER.id, Math.floor(Date.now() / 1000) + 3600);
  window.history.replaceState(null, '', `/invite/abc#access_token=${forged}&refresh_token=r&type=invite`);
  const backend = stubBackend(stub);
  expect(window.location.hash).toBe('');
  expect(await backend.auth.getSession()).toBeNull();
  expect(stub.requests.filter((r) => r.path === '/auth/v1/user')).toHaveLength(1);
});
