/**
 * Searching local items across albums or within one: the word index of [Note: Local item indexes] in
 * local-db.ts, the `taken` index walked newest first, and the profile's hearts. How a search picks between
 * them: [Note: Local search].
 */
import { unwrap } from 'idb';
import type { CallOptions, SearchPort } from '../ports';
import type { Item, ItemKind } from '../../domain/entities';
import { SEARCH_PAGE_DEFAULT, SEARCH_PAGE_MAX, SEARCH_TEXT_MAX_CHARS, type Page, type SearchQuery } from '../../domain/queries';
import { fromBase64UrlJson, toBase64UrlJson } from '../../lib/base64url-json';
import { COLOR_LABELS } from '../../lib/item-edit';
import { itemWords, queryWords, wordsMatch } from '../../lib/search-words';
import { requireAlbum } from './local-album-view';
import { readTransaction, type AnyTx, type LocalDataDeps } from './local-data-deps';
import { prefixRange, readDescending, type ItemRecord } from './local-db';
import { guard, invalid } from './local-errors';
import { checkKind } from './local-item-input';
import { compareDesc, ITEM_KINDS, toItem } from './local-item-record';

/**
 * [Note: Local search]
 * A page of results is the newest `limit` listed items that pass every criterion, by (st, id) descending, and
 * no search reads every item for one page. Three ways to find them, chosen per page:
 *  - Hearts (`favoritesOnly`): the profile's hearts are few next to the items; read those items and test them.
 *  - Candidates: for text, count the `words` index entries of each query word's prefix range (a count is
 *    read from the index without the rows) and read the rows of the rarest word's range; test the rest on
 *    them, sort, page. Its cost is that word's count.
 *  - Walk: read the `taken` index newest first, one range per (album, kind) below the cursor and inside
 *    [from, to), merging the ranges and testing each row, until the page is full. Without text this is the
 *    only way. With text it is taken when the words are so common that a page is expected within fewer rows
 *    than the rarest word has (a word most items have: its candidates would be most of the database), and it
 *    gives up after reading as many rows as that word's count, falling back to the candidates: a search that
 *    walks in vain costs at most twice what the candidates alone would.
 * Filters with no index (rating, label, kind across the three kinds, uploader) are tested on the rows; a
 * filter that keeps few of many items without text (a label almost nothing has) walks far.
 */

interface Plan {
  words: string[];
  albumId: string | null;
  minRating: number | null;
  label: string | null;
  kinds: readonly ItemKind[];
  /** [from, to) on the sort time `st`, in ms. */
  from: number | null;
  to: number | null;
  uploaderId: string | null;
  favoritesOnly: boolean;
  limit: number;
  cursor: SearchCursor | null;
}

interface SearchCursor {
  time: number;
  id: string;
}

const CURSOR_TAG = 'search';

function encodeCursor(r: ItemRecord): string {
  return toBase64UrlJson([1, CURSOR_TAG, r.st, r.id]);
}

function decodeCursor(text: unknown): SearchCursor {
  const parsed = typeof text === 'string' ? fromBase64UrlJson(text) : undefined;
  if (Array.isArray(parsed) && parsed.length === 4) {
    const [version, tag, time, id] = parsed as unknown[];
    if (version === 1 && tag === CURSOR_TAG && typeof time === 'number' && Number.isFinite(time) && typeof id === 'string') return { time, id };
  }
  throw invalid('cursor', 'This list position is no longer valid. Reload the list.', 'stale');
}

/** An ISO 8601 date, or date and time (UTC when no offset is given). */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

function checkInstant(value: unknown, field: 'from' | 'to'): number | null {
  if (value === undefined || value === null) return null;
  const text = typeof value === 'string' ? value : '';
  const m = ISO_DATE.exec(text);
  if (!m) throw invalid(field, 'A date is written as ISO 8601.');
  // A date alone is read as UTC; so is a time without an offset, as the server reads it.
  const hasTime = text.length > 10;
  const t = Date.parse(hasTime && !m[1] ? `${text.replace(' ', 'T')}Z` : text.replace(' ', 'T'));
  if (!Number.isFinite(t)) throw invalid(field, 'A date is written as ISO 8601.');
  return t;
}

