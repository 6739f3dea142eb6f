/**
 * Retries (PRODUCT.md §9, ARCHITECTURE.md convention 6): only errors marked retryable (network errors, 5xx,
 * 429) are tried again, after a jittered exponential backoff; while the device is offline a call waits for the
 * network instead of spending its retries. The S3 adapter retries each call; the upload queue retries a file's
 * network stages (TaskRunner).
 */
import { abortError, AppError } from './app-error';
import { backoffMs, sleep, type RetryPolicy } from './backoff';

export const DEFAULT_RETRY: RetryPolicy = { retries: 6, baseMs: 400, maxMs: 20_000 };

export interface RetryContext {
  signal?: AbortSignal | undefined;
  policy?: RetryPolicy | undefined;
  isOffline?: () => boolean;
  /** Resolves when the device is back online (or the signal aborts). */
  waitForOnline?: (signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  /** A failed attempt waits to be tried again at `at` (ms since the epoch); null once the wait is over. */
  onWait?: (at: number | null) => void;
}

export function browserIsOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

export function waitForBrowserOnline(signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (typeof window === 'undefined' || !browserIsOffline()) return resolve();
    if (signal?.aborted) return reject(abortError());
    const onOnline = () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    };
    const onAbort = () => {
      window.removeEventListener('online', onOnline);
      reject(abortError());
    };
    window.addEventListener('online', onOnline, { once: true });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export async function withRetry<T>(fn: (attempt: number) => Promise<T>, ctx: RetryContext = {}): Promise<T> {
  const policy = ctx.policy ?? DEFAULT_RETRY;
  const isOffline = ctx.isOffline ?? browserIsOffline;
  const waitForOnline = ctx.waitForOnline ?? waitForBrowserOnline;
  const random = ctx.random ?? Math.random;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (e) {
      if (ctx.signal?.aborted) throw abortError();
      if (!(e instanceof AppError) || !e.retryable) throw e;
      if (isOffline()) {
        // Waiting for the network is not a failed attempt.
        await waitForOnline(ctx.signal);
        attempt--;
        continue;
      }
      if (attempt >= policy.retries) throw e;
      const wait = backoffMs(attempt, policy, random, e.retryAfterMs);
      ctx.onWait?.(Date.now() + wait);
      try {
        await sleep(wait, ctx.signal);
      } finally {
        ctx.onWait?.(null);
      }
    }
  }
}
