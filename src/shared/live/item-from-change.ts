/**
 * An item change event's row (plain camelCase data, as both adapters send it) read back as an Item, and the
 * order and month an item takes in the grid, so an event can be placed without asking the backend.
 */
import type { ChangeEvent } from '../../backend/ports';
import type { ItemSort } from '../../domain/queries';
import type { Item, ItemKind, ItemStatus } from '../../domain/entities';
import { boundItemMetadata } from '../../lib/item-metadata';

const KINDS: readonly ItemKind[] = ['image', 'video', 'file'];
const STATUSES: readonly ItemStatus[] = ['uploading', 'ready', 'failed'];

const isText = (v: unknown): v is string => typeof v === 'string';
const isTime = (v: unknown): v is string => isText(v) && !Number.isNaN(Date.parse(v));
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const textOrNull = (v: unknown): v is string | null => v === null || v === undefined || isText(v);
const countOrNull = (v: unknown): v is number | null => v === null || v === undefined || isCount(v);
const timeOrNull = (v: unknown): v is string | null => v === null || v === undefined || isTime(v);

/**
 * The Item an event carries, or null when its row is not a whole item (a delete that carries only the key, a
 * column missing or of another type): the caller then reads the data again instead of guessing.
 */
export function itemFromChange(ev: ChangeEvent): Item | null {
  const r = ev.row;
  if (!isText(r.id) || r.id === '' || r.albumId !== ev.albumId) return null;
  if (!KINDS.includes(r.kind as ItemKind) || !STATUSES.includes(r.status as ItemStatus)) return null;
  if (!isText(r.filename) || !isText(r.mime) || !isCount(r.bytes) || !isText(r.originalKey) || !isTime(r.createdAt)) return null;
  // No uploader once their account is gone.
  if (!textOrNull(r.uploaderId) || !textOrNull(r.sha256) || !textOrNull(r.previewKey) || !textOrNull(r.thumbKey) || !textOrNull(r.thumbhash)) return null;
  if (!countOrNull(r.width) || !countOrNull(r.height) || !countOrNull(r.durationMs)) return null;
  if (!timeOrNull(r.takenAt) || !timeOrNull(r.deletedAt)) return null;
  if (!r.metadata || typeof r.metadata !== 'object' || Array.isArray(r.metadata)) return null;
  return {
    id: r.id,
    albumId: ev.albumId,
    uploaderId: r.uploaderId ?? '',
    ...(isText(r.guestLabel) && r.guestLabel !== '' ? { guestLabel: r.guestLabel } : {}),
    kind: r.kind as ItemKind,
    status: r.status as ItemStatus,
    filename: r.filename,
    mime: r.mime,
    bytes: r.bytes,
    sha256: r.sha256 ?? null,
    width: r.width ?? null,
    height: r.height ?? null,
    durationMs: r.durationMs ?? null,
    takenAt: r.takenAt ? new Date(r.takenAt).toISOString() : null,
    originalKey: r.originalKey,
    previewKey: r.previewKey ?? null,
    thumbKey: r.thumbKey ?? null,
    thumbhash: r.thumbhash ?? null,
    metadata: boundItemMetadata(r.metadata),
    createdAt: new Date(r.createdAt).toISOString(),
    deletedAt: r.deletedAt ? new Date(r.deletedAt).toISOString() : null,
  };
}

/** The time an item sorts by: when it was taken (else added) or when it was added. */
export function sortTime(item: Pick<Item, 'takenAt' | 'createdAt'>, sort: ItemSort): number {
  const taken = sort === 'taken' && item.takenAt ? Date.parse(item.takenAt) : Number.NaN;
  return Number.isNaN(taken) ? Date.parse(item.createdAt) : taken;
}

/** The grid's month of an item (`YYYY-MM`, UTC), as the backends count them. */
export function monthOf(item: Pick<Item, 'takenAt' | 'createdAt'>, sort: ItemSort): string {
  const t = sortTime(item, sort);
  return Number.isNaN(t) ? 'unknown' : new Date(t).toISOString().slice(0, 7);
}

/** Newest first by (time, id), the order of every item list. Negative when `a` comes first. */
export function compareItems(a: Item, b: Item, sort: ItemSort): number {
  const ta = sortTime(a, sort);
  const tb = sortTime(b, sort);
  if (ta !== tb) return tb - ta;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** Which list an item is in: the album, the trash, or neither (an upload not finished, or failed). */
export function listOf(item: Pick<Item, 'status' | 'deletedAt'>): 'album' | 'trash' | null {
  if (item.status !== 'ready') return null;
  return item.deletedAt ? 'trash' : 'album';
}
