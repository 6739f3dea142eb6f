/** The opaque keyset cursor of local item lists: the sort and the (time, id) of the last row served. */
import { AppError } from '../../lib/app-error';
import { fromBase64UrlJson, toBase64UrlJson } from '../../lib/base64url-json';
import type { ItemSort } from '../../domain/queries';

export interface ItemCursor {
  sort: ItemSort;
  time: number;
  id: string;
}

export function encodeItemCursor(cursor: ItemCursor): string {
  return toBase64UrlJson([1, cursor.sort, cursor.time, cursor.id]);
}

/** The cursor, or `validation/invalid` when it was not made by this backend for this sort. */
export function decodeItemCursor(text: string, sort: ItemSort): ItemCursor {
  const parsed = fromBase64UrlJson(text);
  if (Array.isArray(parsed) && parsed.length === 4) {
    const [version, cursorSort, time, id] = parsed as unknown[];
    if (version === 1 && cursorSort === sort && typeof time === 'number' && Number.isFinite(time) && typeof id === 'string') {
      return { sort, time, id };
    }
  }
  throw new AppError('validation/invalid', 'This list position is no longer valid. Reload the list.', { details: { field: 'cursor', rule: 'stale' } });
}
