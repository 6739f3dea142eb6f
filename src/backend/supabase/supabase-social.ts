/**
 * Comments and favourites over PostgREST. Reads go through SQL functions that check membership and name the
 * authors (supabase/migrations/20261124100000_social_reads.sql, item_counts of 20261123200200); writes go to
 * the `comments` and `favorites` tables, whose RLS lets every member write as themselves, the author edit,
 * and the author, owner and editors delete. A refusal is then told apart here: an album the caller cannot
 * see is `album/not-found`, one they can see but may not change this way is `album/forbidden`.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import * as z from 'zod/mini';
import { AppError, throwIfAborted } from '../../lib/app-error';
import { commentBody, parseField } from '../../lib/validation';
import type { CallOptions, SocialPort } from '../ports';
import type { Comment, Favoriter, ItemSocial } from '../../domain/entities';
import type { PostgrestCalls, Sendable } from './supabase-calls';
import { isoTime, rows } from './supabase-rows';

const MAX_SOCIAL_IDS = 1000;

const COMMENT = z.object({
  id: z.string(),
  item_id: z.string(),
  album_id: z.string(),
  author_id: z.nullable(z.string()),
  author_name: z.optional(z.string()),
  body: z.string(),
  created_at: z.string(),
  edited_at: z.nullable(z.string()),
});
const FAVORITER = z.object({ user_id: z.string(), display_name: z.string(), created_at: z.string() });
const SOCIAL = z.object({
  item_id: z.string(),
  comment_count: z.custom<number | string>((v) => Number.isSafeInteger(v) || (typeof v === 'string' && /^\d+$/.test(v))),
  favorite_count: z.custom<number | string>((v) => Number.isSafeInteger(v) || (typeof v === 'string' && /^\d+$/.test(v))),
  my_favorite: z.boolean(),
});

function parse<S extends z.ZodMiniType>(schema: S, row: unknown, what: string): z.output<S> {
  const result = schema.safeParse(row);
  if (result.success) return result.data;
  const columns = [...new Set(result.error.issues.map((i) => i.path.join('.')))].join(', ');
  throw new AppError('backend/unreachable', `The server sent ${what} the app cannot read (${columns}).`, { cause: result.error });
}

function toComment(row: unknown, authorName?: string): Comment {
  const r = parse(COMMENT, row, 'a comment');
  return {
    id: r.id,
    itemId: r.item_id,
    albumId: r.album_id,
    authorId: r.author_id,
    authorName: r.author_name ?? authorName ?? '',
    body: r.body,
    createdAt: isoTime(r.created_at) ?? r.created_at,
    editedAt: isoTime(r.edited_at),
  };
}

/** The Postgres error code behind an AppError made from a PostgREST failure. */
function pgCode(e: unknown): string | undefined {
  const cause = e instanceof AppError ? (e.cause as { code?: unknown } | undefined) : undefined;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

const COMMENT_COLUMNS = 'id,item_id,album_id,author_id,body,created_at,edited_at';

export class SupabaseSocial implements SocialPort {
  constructor(private readonly calls: PostgrestCalls) {}

  private get client(): SupabaseClient {
    return this.calls.client;
  }

  private async signedInId(): Promise<string> {
    const { data } = await this.client.auth.getSession();
    const id = data.session?.user.id;
    if (!id) throw new AppError('auth/session-expired', 'No session.');
    return id;
  }

  /** After a write that changed nothing or was refused: not-found for a stranger, else `code`. */
  private async refusal(albumId: string, signal: AbortSignal | undefined, code: 'album/forbidden' | 'item/not-found'): Promise<never> {
    await this.calls.requireAlbum(albumId, signal);
    throw new AppError(code, code === 'album/forbidden' ? 'Your role in this album does not allow this.' : 'This item is not in the album.');
  }

  private async authorName(userId: string | null, signal: AbortSignal | undefined): Promise<string> {
    if (!userId) return '';
    const query = this.client.from('profiles').select('display_name').eq('id', userId);
    const [row] = rows(await this.calls.send(query as unknown as Sendable, signal));
    return typeof row?.display_name === 'string' ? row.display_name : '';
  }

  async listComments(albumId: string, itemId: string, opts: CallOptions = {}): Promise<Comment[]> {
    const data = await this.calls.send(this.calls.rpc('item_comments', { p_album_id: albumId, p_item_id: itemId }), opts.signal, 'album/not-found');
    return rows(data).map((r) => toComment(r));
  }

  async addComment(albumId: string, itemId: string, body: string, opts: CallOptions = {}): Promise<Comment> {
    throwIfAborted(opts.signal);
    const text = parseField(commentBody, body, 'comment');
    const query = this.client.from('comments').insert({ album_id: albumId, item_id: itemId, body: text }).select(COMMENT_COLUMNS);
    let row: unknown;
    try {
      [row] = rows(await this.calls.send(query as unknown as Sendable, opts.signal, 'album/not-found'));
    } catch (e) {
      // Every member may comment: a member refused by the policy is refused for the item (not ready, in the
      // trash, or none), as an unknown id is; a non-member learns only that the album is not theirs.
      if (['42501', '23503', '22P02'].includes(pgCode(e) ?? '')) await this.refusal(albumId, opts.signal, 'item/not-found');
      throw e;
    }
    if (!row) throw new AppError('backend/unreachable', 'The server sent no comment.');
    const comment = toComment(row);
    return { ...comment, authorName: await this.authorName(comment.authorId, opts.signal) };
  }

  async editComment(albumId: string, commentId: string, body: string, opts: CallOptions = {}): Promise<Comment> {
    throwIfAborted(opts.signal);
    const text = parseField(commentBody, body, 'comment');
    const query = this.client.from('comments').update({ body: text }).eq('album_id', albumId).eq('id', commentId).select(COMMENT_COLUMNS);
    const [row] = rows(await this.calls.send(query as unknown as Sendable, opts.signal, 'album/not-found'));
    // RLS hides what the caller may not edit: someone else's comment, or one of an album they cannot see.
    if (!row) return this.refusal(albumId, opts.signal, 'album/forbidden');
    const comment = toComment(row);
    return { ...comment, authorName: await this.authorName(comment.authorId, opts.signal) };
  }

  async deleteComment(albumId: string, commentId: string, opts: CallOptions = {}): Promise<void> {
    throwIfAborted(opts.signal);
    const query = this.client.from('comments').delete().eq('album_id', albumId).eq('id', commentId).select('id');
    const deleted = rows(await this.calls.send(query as unknown as Sendable, opts.signal, 'album/not-found'));
    if (deleted.length > 0) return;
    await this.calls.requireAlbum(albumId, opts.signal);
    // Still there: someone else's comment the caller may not delete. Gone: deleting again is no error.
    const still = this.client.from('comments').select('id').eq('album_id', albumId).eq('id', commentId);
    if (rows(await this.calls.send(still as unknown as Sendable, opts.signal, 'album/not-found')).length > 0) {
      throw new AppError('album/forbidden', 'Only its author, the owner and editors delete a comment.');
    }
  }

  async setFavorite(albumId: string, itemId: string, on: boolean, opts: CallOptions = {}): Promise<void> {
    throwIfAborted(opts.signal);
    if (typeof on !== 'boolean') throw new AppError('validation/invalid', 'A heart is given or taken back.', { details: { field: 'items' } });
    const userId = await this.signedInId();
    if (on) {
      const query = this.client.from('favorites').insert({ album_id: albumId, item_id: itemId });
      try {
        await this.calls.send(query as unknown as Sendable, opts.signal, 'album/not-found');
      } catch (e) {
        if (pgCode(e) === '23505') return; // already given: idempotent
        if (['42501', '23503', '22P02'].includes(pgCode(e) ?? '')) await this.refusal(albumId, opts.signal, 'item/not-found');
        throw e;
      }
      return;
    }
    const query = this.client.from('favorites').delete().eq('album_id', albumId).eq('item_id', itemId).eq('user_id', userId).select('item_id');
    const removed = rows(await this.calls.send(query as unknown as Sendable, opts.signal, 'album/not-found'));
    if (removed.length === 0) await this.calls.requireAlbum(albumId, opts.signal);
  }

  async listFavoriters(albumId: string, itemId: string, opts: CallOptions = {}): Promise<Favoriter[]> {
    const data = await this.calls.send(this.calls.rpc('item_favoriters', { p_album_id: albumId, p_item_id: itemId }), opts.signal, 'album/not-found');
    return rows(data).map((row) => {
      const r = parse(FAVORITER, row, 'a heart');
      return { userId: r.user_id, displayName: r.display_name, createdAt: isoTime(r.created_at) ?? r.created_at };
    });
  }

  async itemSocial(albumId: string, itemIds: string[], opts: CallOptions = {}): Promise<ItemSocial[]> {
    throwIfAborted(opts.signal);
    if (!Array.isArray(itemIds) || itemIds.length > MAX_SOCIAL_IDS) {
      throw new AppError('validation/invalid', `Ask about 0 to ${MAX_SOCIAL_IDS} items at once.`, { details: { field: 'items', rule: 'too-many', limit: MAX_SOCIAL_IDS } });
    }
    if (itemIds.length === 0) {
      await this.calls.requireAlbum(albumId, opts.signal);
      return [];
    }
    const data = await this.calls.send(this.calls.rpc('item_counts', { p_album_id: albumId, p_item_ids: itemIds }), opts.signal, 'album/not-found');
    return rows(data).map((row) => {
      const r = parse(SOCIAL, row, 'item counts');
      return { itemId: r.item_id, commentCount: Number(r.comment_count), favoriteCount: Number(r.favorite_count), myFavorite: r.my_favorite };
    });
  }
}