function parseQuery(query: SearchQuery): Plan {
  if (!query || typeof query !== 'object') throw invalid('query', 'A search is an object of criteria.');
  const { text, albumId, minRating, label, from, to, uploaderId, favoritesOnly, cursor } = query;
  if (text !== undefined && text !== null && typeof text !== 'string') throw invalid('text', 'The search text must be text.', 'type');
  if (typeof text === 'string' && text.length > SEARCH_TEXT_MAX_CHARS) {
    throw invalid('text', `A search holds at most ${SEARCH_TEXT_MAX_CHARS} characters.`, 'too-long', SEARCH_TEXT_MAX_CHARS);
  }
  if (albumId !== undefined && albumId !== null && (typeof albumId !== 'string' || albumId === '')) throw invalid('albumId', 'An album is named by its id.');
  if (minRating !== undefined && minRating !== null && !(Number.isInteger(minRating) && minRating >= 1 && minRating <= 5)) {
    throw invalid('minRating', 'A rating is 1 to 5 stars.', 'out-of-range');
  }
  if (label !== undefined && label !== null && !(COLOR_LABELS as readonly unknown[]).includes(label)) {
    throw invalid('label', `A label is one of ${COLOR_LABELS.join(', ')}.`, 'invalid');
  }
  const kind = checkKind(query.kind);
  const fromMs = checkInstant(from, 'from');
  const toMs = checkInstant(to, 'to');
  if (uploaderId !== undefined && uploaderId !== null && (typeof uploaderId !== 'string' || uploaderId === '')) {
    throw invalid('uploaderId', 'An uploader is named by their id.');
  }
  if (favoritesOnly !== undefined && favoritesOnly !== null && typeof favoritesOnly !== 'boolean') throw invalid('favoritesOnly', 'Favourites only is yes or no.');
  const limit = query.limit ?? SEARCH_PAGE_DEFAULT;
  if (!Number.isInteger(limit) || limit < 1 || limit > SEARCH_PAGE_MAX) throw invalid('limit', `A page holds 1 to ${SEARCH_PAGE_MAX} items.`, 'out-of-range');
  return {
    words: typeof text === 'string' ? queryWords(text) : [],
    albumId: albumId ?? null,
    minRating: minRating ?? null,
    label: label ?? null,
    kinds: kind ? [kind] : ITEM_KINDS,
    from: fromMs,
    to: toMs,
    uploaderId: uploaderId ?? null,
    favoritesOnly: favoritesOnly === true,
    limit,
    cursor: cursor === undefined || cursor === null ? null : decodeCursor(cursor),
  };
}

/** Whether a row is a result of the search (after the cursor, every criterion met). */
function matches(r: ItemRecord, p: Plan): boolean {
  if (r.lb !== 'a') return false;
  if (p.albumId !== null && r.albumId !== p.albumId) return false;
  if (p.cursor && compareDesc(r.st, r.id, p.cursor.time, p.cursor.id) <= 0) return false;
  if (p.from !== null && r.st < p.from) return false;
  if (p.to !== null && r.st >= p.to) return false;
  if (!p.kinds.includes(r.kind)) return false;
  if (p.minRating !== null && !((r.metadata.rating ?? 0) >= p.minRating)) return false;
  if (p.label !== null && r.metadata.label !== p.label) return false;
  if (p.uploaderId !== null && r.uploaderId !== p.uploaderId) return false;
  return p.words.length === 0 || wordsMatch(r.w ?? itemWords(r), p.words);
}

const byNewest = (a: ItemRecord, b: ItemRecord) => compareDesc(a.st, a.id, b.st, b.id);

/** A page from every result there is (or at least `limit` + 1 of the first), in any order. */
function pageOf(results: ItemRecord[], limit: number): Page<Item> {
  const sorted = results.sort(byNewest);
  const rows = sorted.slice(0, limit);
  const last = rows[rows.length - 1];
  return { rows: rows.map(toItem), nextCursor: sorted.length > limit && last ? encodeCursor(last) : null };
}

/** Every key beginning with `word` in the `words` index. */
function wordRange(word: string): IDBKeyRange {
  return IDBKeyRange.bound(word, `${word}\uffff`);
}

/** One (album, kind) range of the `taken` index, read newest first a chunk at a time. */
class TakenRange {
  private rows: ItemRecord[] = [];
  private at = 0;
  private done = false;

  constructor(
    private readonly index: IDBIndex,
    private readonly lower: IDBValidKey[],
    private upper: IDBValidKey[],
  ) {}

  head(): ItemRecord | undefined {
    return this.rows[this.at];
  }

  /** Takes the head; true when the chunk is used up and there is more to read. */
  take(): boolean {
    this.at++;
    return this.at >= this.rows.length && !this.done;
  }

  async read(chunk: number): Promise<number> {
    const got = await readDescending<ItemRecord>(this.index, IDBKeyRange.bound(this.lower, this.upper, false, true), chunk);
    this.rows = got.map((g) => g.value);
    this.at = 0;
    const last = this.rows[this.rows.length - 1];
    if (got.length < chunk || !last) this.done = true;
    else this.upper = [last.albumId, 'a', last.kind, last.st, last.id];
    return got.length;
  }
}

/** The ranges of a walk, or none for a search whose bounds leave nothing. */
function takenRanges(tx: AnyTx, p: Plan, albumIds: readonly string[]): TakenRange[] {
  const index = unwrap(tx).objectStore('items').index('taken');
  const ranges: TakenRange[] = [];
  for (const albumId of albumIds) {
    for (const kind of p.kinds) {
      const lower: IDBValidKey[] = p.from !== null ? [albumId, 'a', kind, p.from] : [albumId, 'a', kind];
      let upper: IDBValidKey[] = p.to !== null ? [albumId, 'a', kind, p.to] : [albumId, 'a', kind, []];
      if (p.cursor) {
        const below: IDBValidKey[] = [albumId, 'a', kind, p.cursor.time, p.cursor.id];
        if (indexedDB.cmp(below, upper) < 0) upper = below;
      }
      if (indexedDB.cmp(lower, upper) < 0) ranges.push(new TakenRange(index, lower, upper));
    }
  }
  return ranges;
}

