/** FunctionsPort over Supabase Edge Functions: JSON in, JSON out, errors mapped from the function's `{code, message}`. */
import type { SupabaseClient } from '@supabase/supabase-js';
import { abortErrorOf, throwIfAborted } from '../../lib/app-error';
import type { CallOptions, FunctionsPort } from '../ports';
import { functionsError } from './supabase-errors';

export class SupabaseFunctions implements FunctionsPort {
  constructor(private readonly client: SupabaseClient) {}

  async invoke<T = unknown>(name: string, body: unknown, opts: CallOptions = {}): Promise<T> {
    throwIfAborted(opts.signal);
    const { data, error } = await this.client.functions.invoke(name, {
      body: body as Record<string, unknown>,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    if (opts.signal?.aborted) throw abortErrorOf(opts.signal);
    if (error) throw await functionsError(error);
    return data as T;
  }
}
