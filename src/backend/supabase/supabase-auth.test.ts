import { describe, expect, it } from 'vitest';
import type { Session } from '../ports';
import { expectAppError, waitFor } from '../../testing/contract/contract-fixtures';
import { initialDisplayName } from './supabase-auth';
import { memoryStorage, PROFILE_ROW, signedIn, stubBackend, stubBackendKeeping, USER } from '../../testing/supabase-test-session';
import { ANON_KEY, json, tokenResponse, WireStub } from '../../testing/supabase-wire-stub';

describe('Supabase auth: requests on the wire', () => {
  it('signs in with a password at /auth/v1/token and reads the profile with the new token', async () => {
    const stub = new WireStub();
    const body = tokenResponse(USER);
    stub.on('POST', '/auth/v1/token', body);
    stub.on('GET', '/rest/v1/profiles', [PROFILE_ROW]);
    const backend = stubBackend(stub);
    const session = await backend.auth.signInWithPassword(' ada@example.com ', 'correct horse');

    const token = stub.last('/auth/v1/token');
    expect(token.url.searchParams.get('grant_type')).toBe('password');
    expect(token.body).toMatchObject({ email: 'ada@example.com', password: 'correct horse' });
    expect(token.headers.get('apikey')).toBe(ANON_KEY);
    const profile = stub.last('/rest/v1/profiles');
    expect(profile.url.searchParams.get('id')).toBe(`eq.${USER.id}`);
    expect(profile.headers.get('authorization')).toBe(`Bearer ${body.access_token as string}`);
    expect(session).toEqual({
      userId: USER.id,
      email: USER.email,
      profile: { id: USER.id, displayName: 'Ada', avatarKey: null, createdAt: '2024-01-01T00:00:00.123Z' },
      expiresAt: (body.expires_at as number) * 1000,
    });
    expect(await backend.auth.getSession()).toEqual(session);
  });

  it('makes the profile on first sign-in, named from the sign-up metadata or the email', async () => {
    const stub = new WireStub();
    stub.on('POST', '/auth/v1/token', tokenResponse({ ...USER, user_metadata: { display_name: '  Ada L. ' } }));
    stub.on('GET', '/rest/v1/profiles', []);
    stub.on('POST', '/rest/v1/profiles', (req) => json({ ...PROFILE_ROW, display_name: (req.body as { display_name: string }).display_name }, 201));
    const session = await stubBackend(stub).auth.signInWithPassword(USER.email, 'pw');
    expect(stub.last('/rest/v1/profiles', 'POST').body).toEqual({ id: USER.id, display_name: 'Ada L.' });
    expect(session.profile.displayName).toBe('Ada L.');

    expect(initialDisplayName({ email: 'grace.hopper@example.com', user_metadata: {} })).toBe('grace.hopper');
    expect(initialDisplayName({ email: 'x@example.com', user_metadata: { full_name: 'Evil\u202Eexe' } })).toBe('Evilexe');
    expect(initialDisplayName({ email: 'x@example.com', user_metadata: { name: 'Al\u200bice\u2066' } })).toBe('Alice');
    expect(initialDisplayName({ email: 'x@example.com', user_metadata: { name: 'n'.repeat(100) } })).toHaveLength(60);
  });

  it('signs up with the display name in the user metadata; no session until the email is confirmed', async () => {
    const stub = new WireStub();
    stub.on('POST', '/auth/v1/signup', { id: USER.id, aud: 'authenticated', role: '', email: USER.email, user_metadata: { display_name: 'Ada' }, app_metadata: {}, created_at: '2024-01-01T00:00:00Z' });
    const backend = stubBackend(stub);
    expect(await backend.auth.signUp('ada@example.com', 'a long password', ' Ada ')).toBeNull();
    expect(stub.last('/auth/v1/signup').body).toMatchObject({ email: 'ada@example.com', password: 'a long password', data: { display_name: 'Ada' } });
    stub.clear();
    const e = await expectAppError(backend.auth.signUp('ada@example.com', 'pw', ''), 'validation/invalid');
    expect(e.details).toEqual({ field: 'displayName', rule: 'empty' });
    expect(stub.requests).toHaveLength(0);
  });

  it('sends a magic link that comes back to the given address (PKCE)', async () => {
    const stub = new WireStub();
    stub.on('POST', '/auth/v1/otp', {});
    await stubBackend(stub).auth.sendMagicLink('ada@example.com', 'https://shoebox.example/auth/callback');
    const req = stub.last('/auth/v1/otp');
    expect(req.url.searchParams.get('redirect_to')).toBe('https://shoebox.example/auth/callback');
    expect(req.body).toMatchObject({ email: 'ada@example.com', create_user: true, code_challenge_method: 's256' });
    expect(typeof (req.body as { code_challenge?: unknown }).code_challenge).toBe('string');
  });

  it('offers OAuth only with providers, and only the configured ones', async () => {
    const stub = new WireStub();
    expect(stubBackend(stub).auth.capabilities()).toEqual({ requiresSignIn: true, methods: ['password', 'magic-link'], oauthProviders: [] });
    const backend = stubBackend(stub, ['github']);
    expect(backend.auth.capabilities()).toEqual({ requiresSignIn: true, methods: ['password', 'magic-link', 'oauth'], oauthProviders: ['github'] });
    await expectAppError(backend.auth.signInWithOAuth('google', 'https://shoebox.example/auth/callback'), 'validation/invalid');
  });

  it('signs out other sessions with scope=others and keeps this one', async () => {
    const { backend, stub, token } = await signedIn();
    stub.on('POST', '/auth/v1/logout', new Response(null, { status: 204 }));
    await backend.auth.signOut('others');
    const req = stub.last('/auth/v1/logout');
    expect(req.url.searchParams.get('scope')).toBe('others');
    expect(req.headers.get('authorization')).toBe(`Bearer ${token}`);
    expect((await backend.auth.getSession())?.userId).toBe(USER.id);

    await backend.auth.signOut('global');
    expect(stub.last('/auth/v1/logout').url.searchParams.get('scope')).toBe('global');
    expect(await backend.auth.getSession()).toBeNull();
  });

  it('renames the profile with a PATCH and tells session watchers', async () => {
    const { backend, stub } = await signedIn();
    const seen: (Session | null)[] = [];
    const stop = backend.auth.onSessionChange((s) => seen.push(s));
    await waitFor(() => seen[0], 1000, 'the current session');
    stub.on('PATCH', '/rest/v1/profiles', { ...PROFILE_ROW, display_name: 'Ada Lovelace' });
    const profile = await backend.auth.updateProfile({ displayName: '  Ada Lovelace ' });
    const req = stub.last('/rest/v1/profiles', 'PATCH');
    expect(req.url.searchParams.get('id')).toBe(`eq.${USER.id}`);
    expect(req.body).toEqual({ display_name: 'Ada Lovelace' });
    expect(profile.displayName).toBe('Ada Lovelace');
    await waitFor(() => seen.find((s) => s?.profile.displayName === 'Ada Lovelace'), 1000, 'the renamed profile');
    stop();

    stub.clear();
    const e = await expectAppError(backend.auth.updateProfile({ displayName: 'tab\tname' }), 'validation/invalid');
    expect(e.details).toEqual({ field: 'displayName', rule: 'control' });
    expect(stub.to('/rest/v1/profiles', 'PATCH')).toHaveLength(0);
  });
});

