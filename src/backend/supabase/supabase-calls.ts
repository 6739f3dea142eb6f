/**
 * How every PostgREST request of the Supabase data ports is sent: one place that refuses an aborted signal, lets
 * the caller's own cancellation out as an AbortError and turns every other failure into an AppError
 * ([Note: Supabase error convention]). Each domain's port (albums, items, members, …) is given one.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { abortErrorOf, throwIfAborted, type ErrorCode } from '../../lib/app-error';
import { postgrestError, type PostgrestFailure } from './supabase-errors';
import type { SupabaseFetch } from './supabase-fetch';
import { rows, type Row } from './supabase-rows';

export interface PgResult {
  data: unknown;
  error: PostgrestFailure | null;
  status: number;
}

/** What every postgrest-js builder offers that we use. */
export interface Sendable extends PromiseLike<PgResult> {
  abortSignal(signal: AbortSignal): Sendable;
  retry(enabled: boolean): Sendable;
}

export class PostgrestCalls {
  constructor(
    readonly client: SupabaseClient,
    private readonly http: SupabaseFetch,
  ) {}

  /**
   * Sends one request: refuses an already aborted signal, lets the caller's own cancellation out as an
   * AbortError, and turns every other failure into an AppError. No retries here: callers retry retryable
   * AppErrors with their own backoff, and two layers of retries would multiply the wait.
   */
  async send(query: Sendable, signal: AbortSignal | undefined, notFound?: ErrorCode): Promise<unknown> {
    throwIfAborted(signal);
    const prepared = signal ? query.abortSignal(signal).retry(false) : query.retry(false);
    const { data, error, status } = await prepared;
    if (signal?.aborted) throw abortErrorOf(signal);
    if (error) {
      const retryAfterMs = status === 429 || status === 503 ? this.http.retryAfterMs() : undefined;
      throw postgrestError(error, status, { ...(notFound ? { notFound } : {}), ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
    }
    return data;
  }

  rpc(fn: string, args: Record<string, unknown>): Sendable {
    return this.client.rpc(fn, args) as unknown as Sendable;
  }

  async one<T>(query: Sendable, signal: AbortSignal | undefined, notFound: ErrorCode, map: (row: Row) => T): Promise<T> {
    const [row] = rows(await this.send(query, signal, notFound));
    if (!row) throw postgrestError({ code: 'PGRST116', message: 'No rows returned' }, 406, { notFound });
    return map(row);
  }

  /** `album/not-found` unless the caller can see the album; asked only when a read came back empty. */
  async requireAlbum(albumId: string, signal: AbortSignal | undefined): Promise<void> {
    const query = this.client.from('album_summaries').select('id').eq('id', albumId).is('deleted_at', null);
    if (rows(await this.send(query as unknown as Sendable, signal, 'album/not-found')).length === 0) {
      throw postgrestError({ code: 'PGRST116', message: 'No rows returned' }, 406, { notFound: 'album/not-found' });
    }
  }
}
