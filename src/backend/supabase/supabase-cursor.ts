/**
 * The opaque keyset cursor of Supabase item lists: base64url of `{t, id}`, the sort value and id of the last
 * row served. `t` is kept exactly as Postgres sent it (microseconds included): rounding it to milliseconds
 * would make the next page repeat or skip rows that share the millisecond.
 */
import { AppError } from '../../lib/app-error';
import { fromBase64UrlJson, toBase64UrlJson } from '../../lib/base64url-json';

export interface ItemCursor {
  t: string;
  id: string;
}

export function encodeCursor(cursor: ItemCursor): string {
  return toBase64UrlJson({ t: cursor.t, id: cursor.id });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}(:?\d{2})?)?$/;

/** The cursor, or `validation/invalid` for anything this adapter did not make. */
export function decodeCursor(value: string): ItemCursor {
  const parsed = fromBase64UrlJson(value);
  if (parsed && typeof parsed === 'object') {
    const { t, id } = parsed as { t?: unknown; id?: unknown };
    // Both end up inside a PostgREST filter: only a timestamp and a uuid may get there.
    if (typeof t === 'string' && TIMESTAMP.test(t) && typeof id === 'string' && UUID.test(id)) return { t, id };
  }
  throw new AppError('validation/invalid', 'This list position is no longer valid. Reload the list.', { details: { field: 'cursor', rule: 'stale' } });
}
