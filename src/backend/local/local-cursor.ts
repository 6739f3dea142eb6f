/** The opaque keyset cursor of local item lists: the sort and the (time, id) of the last row served. */
import { AppError } from '../../lib/app-error';
import type { ItemSort } from '../ports';

export interface ItemCursor {
  sort: ItemSort;
  time: number;
  id: string;
}

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): string {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

export function encodeItemCursor(cursor: ItemCursor): string {
  return toBase64Url(JSON.stringify([1, cursor.sort, cursor.time, cursor.id]));
}

/** The cursor, or `validation/invalid` when it was not made by this backend for this sort. */
export function decodeItemCursor(text: string, sort: ItemSort): ItemCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fromBase64Url(text));
  } catch {
    parsed = null;
  }
  if (Array.isArray(parsed) && parsed.length === 4) {
    const [version, cursorSort, time, id] = parsed as unknown[];
    if (version === 1 && cursorSort === sort && typeof time === 'number' && Number.isFinite(time) && typeof id === 'string') {
      return { sort, time, id };
    }
  }
  throw new AppError('validation/invalid', 'This list position is no longer valid. Reload the list.', { details: { field: 'cursor' } });
}
