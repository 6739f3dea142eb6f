/**
 * The opaque keyset cursor of Supabase item lists: base64url of `{t, id}`, the sort value and id of the last
 * row served. `t` is kept exactly as Postgres sent it (microseconds included): rounding it to milliseconds
 * would make the next page repeat or skip rows that share the millisecond.
 */
import { AppError } from '../../lib/app-error';

export interface ItemCursor {
  t: string;
  id: string;
}

function toBase64Url(textValue: string): string {
  const bytes = new TextEncoder().encode(textValue);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(textValue: string): string {
  const binary = atob(textValue.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

export function encodeCursor(cursor: ItemCursor): string {
  return toBase64Url(JSON.stringify({ t: cursor.t, id: cursor.id }));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}(:?\d{2})?)?$/;

/** The cursor, or `validation/invalid` for anything this adapter did not make. */
export function decodeCursor(value: string): ItemCursor {
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(fromBase64Url(value));
  } catch {
    parsed = null;
  }
  if (parsed && typeof parsed === 'object') {
    const { t, id } = parsed as { t?: unknown; id?: unknown };
    // Both end up inside a PostgREST filter: only a timestamp and a uuid may get there.
    if (typeof t === 'string' && TIMESTAMP.test(t) && typeof id === 'string' && UUID.test(id)) return { t, id };
  }
  throw new AppError('validation/invalid', 'This list position is no longer valid. Reload the list.', { details: { field: 'cursor' } });
}
