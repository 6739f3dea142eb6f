/** Waiting between tries: the policy, its jittered exponential backoff, and a wait that an abort ends. */
import { abortError } from './app-error';

export interface RetryPolicy {
  retries: number;
  baseMs: number;
  maxMs: number;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(abortError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** "Full jitter": a random wait up to the exponential cap, never shorter than the server's Retry-After. */
export function backoffMs(attempt: number, policy: RetryPolicy, random: () => number, retryAfterMs?: number): number {
  const cap = Math.min(policy.maxMs, policy.baseMs * 2 ** attempt);
  return Math.max(retryAfterMs ?? 0, Math.round(random() * cap));
}

