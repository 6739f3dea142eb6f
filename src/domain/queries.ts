/**
 * How the app asks for items and what a list answers, in the product's words: the same for every backend, and
 * for the screens and helpers that build or read them.
 */
import type { ItemKind } from './entities';

/** How an album's items are ordered: by capture date (then added), or by date added. Newest first. */
export type ItemSort = 'taken' | 'added';

export interface ItemQuery {
  sort: ItemSort;
  /** true: the trash view (deleted items only); false: the album. */
  trashed?: boolean;
  kind?: ItemKind;
  /** Keyset cursor from the previous page's `nextCursor`; never an offset. */
  cursor?: string | null;
  limit?: number;
  /** Only items whose sort date falls in this month (`YYYY-MM`, UTC), or `unknown` for no date. */
  month?: string;
  /** Only the items the caller gave a heart (their own favourites, never another person's). */
  favoritesOnly?: boolean;
  /** Only the items this person added. */
  uploaderId?: string;
}

/** The filters the month counts honour, as listItems does. */
export type ItemCountQuery = Pick<ItemQuery, 'sort' | 'trashed' | 'kind' | 'favoritesOnly' | 'uploaderId'>;

export interface Page<T> {
  rows: T[];
  nextCursor: string | null;
}

export interface MonthCount {
  /** `YYYY-MM` (UTC) or `unknown`. */
  month: string;
  count: number;
}

/**
 * A search over the items a person can see, across all their albums or within one ([Note: Search words] in
 * lib/search-words.ts). Every criterion given must hold; none given: every item, newest first. Results are
 * ready items not in the trash, newest first by date taken (else added), then by id, paged by keyset cursor.
 */
export interface SearchFilter {
  /** Words, each found at the start of a word of the filename, title, description, keywords, camera or lens. */
  text?: string;
  /** Only this album's items (`album/not-found` for an album the caller is no member of). */
  albumId?: string;
  /** Rated at least this many stars (1–5). */
  minRating?: number;
  /** This colour label (one of COLOR_LABELS in lib/item-edit.ts). */
  label?: string;
  kind?: ItemKind;
  /** Taken (else added) at or after this instant (ISO 8601). */
  from?: string;
  /** Taken (else added) before this instant (ISO 8601). */
  to?: string;
  /** Only the items this person added. */
  uploaderId?: string;
  /** Only the items the caller gave a heart. */
  favoritesOnly?: boolean;
}

export interface SearchQuery extends SearchFilter {
  /** Keyset cursor from the previous page's `nextCursor`. */
  cursor?: string | null;
  /** 1 to SEARCH_PAGE_MAX; SEARCH_PAGE_DEFAULT when absent. */
  limit?: number;
}

export const SEARCH_PAGE_DEFAULT = 100;
export const SEARCH_PAGE_MAX = 500;
/** The longest text a search takes (`validation/invalid` past it), and how many of its words count. */
export const SEARCH_TEXT_MAX_CHARS = 200;
export const SEARCH_WORDS_MAX = 8;