describe('Supabase auth: the profile kept on the device', () => {
  /** One browser: a first start signs Ada in; the next starts find her session in the same storage. */
  async function signedInBefore() {
    const storage = memoryStorage();
    const first = new WireStub();
    first.on('POST', '/auth/v1/token', tokenResponse(USER));
    first.on('GET', '/rest/v1/profiles', [PROFILE_ROW]);
    await stubBackendKeeping(first, storage).auth.signInWithPassword(USER.email, 'correct horse');
    return storage;
  }

  it('a start does not wait for the profile it kept; a name changed elsewhere follows as a session change', async () => {
    const storage = await signedInBefore();
    const stub = new WireStub();
    let answer: (row: object) => void = () => undefined;
    stub.on('GET', '/rest/v1/profiles', () => new Promise<Response>((resolve) => (answer = (row) => resolve(json([row])))));
    const backend = stubBackendKeeping(stub, storage);
    const seen: (Session | null)[] = [];
    const stop = backend.auth.onSessionChange((s) => seen.push(s));

    // The row is still on its way, and the session is already whole, with the name kept.
    expect((await backend.auth.getSession())?.profile.displayName).toBe('Ada');
    await waitFor(() => seen[0], 1000, 'the first session');
    expect(seen.map((s) => s?.profile.displayName)).not.toContain('Ada Lovelace');
    await waitFor(() => stub.to('/rest/v1/profiles')[0], 1000, 'the row asked for');

    answer({ ...PROFILE_ROW, display_name: 'Ada Lovelace' });
    await waitFor(() => seen.find((s) => s?.profile.displayName === 'Ada Lovelace'), 1000, 'the name read behind it');
    expect((await backend.auth.getSession())?.profile.displayName).toBe('Ada Lovelace');
    expect(stub.to('/rest/v1/profiles')).toHaveLength(1);
    stop();

    // The next start begins with the new name.
    const again = new WireStub();
    again.on('GET', '/rest/v1/profiles', () => new Promise<Response>(() => undefined));
    expect((await stubBackendKeeping(again, storage).auth.getSession())?.profile.displayName).toBe('Ada Lovelace');
  });

  it('an unchanged profile read behind the kept one tells no one again', async () => {
    const storage = await signedInBefore();
    const stub = new WireStub();
    let answer: () => void = () => undefined;
    stub.on('GET', '/rest/v1/profiles', () => new Promise<Response>((resolve) => (answer = () => resolve(json([PROFILE_ROW])))));
    const backend = stubBackendKeeping(stub, storage);
    const seen: (Session | null)[] = [];
    const stop = backend.auth.onSessionChange((s) => seen.push(s));
    await waitFor(() => stub.to('/rest/v1/profiles')[0], 1000, 'the row asked for');
    await waitFor(() => seen[0], 1000, 'the first session');
    await new Promise((r) => setTimeout(r, 50));
    const before = seen.length;
    answer();
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toHaveLength(before);
    expect(seen.every((s) => s?.profile.displayName === 'Ada')).toBe(true);
    stop();
  });

  it('sign-out drops it, and a profile kept for someone else is never shown', async () => {
    const storage = await signedInBefore();
    const stub = new WireStub();
    stub.on('GET', '/rest/v1/profiles', [PROFILE_ROW]);
    stub.on('POST', '/auth/v1/logout', new Response(null, { status: 204 }));
    const backend = stubBackendKeeping(stub, storage);
    await backend.auth.getSession();
    const kept = () => [...storage.items.values()].filter((v) => v.includes('"displayName"'));
    expect(kept()).toHaveLength(1);
    await backend.auth.signOut();
    expect(kept()).toEqual([]);
    expect(await backend.auth.getSession()).toBeNull();

    // Someone else's profile in the storage: Ada's start reads hers and waits for it.
    storage.setItem('shoebox.profile', JSON.stringify({ id: 'someone-else', displayName: 'Bea', avatarKey: null, createdAt: '2024-01-01T00:00:00Z' }));
    const next = new WireStub();
    next.on('POST', '/auth/v1/token', tokenResponse(USER));
    next.on('GET', '/rest/v1/profiles', [{ ...PROFILE_ROW, display_name: 'Ada L.' }]);
    const session = await stubBackendKeeping(next, storage).auth.signInWithPassword(USER.email, 'correct horse');
    expect(session.profile.displayName).toBe('Ada L.');
    expect(kept()).toEqual([expect.stringContaining('"Ada L."')]);
  });

  it('storage that refuses to keep anything leaves the profile read each start, and fails nothing', async () => {
    const storage = memoryStorage();
    const refusing = { ...storage, setItem: (key: string, value: string) => (key === 'shoebox.profile' ? (() => { throw new DOMException('full', 'QuotaExceededError'); })() : storage.setItem(key, value)) };
    const stub = new WireStub();
    stub.on('POST', '/auth/v1/token', tokenResponse(USER));
    stub.on('GET', '/rest/v1/profiles', [PROFILE_ROW]);
    expect((await stubBackendKeeping(stub, refusing).auth.signInWithPassword(USER.email, 'pw')).profile.displayName).toBe('Ada');
    const again = new WireStub();
    again.on('GET', '/rest/v1/profiles', [{ ...PROFILE_ROW, display_name: 'Ada Lovelace' }]);
    expect((await stubBackendKeeping(again, refusing).auth.getSession())?.profile.displayName).toBe('Ada Lovelace');
  });
});

