import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/app-error';
import { guard, toLocalError } from './local-errors';

async function failure(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a failure');
}

describe('local storage errors', () => {
  it('turn a full disk into upload/quota-exceeded and blocked storage into storage/denied', () => {
    expect(toLocalError(new DOMException('full', 'QuotaExceededError')).code).toBe('upload/quota-exceeded');
    expect(toLocalError(new DOMException('no', 'SecurityError')).code).toBe('storage/denied');
    const other = toLocalError(new DOMException('disk on fire', 'UnknownError'));
    expect(other.code).toBe('backend/unreachable');
    expect(other.message).toMatch(/disk on fire/);
    const own = new AppError('album/not-found', 'gone');
    expect(toLocalError(own)).toBe(own);
  });

  it('let only the caller’s own cancellation through as an AbortError', async () => {
    const controller = new AbortController();
    const cancelled = await failure(
      guard(controller.signal, async () => {
        controller.abort();
        throw new DOMException('aborted', 'AbortError');
      }),
    );
    expect((cancelled as DOMException).name).toBe('AbortError');

    // A transaction aborted under the caller, who did not cancel: a storage failure, not a cancellation.
    const aborted = await failure(guard(undefined, async () => Promise.reject(new DOMException('tx aborted', 'AbortError'))));
    expect(aborted).toBeInstanceOf(AppError);
    expect((aborted as AppError).code).toBe('backend/unreachable');

    const early = await failure(guard(AbortSignal.abort(), async () => 'never'));
    expect((early as DOMException).name).toBe('AbortError');
  });
});
