import { describe, expect, it } from 'vitest';
import { AppError } from '../lib/app-error';
import { StageRetries } from './stage-retries';

const busy = () => new AppError('backend/unreachable', 'HTTP 503');
const never = () => new AbortController().signal;

describe('StageRetries', () => {
  it('tries a retryable failure again up to the policy, then gives up; a stage that goes through counts afresh', async () => {
    const retries = new StageRetries({ retries: 2, baseMs: 1, maxMs: 2 }, () => {});
    expect(await retries.wait('t', busy(), never())).toBe('again');
    expect(await retries.wait('t', busy(), never())).toBe('again');
    expect(await retries.wait('t', busy(), never())).toBe('give-up');
    // Given up, the next failure (after the person's Try again) starts a new count.
    expect(await retries.wait('t', busy(), never())).toBe('again');
    retries.succeeded('t');
    expect(await retries.wait('t', busy(), never())).toBe('again');
    expect(await retries.wait('t', busy(), never())).toBe('again');
    expect(await retries.wait('t', busy(), never())).toBe('give-up');
  });

  it('gives up at once on a refusal or an error that is not an AppError', async () => {
    const retries = new StageRetries({ retries: 3, baseMs: 1, maxMs: 2 }, () => {});
    expect(await retries.wait('t', new AppError('album/forbidden', 'HTTP 403'), never())).toBe('give-up');
    expect(await retries.wait('t', new AppError('upload/empty', 'empty', { retryable: false }), never())).toBe('give-up');
    expect(await retries.wait('t', new TypeError('bug'), never())).toBe('give-up');
  });

  it("says when it tries again, no sooner than the server's Retry-After, and stops when its wait is aborted", async () => {
    const seen: (number | null)[] = [];
    const retries: StageRetries = new StageRetries({ retries: 3, baseMs: 1, maxMs: 2 }, (id) => seen.push(retries.retryAt(id)));
    const stop = new AbortController();
    const before = Date.now();
    const waiting = retries.wait('t', new AppError('share/rate-limited', 'HTTP 429', { retryAfterMs: 60_000 }), stop.signal);
    expect(retries.retryAt('t')! - before).toBeGreaterThanOrEqual(60_000);
    stop.abort();
    expect(await waiting).toBe('stopped');
    expect(retries.retryAt('t')).toBeNull();
    expect(seen).toEqual([expect.any(Number), null]);
  });
});
