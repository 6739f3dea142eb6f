/** Item rows as stored locally: the derived list fields of [Note: Local item indexes] in local-db.ts. */
import type { Item } from '../../domain/entities';
import type { ItemRecord } from './local-db';

/** 0001-01-01 and 9999-12-31: dates outside this range are not sortable as `YYYY-MM`; they fall back. */
const MIN_TIME = -62_135_596_800_000;
const MAX_TIME = 253_402_300_799_999;

export const ITEM_KINDS = ['image', 'video', 'file'] as const;

/** Milliseconds of an ISO date the list can sort by, or null when it is missing or unusable. */
export function sortableTime(iso: string | null | undefined): number | null {
  return iso ? sortable(Date.parse(iso)) : null;
}

/** `t` when the list can sort by it, else null. */
export function sortable(t: number): number | null {
  return Number.isFinite(t) && t >= MIN_TIME && t <= MAX_TIME ? t : null;
}

/** The row as the app sees it. */
export function toItem(record: ItemRecord): Item {
  const { lb: _lb, st: _st, sa: _sa, w: _w, ...item } = record;
  return item;
}

/** Newer first by (time, id), the order of every item list. */
export function compareDesc(aTime: number, aId: string, bTime: number, bId: string): number {
  if (aTime !== bTime) return bTime - aTime;
  return aId < bId ? 1 : aId > bId ? -1 : 0;
}

/** `YYYY-MM` (UTC) of a sort time. */
export function monthOf(time: number): string {
  return new Date(time).toISOString().slice(0, 7);
}

/** [start, end) in ms of a `YYYY-MM` month, or null for anything else. */
export function monthRange(month: string): [number, number] | null {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  if (!m) return null;
  const year = Number(m[1]);
  const monthIndex = Number(m[2]) - 1;
  if (monthIndex < 0 || monthIndex > 11) return null;
  const start = new Date(0);
  start.setUTCFullYear(year, monthIndex, 1);
  const end = new Date(0);
  end.setUTCFullYear(year, monthIndex + 1, 1);
  return [start.getTime(), end.getTime()];
}