describe('Supabase auth: GoTrue errors become AppErrors', () => {
  async function signInAnswering(response: Response) {
    const stub = new WireStub();
    stub.on('POST', '/auth/v1/token', () => response);
    return stubBackend(stub).auth.signInWithPassword(USER.email, 'pw');
  }

  it('a wrong password (legacy body with error_code) is auth/invalid-credentials', async () => {
    const e = await expectAppError(
      signInAnswering(json({ code: 400, error_code: 'invalid_credentials', msg: 'Invalid login credentials' }, 400)),
      'auth/invalid-credentials',
    );
    expect(e.retryable).toBe(false);
  });

  it('a wrong password (2024-01-01 API body with a string code) is auth/invalid-credentials', async () => {
    await expectAppError(
      signInAnswering(json({ code: 'invalid_credentials', message: 'Invalid login credentials' }, 400, { 'X-Supabase-Api-Version': '2024-01-01' })),
      'auth/invalid-credentials',
    );
  });

  it('an unconfirmed email is auth/email-not-confirmed', async () => {
    await expectAppError(signInAnswering(json({ code: 400, error_code: 'email_not_confirmed', msg: 'Email not confirmed' }, 400)), 'auth/email-not-confirmed');
  });

  it('rate limiting is retryable after Retry-After', async () => {
    const e = await expectAppError(
      signInAnswering(json({ code: 429, error_code: 'over_request_rate_limit', msg: 'Request rate limit reached' }, 429, { 'Retry-After': '30' })),
      'backend/unreachable',
    );
    expect(e.retryable).toBe(true);
    expect(e.retryAfterMs).toBeGreaterThan(29_000);
  });

  it('a server failure or no network is retryable backend/unreachable', async () => {
    let e = await expectAppError(signInAnswering(json({ message: 'bad gateway' }, 502)), 'backend/unreachable');
    expect(e.retryable).toBe(true);
    const stub = new WireStub();
    stub.on('POST', '/auth/v1/token', () => {
      throw new TypeError('fetch failed');
    });
    e = await expectAppError(stubBackend(stub).auth.signInWithPassword(USER.email, 'pw'), 'backend/unreachable');
    expect(e.retryable).toBe(true);
  });

  it('a weak password at sign-up names the password field', async () => {
    const stub = new WireStub();
    stub.on('POST', '/auth/v1/signup', json({ code: 422, error_code: 'weak_password', msg: 'Password should be at least 6 characters.', weak_password: { reasons: ['length'] } }, 422));
    const e = await expectAppError(stubBackend(stub).auth.signUp(USER.email, 'pw', 'Ada'), 'validation/invalid');
    expect(e.details).toEqual({ field: 'password', rule: 'weak' });
  });

  it('an expired token on a profile write is auth/session-expired', async () => {
    const { backend, stub } = await signedIn();
    stub.on('PATCH', '/rest/v1/profiles', json({ code: 'PGRST303', message: 'JWT expired', details: null, hint: null }, 401));
    const e = await expectAppError(backend.auth.updateProfile({ displayName: 'Ada' }), 'auth/session-expired');
    expect(e.retryable).toBe(false);
  });
});
