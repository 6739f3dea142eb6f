/**
 * The order and month an item takes in the grid, as the backends list them, so an item heard of in a change
 * event can be placed without asking the backend.
 */
import type { ItemSort } from '../../domain/queries';
import type { Item } from '../../domain/entities';
import { takenWallClock } from '../../lib/item-metadata';

type Placed = Pick<Item, 'takenAt' | 'createdAt'> & { metadata?: Pick<Item['metadata'], 'takenOffset'> };

/** The time an item sorts by: when it was taken (else added) or when it was added. */
export function sortTime(item: Placed, sort: ItemSort): number {
  const taken = sort === 'taken' ? takenWallClock(item) : Number.NaN;
  return Number.isNaN(taken) ? Date.parse(item.createdAt) : taken;
}

/** The grid's month of an item (`YYYY-MM` of its sort time), as the backends count them. */
export function monthOf(item: Placed, sort: ItemSort): string {
  const t = sortTime(item, sort);
  return Number.isNaN(t) ? 'unknown' : new Date(t).toISOString().slice(0, 7);
}

const DAY_MS = 86_400_000;

/**
 * The grid's day of an item, as days since 1970-01-01 of its sort time (within its month, as the backends count
 * them); NaN for an item with no time.
 */
export function dayOf(item: Placed, sort: ItemSort): number {
  return Math.floor(sortTime(item, sort) / DAY_MS);
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
