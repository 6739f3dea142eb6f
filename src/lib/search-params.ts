/**
 * A search as it lives in the address (`/search?q=porto&rating=4&label=Red&kind=image&from=2024-01-01&to=2024-12-31`,
 * and the same words on an album's address), so Back, a reload and a shared link show the same results. Dates are
 * whole days as the photos' own clocks show them, the days the grid files them under ([Note: Photos filed by the
 * clock where they were taken] in item-metadata.ts), the same for everyone who opens the address: `to` includes
 * its day.
 */
import type { ItemKind } from '../domain/entities';
import { SEARCH_TEXT_MAX_CHARS, type SearchFilter } from '../domain/queries';
import { COLOR_LABELS } from './item-edit';

/** The address's words for a search; `filter=favorites` and `by` are the album's filters of old, kept as they were. */
export const SEARCH_PARAMS = ['q', 'rating', 'label', 'kind', 'from', 'to'] as const;

/** Whether the address asks for more than words: a rating, label, kind or dates (the Filters row then shows). */
export const hasCriteria = (params: URLSearchParams): boolean => SEARCH_PARAMS.some((k) => k !== 'q' && !!params.get(k));

const KINDS: readonly ItemKind[] = ['image', 'video', 'file'];
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Midnight of a `YYYY-MM-DD` day (plus `days`) by the clock items are filed by (read as UTC); null for anything else. */
function dayStart(day: string | null, days = 0): string | null {
  const m = day ? DAY.exec(day) : null;
  if (!m) return null;
  const d = new Date(0);
  d.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + days);
  return Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1 || d.getUTCFullYear() > 9999 ? null : d.toISOString();
}

/** The search the address describes; what it says that no search takes is left out, never refused. */
export function searchFromParams(params: URLSearchParams): SearchFilter {
  const filter: SearchFilter = {};
  const text = params.get('q')?.slice(0, SEARCH_TEXT_MAX_CHARS);
  if (text?.trim()) filter.text = text;
  const rating = Number(params.get('rating'));
  if (Number.isInteger(rating) && rating >= 1 && rating <= 5) filter.minRating = rating;
  const label = params.get('label');
  if (label && (COLOR_LABELS as readonly string[]).includes(label)) filter.label = label;
  const kind = params.get('kind') as ItemKind | null;
  if (kind && KINDS.includes(kind)) filter.kind = kind;
  const from = dayStart(params.get('from'));
  if (from) filter.from = from;
  const to = dayStart(params.get('to'), 1);
  if (to) filter.to = to;
  if (params.get('filter') === 'favorites') filter.favoritesOnly = true;
  const by = params.get('by');
  if (by) filter.uploaderId = by;
  return filter;
}

/** Whether the address asks for a search (text or a criterion only a search has), not just the album's filters. */
export function asksForSearch(params: URLSearchParams): boolean {
  const f = searchFromParams(params);
  return f.text !== undefined || f.minRating !== undefined || f.label !== undefined || f.kind !== undefined || f.from !== undefined || f.to !== undefined;
}
