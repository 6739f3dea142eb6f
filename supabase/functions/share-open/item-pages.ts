/**
 * A shared album's items, page by page: ready, not trashed, newest first in the order of the app's listItems
 * (sort_taken desc, id desc; or created_at desc, id desc) with the same opaque cursor, base64url of
 * `{ t, id }` (src/backend/supabase/supabase-cursor.ts), so a 100,000-item album opens as fast as a small one
 * (the album's keyset indexes). Month counts as count_items_by_month computes them.
 */
import type { Tx } from '../_shared/database.ts';
import { ShareError } from '../_shared/share-access.ts';

export type Sort = 'taken' | 'added';
export type Kind = 'image' | 'video' | 'file';

export interface ItemQuery {
  sort: Sort;
  kind: Kind | null;
  month: string | null;
  cursor: { t: string; id: string } | null;
  limit: number;
}

export interface ItemRow {
  id: string;
  kind: Kind;
  filename: string;
  mime: string;
  bytes: string;
  width: number | null;
  height: number | null;
  duration_ms: string | null;
  taken_at: Date | null;
  created_at: Date;
  thumbhash: string | null;
  metadata: Record<string, unknown>;
  preview_key: string | null;
  thumb_key: string | null;
  guest_label: string | null;
  /** 'gzip': the original is stored compressed ([Note: Originals stored compressed] in the migrations). */
  stored_encoding?: string | null;
  uploader_name: string | null;
  t: string;
}

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 500;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}(:?\d{2})?)?$/;
const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

const invalid = (field: string, message: string) => new ShareError(400, 'validation/invalid', message, { details: { field } });

export function parseSort(v: unknown): Sort {
  if (v !== 'taken' && v !== 'added') throw invalid('sort', 'Sort by taken or added.');
  return v;
}

export function parseKind(v: unknown): Kind | null {
  if (v === undefined || v === null) return null;
  if (v !== 'image' && v !== 'video' && v !== 'file') throw invalid('kind', 'Unknown kind.');
  return v;
}

export function parseItemQuery(body: Record<string, unknown>): ItemQuery {
  const limit = body.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > MAX_LIMIT) throw invalid('limit', `A page holds 1 to ${MAX_LIMIT} items.`);
  const month = body.month ?? null;
  if (month !== null && month !== 'unknown' && (typeof month !== 'string' || !MONTH.test(month))) throw invalid('month', 'A month is YYYY-MM.');
  return { sort: parseSort(body.sort), kind: parseKind(body.kind), month: month as string | null, cursor: decodeCursor(body.cursor), limit: limit as number };
}

export function encodeCursor(t: string, id: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify({ t, id })))).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function decodeCursor(v: unknown): { t: string; id: string } | null {
  if (v === undefined || v === null) return null;
  try {
    const text = new TextDecoder().decode(Uint8Array.from(atob((v as string).replaceAll('-', '+').replaceAll('_', '/')), (c) => c.charCodeAt(0)));
    const { t, id } = JSON.parse(text) as { t?: unknown; id?: unknown };
    if (typeof t === 'string' && TIMESTAMP.test(t) && typeof id === 'string' && UUID.test(id)) return { t, id };
  } catch {
    // falls through to the error below
  }
  throw invalid('cursor', 'This list position is no longer valid. Reload the list.');
}

/** One page of items and the cursor of the next, or null at the end. */
export async function itemPage(tx: Tx, albumId: string, q: ItemQuery): Promise<{ rows: ItemRow[]; nextCursor: string | null }> {
  // Every item has a sort date (the date added at least), so `unknown` matches nothing, as in listItems.
  if (q.month === 'unknown') return { rows: [], nextCursor: null };
  const col = q.sort === 'taken' ? tx`i.sort_taken` : tx`i.created_at`;
  let range = tx``;
  if (q.month) {
    const [y, m] = q.month.split('-').map(Number) as [number, number];
    const from = new Date(Date.UTC(y, m - 1, 1));
    const to = new Date(Date.UTC(y, m, 1));
    range = tx`and ${col} >= ${from} and ${col} < ${to}`;
  }
  const rows = await tx<ItemRow[]>`
    select i.id, i.kind, i.filename, i.mime, i.bytes::text as bytes, i.width, i.height, i.duration_ms::text as duration_ms,
           i.taken_at, i.created_at, i.thumbhash, i.metadata, i.preview_key, i.thumb_key, i.guest_label, i.stored_encoding,
           p.display_name as uploader_name, ${col}::text as t
    from public.items i left join public.profiles p on p.id = i.uploader_id
    where i.album_id = ${albumId}::uuid and i.status = 'ready' and i.deleted_at is null
      ${q.kind ? tx`and i.kind = ${q.kind}` : tx``}
      ${range}
      ${q.cursor ? tx`and (${col}, i.id) < (${q.cursor.t}::timestamptz, ${q.cursor.id}::uuid)` : tx``}
    order by ${col} desc, i.id desc
    limit ${q.limit + 1}`;
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return { rows: page, nextCursor: rows.length > q.limit && last ? encodeCursor(last.t, last.id) : null };
}

/** Ready items the visit may name (ids of other albums, or trashed ones, are simply absent). */
export async function itemsById(tx: Tx, albumId: string, ids: string[]): Promise<ItemRow[]> {
  if (ids.length === 0) return [];
  return await tx<ItemRow[]>`
    select i.id, i.kind, i.filename, i.mime, i.bytes::text as bytes, i.width, i.height, i.duration_ms::text as duration_ms,
           i.taken_at, i.created_at, i.thumbhash, i.metadata, i.preview_key, i.thumb_key, i.guest_label, i.stored_encoding,
           null::text as uploader_name, i.created_at::text as t
    from public.items i
    where i.album_id = ${albumId}::uuid and i.id = any (${tx.array(ids)}::uuid[]) and i.status = 'ready' and i.deleted_at is null`;
}

export async function monthCounts(tx: Tx, albumId: string, sort: Sort, kind: Kind | null): Promise<{ month: string; count: number }[]> {
  const col = sort === 'taken' ? tx`i.sort_taken` : tx`i.created_at`;
  const rows = await tx<{ month: string; count: number }[]>`
    select to_char(${col} at time zone 'UTC', 'YYYY-MM') as month, count(*)::int as count
    from public.items i
    where i.album_id = ${albumId}::uuid and i.status = 'ready' and i.deleted_at is null
      ${kind ? tx`and i.kind = ${kind}` : tx``}
    group by 1 order by 1 desc`;
  return rows.map((r) => ({ month: r.month, count: r.count }));
}

/** The album's cover as album_summaries picks it: the chosen one, else the newest photo or video with a thumbnail. */
export async function coverItem(tx: Tx, albumId: string): Promise<ItemRow | null> {
  const [row] = await tx<ItemRow[]>`
    select i.id, i.kind, i.filename, i.mime, i.bytes::text as bytes, i.width, i.height, i.duration_ms::text as duration_ms,
           i.taken_at, i.created_at, i.thumbhash, i.metadata, i.preview_key, i.thumb_key, i.guest_label, i.stored_encoding,
           null::text as uploader_name, i.created_at::text as t
    from public.items i join public.albums a on a.id = i.album_id
    where i.album_id = ${albumId}::uuid and i.status = 'ready' and i.deleted_at is null
      and (i.id = a.cover_item_id or (i.kind in ('image', 'video') and i.thumb_key is not null))
    order by coalesce(i.id = a.cover_item_id, false) desc, i.created_at desc, i.id desc
    limit 1`;
  return row ?? null;
}
