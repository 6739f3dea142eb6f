/** The derived list fields of an item row ([Note: Local item indexes] in local-db.ts), search words included. */
import type { Item } from '../../domain/entities';
import { takenWallClock } from '../../lib/item-metadata';
import { itemWords } from '../../lib/search-words';
import type { ItemRecord } from './local-db';
import { sortable, sortableTime } from './local-item-record';

/** The `words` index entries of a listed item: its search words, each with its sort time. */
export function searchEntries(item: { filename: string; metadata: Item['metadata'] }, st: number): [string, number][] {
  return itemWords(item).map((word) => [word, st]);
}

/** Fills the derived fields from the row's state; call after every change to the row. */
export function withListFields(item: Item): ItemRecord {
  const added = sortableTime(item.createdAt) ?? 0;
  // Filed by the clock where it was taken ([Note: Photos filed by the clock where they were taken]).
  const record: ItemRecord = { ...item, st: sortable(takenWallClock(item)) ?? added, sa: added };
  if (item.status === 'ready') record.lb = item.deletedAt ? 't' : 'a';
  else delete record.lb;
  // Only a listed item is found by a search ([Note: Local item indexes] in local-db.ts).
  if (record.lb === 'a') record.w = searchEntries(item, record.st);
  else delete record.w;
  return record;
}
