/**
 * Search over PostgREST: one call of `search_items`, which cuts the words and reads the index in the database
 * (supabase/migrations/20261201100000_item_search.sql), paged by the same keyset cursor as the album lists.
 */
import { AppError, throwIfAborted } from '../../lib/app-error';
import { COLOR_LABELS } from '../../lib/item-edit';
import type { CallOptions, SearchPort } from '../ports';
import { SEARCH_PAGE_DEFAULT, SEARCH_PAGE_MAX, SEARCH_TEXT_MAX_CHARS, type Page, type SearchQuery } from '../../domain/queries';
import type { Item } from '../../domain/entities';
import type { PostgrestCalls } from './supabase-calls';
import { decodeCursor, encodeCursor } from './supabase-cursor';
import { rows, toItem } from './supabase-rows';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// What search_items takes as an instant (private.search_instant): a date, or a date and time with an offset.
const INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?))?$/;

// The dates a list can sort (0001-01-01 to 9999-12-31), as the database bounds them (private.is_sortable_time).
const MIN_TIME = -62_135_596_800_000;
const MAX_TIME = 253_402_300_799_999;

function invalid(field: string, message: string): AppError {
  return new AppError('validation/invalid', message, { details: { field } });
}

function checkInstant(value: unknown, field: 'from' | 'to'): string | undefined {
  if (value === undefined || value === null) return undefined;
  const ms = typeof value === 'string' && INSTANT.test(value) ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms) || ms < MIN_TIME || ms > MAX_TIME) throw invalid(field, 'This is not a date.');
  return value as string;
}

/** The arguments of search_items for a query, checked here first so that a mistake names its field at once. */
function searchArgs(query: SearchQuery): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  if (query.text !== undefined && query.text !== null) {
    if (typeof query.text !== 'string' || [...query.text].length > SEARCH_TEXT_MAX_CHARS) {
      throw invalid('text', `A search is at most ${SEARCH_TEXT_MAX_CHARS} characters.`);
    }
    if (query.text.trim() !== '') args.p_text = query.text;
  }
  if (query.albumId !== undefined && query.albumId !== null) {
    // Not an id: no such album, as for any id the caller cannot see.
    if (typeof query.albumId !== 'string' || !UUID.test(query.albumId)) throw new AppError('album/not-found', 'No such album.');
    args.p_album_id = query.albumId;
  }
  if (query.minRating !== undefined && query.minRating !== null) {
    if (!Number.isInteger(query.minRating) || query.minRating < 1 || query.minRating > 5) throw invalid('minRating', 'A rating is 1 to 5 stars.');
    args.p_min_rating = query.minRating;
  }
  if (query.label !== undefined && query.label !== null) {
    if (!(COLOR_LABELS as readonly unknown[]).includes(query.label)) throw invalid('label', 'Unknown colour label.');
    args.p_label = query.label;
  }
  if (query.kind !== undefined && query.kind !== null) {
    if (query.kind !== 'image' && query.kind !== 'video' && query.kind !== 'file') throw invalid('kind', 'A kind is image, video or file.');
    args.p_kind = query.kind;
  }
  const from = checkInstant(query.from, 'from');
  if (from) args.p_from = from;
  const to = checkInstant(query.to, 'to');
  if (to) args.p_to = to;
  if (query.uploaderId !== undefined && query.uploaderId !== null) {
    if (typeof query.uploaderId !== 'string' || query.uploaderId === '') throw invalid('uploaderId', 'An uploader is named by their id.');
    args.p_uploader_id = query.uploaderId;
  }
  if (query.favoritesOnly === true) args.p_favorites_only = true;
  return args;
}

export class SupabaseSearch implements SearchPort {
  constructor(private readonly calls: PostgrestCalls) {}

  async searchItems(query: SearchQuery, opts: CallOptions = {}): Promise<Page<Item>> {
    throwIfAborted(opts.signal);
    const args = searchArgs(query);
    const limit = query.limit ?? SEARCH_PAGE_DEFAULT;
    if (!Number.isInteger(limit) || limit < 1 || limit > SEARCH_PAGE_MAX) throw invalid('limit', `A page holds 1 to ${SEARCH_PAGE_MAX} items.`);
    const cursor = query.cursor ? decodeCursor(query.cursor) : null;
    // An uploader id that is no id has added nothing.
    if (typeof args.p_uploader_id === 'string' && !UUID.test(args.p_uploader_id)) return { rows: [], nextCursor: null };
    if (cursor) {
      args.p_after_taken = cursor.t;
      args.p_after_id = cursor.id;
    }
    // One row more than asked tells whether another page follows.
    args.p_limit = limit + 1;
    const fetched = rows(await this.calls.send(this.calls.rpc('search_items', args), opts.signal, 'album/not-found'));
    const page = fetched.slice(0, limit);
    const last = page[page.length - 1];
    const nextCursor = fetched.length > limit && last ? encodeCursor({ t: String(last.sort_taken), id: String(last.id) }) : null;
    return { rows: page.map(toItem), nextCursor };
  }
}
