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