const MAX_CHUNK = 500;

/**
 * The first `limit` + 1 results in the sort order, merging the ranges; null when more than `budget` rows were
 * read before the page was full.
 */
async function walk(tx: AnyTx, p: Plan, albumIds: readonly string[], budget: number, signal?: AbortSignal): Promise<ItemRecord[] | null> {
  const ranges = takenRanges(tx, p, albumIds);
  const want = p.limit + 1;
  // Enough from each range to fill the page if the results were spread evenly, and more each time a range
  // runs dry: few rows read in vain, few round trips when the criteria keep only a few.
  const first = Math.min(want, Math.max(8, Math.ceil((2 * want) / Math.max(1, ranges.length))));
  const chunks = ranges.map(() => first);
  let read = (await Promise.all(ranges.map((r) => r.read(first)))).reduce((a, b) => a + b, 0);
  const out: ItemRecord[] = [];
  while (out.length < want) {
    if (read > budget) return null;
    signal?.throwIfAborted();
    let best = -1;
    let head: ItemRecord | undefined;
    for (let i = 0; i < ranges.length; i++) {
      const h = ranges[i]!.head();
      if (h && (!head || byNewest(h, head) < 0)) {
        best = i;
        head = h;
      }
    }
    if (!head) break;
    if (matches(head, p)) out.push(head);
    if (ranges[best]!.take()) {
      const chunk = (chunks[best] = Math.min(MAX_CHUNK, chunks[best]! * 2));
      read += await ranges[best]!.read(chunk);
    }
  }
  return out;
}

/** The results among the rows of the rarest query word (rows with several words of that prefix come once). */
async function candidates(tx: AnyTx, p: Plan, word: string): Promise<ItemRecord[]> {
  const rows = await tx.objectStore('items').index('words').getAll(wordRange(word));
  const seen = new Set<string>();
  return rows.filter((r) => {
    if (!matches(r, p)) return false;
    const key = `${r.albumId}/${r.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The results among the items the profile gave a heart ([Note: Local filters] in local-item-pages.ts). */
async function hearted(tx: AnyTx, p: Plan, profileId: string): Promise<ItemRecord[]> {
  const favorites = tx.objectStore('favorites');
  const hearts = await (p.albumId !== null ? favorites.getAll(prefixRange(p.albumId)) : favorites.getAll());
  const items = tx.objectStore('items');
  const rows = await Promise.all(hearts.filter((h) => h.userId === profileId).map((h) => items.get([h.albumId, h.itemId])));
  return rows.filter((r): r is ItemRecord => !!r && matches(r, p));
}

async function search(tx: AnyTx, p: Plan, profileId: string, signal?: AbortSignal): Promise<Page<Item>> {
  if (p.albumId !== null) await requireAlbum(tx, p.albumId);
  if (p.favoritesOnly) return pageOf(await hearted(tx, p, profileId), p.limit);
  const all = await tx.objectStore('albums').getAll();
  const albums = p.albumId !== null ? all.filter((a) => a.id === p.albumId) : all;
  const albumIds = albums.map((a) => a.id);
  if (p.words.length === 0) return pageOf((await walk(tx, p, albumIds, Infinity, signal)) ?? [], p.limit);

  // [Note: Local search]
  const index = tx.objectStore('items').index('words');
  const counts = await Promise.all(p.words.map((w) => index.count(wordRange(w))));
  let rarest = 0;
  counts.forEach((n, i) => {
    if (n < counts[rarest]!) rarest = i;
  });
  const fewest = counts[rarest]!;
  if (fewest === 0) return { rows: [], nextCursor: null };
  const listed = albums.reduce((n, a) => n + a.itemCount, 0);
  const everywhere = all.reduce((n, a) => n + a.itemCount, 0);
  // Rows a walk reads for a page if the word's items were spread evenly, against the rows of the word.
  const expected = Math.min(listed, ((p.limit + 1) * everywhere) / fewest) + 8 * albumIds.length * p.kinds.length;
  if (expected < fewest) {
    const walked = await walk(tx, p, albumIds, fewest, signal);
    if (walked) return pageOf(walked, p.limit);
  }
  return pageOf(await candidates(tx, p, p.words[rarest]!), p.limit);
}

/** Search on IndexedDB. */
export class LocalSearch implements SearchPort {
  constructor(private readonly deps: LocalDataDeps) {}

  searchItems(query: SearchQuery, opts: CallOptions = {}): Promise<Page<Item>> {
    return guard(opts.signal, async () => {
      const p = parseQuery(query);
      const profile = await this.deps.profile();
      return readTransaction(this.deps, opts.signal, (tx) => search(tx, p, profile.id, opts.signal));
    });
  }
}
