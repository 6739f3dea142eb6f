/**
 * The fetch every Supabase client call goes through. It remembers the `Retry-After` of the latest refusal
 * (429, 503), which supabase-js does not pass on, so a rate-limited call can say when to try again.
 */
import { parseRetryAfter } from './supabase-errors';

export class SupabaseFetch {
  private retryAfter: { ms: number; at: number } | null = null;
  readonly fetch: typeof fetch;

  constructor(base?: typeof fetch) {
    // Resolved per call, so a fetch installed after start-up (tests, service worker shims) is used.
    const send: typeof fetch = base ?? ((input, init) => globalThis.fetch(input, init));
    this.fetch = async (input, init) => {
      const response = await send(input, init);
      if (response.status === 429 || response.status === 503) {
        const ms = parseRetryAfter(response.headers.get('Retry-After'));
        this.retryAfter = ms === undefined ? null : { ms, at: Date.now() };
      }
      return response;
    };
  }

  /** What is left of the latest `Retry-After`, if one was sent. */
  retryAfterMs(now = Date.now()): number | undefined {
    if (!this.retryAfter) return undefined;
    return Math.max(0, this.retryAfter.ms - (now - this.retryAfter.at));
  }
}
