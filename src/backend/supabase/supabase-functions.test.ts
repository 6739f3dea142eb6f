import { describe, expect, it } from 'vitest';
import { expectAbortError, expectAppError } from '../../testing/contract/contract-fixtures';
import { signedIn } from '../../testing/supabase-test-session';
import { ANON_KEY, json } from '../../testing/supabase-wire-stub';

describe('Supabase functions', () => {
  it('invokes an Edge Function with a JSON body and the user’s token, and returns its JSON', async () => {
    const { backend, stub, token } = await signedIn();
    stub.on('POST', '/functions/v1/purge', { purged: 4 });
    expect(await backend.functions.invoke<{ purged: number }>('purge', { olderThanDays: 30 })).toEqual({ purged: 4 });
    const req = stub.last('/functions/v1/purge');
    expect(req.body).toEqual({ olderThanDays: 30 });
    expect(req.headers.get('content-type')).toBe('application/json');
    expect(req.headers.get('authorization')).toBe(`Bearer ${token}`);
    expect(req.headers.get('apikey')).toBe(ANON_KEY);
  });

  it('turns the function’s { code, message } into that AppError', async () => {
    const { backend, stub } = await signedIn();
    stub.on('POST', '/functions/v1/share-open', json({ code: 'share/wrong-password', message: 'That password is not right.' }, 401));
    const e = await expectAppError(backend.functions.invoke('share-open', { token: 't', password: 'x' }), 'share/wrong-password');
    expect(e.message).toContain('That password is not right.');

    stub.on('POST', '/functions/v1/share-open', json({ code: 'share/rate-limited', message: 'Too many tries.' }, 429, { 'Retry-After': '60' }));
    const limited = await expectAppError(backend.functions.invoke('share-open', {}), 'share/rate-limited');
    expect(limited.retryable).toBe(true);
    expect(limited.retryAfterMs).toBe(60_000);
  });

  it('keeps why a link stopped and, without a readable Retry-After, the wait the body gives', async () => {
    const { backend, stub } = await signedIn();
    stub.on('POST', '/functions/v1/share-open', json({ code: 'share/expired', message: 'Used up.', reason: 'view-limit' }, 410));
    const used = await expectAppError(backend.functions.invoke('share-open', {}), 'share/expired');
    expect(used.details?.reason).toBe('view-limit');
    stub.on('POST', '/functions/v1/share-open', json({ code: 'share/rate-limited', message: 'Too many tries.', retryAfterSeconds: 840 }, 429));
    expect((await expectAppError(backend.functions.invoke('share-open', {}), 'share/rate-limited')).retryAfterMs).toBe(840_000);
  });

  it('maps a response without a product code by its status, and a network failure to backend/unreachable', async () => {
    const { backend, stub } = await signedIn();
    stub.on('POST', '/functions/v1/purge', new Response('Internal Server Error', { status: 500 }));
    expect((await expectAppError(backend.functions.invoke('purge', {}), 'backend/unreachable')).retryable).toBe(true);
    stub.on('POST', '/functions/v1/purge', json({ msg: 'Invalid JWT' }, 401));
    await expectAppError(backend.functions.invoke('purge', {}), 'auth/session-expired');
    stub.on('POST', '/functions/v1/purge', json({ error: 'not a member' }, 403));
    await expectAppError(backend.functions.invoke('purge', {}), 'album/forbidden');
    stub.on('POST', '/functions/v1/purge', () => {
      throw new TypeError('fetch failed');
    });
    expect((await expectAppError(backend.functions.invoke('purge', {}), 'backend/unreachable')).retryable).toBe(true);
  });

  it('lets a cancellation through as an AbortError', async () => {
    const { backend, stub } = await signedIn();
    await expectAbortError(backend.functions.invoke('purge', {}, { signal: AbortSignal.abort() }));
    const controller = new AbortController();
    stub.on('POST', '/functions/v1/purge', () => {
      controller.abort();
      throw new DOMException('This operation was aborted', 'AbortError');
    });
    await expectAbortError(backend.functions.invoke('purge', {}, { signal: controller.signal }));
  });
});
