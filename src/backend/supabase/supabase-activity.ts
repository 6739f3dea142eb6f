/** Activity over PostgREST: `activity_feed` as RLS shows it, unread counts and "seen" through SQL functions. */
import { AppError, throwIfAborted } from '../../lib/app-error';
import type { ActivityPort, CallOptions } from '../ports';
import type { Activity } from '../../domain/entities';
import type { PostgrestCalls, Sendable } from './supabase-calls';
import { MAX_PAGE_SIZE } from './supabase-items';
import { rows, toActivity, toUnreadCount } from './supabase-rows';

export class SupabaseActivity implements ActivityPort {
  constructor(private readonly calls: PostgrestCalls) {}

  async listActivity(limit: number, opts: CallOptions = {}): Promise<Activity[]> {
    throwIfAborted(opts.signal);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
      throw new AppError('validation/invalid', `Activity is read 1 to ${MAX_PAGE_SIZE} rows at a time.`, { details: { field: 'limit' } });
    }
    const query = this.calls.client
      .from('activity_feed')
      .select('*')
      .order('created_at', { ascending: false })
      .order('id', { ascending: false })
      .limit(limit);
    return rows(await this.calls.send(query as unknown as Sendable, opts.signal)).map(toActivity);
  }

  async unreadCounts(opts: CallOptions = {}): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const row of rows(await this.calls.send(this.calls.rpc('unread_counts', {}), opts.signal))) {
      const { albumId, unread } = toUnreadCount(row);
      if (unread > 0) counts[albumId] = unread;
    }
    return counts;
  }

  async markAlbumSeen(albumId: string, opts: CallOptions = {}): Promise<void> {
    await this.calls.send(this.calls.rpc('mark_album_seen', { p_album_id: albumId }), opts.signal, 'album/not-found');
  }
}
