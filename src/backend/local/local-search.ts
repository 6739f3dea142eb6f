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
import { searchWordsFilled } from './local-words-fill';

/**
 * [Note: Local search]
 * A page of results is the newest `limit` listed items that pass every criterion, by (st, id) descending, and
 * no search reads every item for one page. Reading a row costs far more than counting index entries, so a
 * search first counts the `words` entries of each query word's prefix range (no rows read) and works from the
 * rarest word:
 *  - Candidates: a word with few entries (about two pages' worth), or one whose prefix begins too many
 *    distinct words to walk each (`dscf12`: dscf1200 to dscf1299) and has up to CANDIDATES_MAX entries: read
 *    all their rows in one request, test the other words and the filters on them, sort, page.
 *  - Word walk: otherwise. The prefix range holds a few distinct words (`beach`, `beaches`); each one's
 *    entries, [word, st], read backwards are its items newest first. Merge those runs, testing each row, until
 *    the page is full: the rows read are about the page size divided by the share of the word's items that
 *    pass the rest, and never more than the word's entries.
 *  - Taken walk: read the `taken` index newest first, one range per (album, kind) below the cursor and inside
 *    [from, to), merging them and testing each row, until the page is full. The way without text; with text,
 *    for a search within one album smaller than the word's count (the word walk would pass over the other
 *    albums' items), and for a prefix that begins too many distinct words with more entries than
 *    CANDIDATES_MAX (`d`). That walk gives up after reading as many rows as the word has entries and reads the
 *    candidates instead, so a walk in vain costs at most twice what the candidates alone would.
 * Filters with no index (rating, label, kind across the three kinds, uploader) are tested on the rows; without
 * text, one that keeps few of many items (a label almost nothing has) walks far. Hearts (`favoritesOnly`) are
 * few next to the items: their rows are read and tested.
 */
const CANDIDATES_MAX = 1000;
/** The most distinct words of one prefix a word walk merges. */
const WALK_WORDS_MAX = 24;

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
  return p.words.length === 0 || wordsMatch(r.w ? r.w.map((e) => e[0]) : itemWords(r), p.words);
}

const byNewest = (a: ItemRecord, b: ItemRecord) => compareDesc(a.st, a.id, b.st, b.id);

/** A page from every result there is (or at least `limit` + 1 of the first), in any order. */
function pageOf(results: ItemRecord[], limit: number): Page<Item> {
  const sorted = results.sort(byNewest);
  const rows = sorted.slice(0, limit);
  const last = rows[rows.length - 1];
  return { rows: rows.map(toItem), nextCursor: sorted.length > limit && last ? encodeCursor(last) : null };
}

/** Every entry of the `words` index whose word begins with `word`. */
function wordRange(word: string): IDBKeyRange {
  return IDBKeyRange.bound([word], [`${word}\uffff`], false, true);
}

interface IndexRecords {
  getAllRecords?: (options: { query?: IDBKeyRange | null; count?: number; direction?: IDBCursorDirection }) => IDBRequest<{ value: unknown }[]>;
}

/** Up to `count` rows of `range`, highest key first, in one request (a cursor where getAllRecords is missing). */
function readBackwards(index: IDBIndex, range: IDBKeyRange, count: number): Promise<ItemRecord[]> {
  return new Promise((resolve, reject) => {
    const getAllRecords = (index as IDBIndex & IndexRecords).getAllRecords?.bind(index);
    if (getAllRecords) {
      const request = getAllRecords({ query: range, direction: 'prev', ...(Number.isFinite(count) ? { count } : {}) });
      request.onsuccess = () => resolve(request.result.map((r) => r.value as ItemRecord));
      request.onerror = () => reject(request.error);
      return;
    }
    const rows: ItemRecord[] = [];
    const request = index.openCursor(range, 'prev');
    request.onsuccess = () => {
      const cursor = request.result;
      if (cursor) rows.push(cursor.value as ItemRecord);
      if (!cursor || rows.length >= count) resolve(rows);
      else cursor.continue();
    };
    request.onerror = () => reject(request.error);
  });
}

/** Rows in the order of a page, read a chunk at a time. */
interface Run {
  head(): ItemRecord | undefined;
  /** Takes the head; true when the chunk is used up and there is more to read. */
  take(): boolean;
  /** Rows read and not taken yet, and whether there are more to read. */
  buffered(): number;
  more(): boolean;
  /** Reads up to `chunk` more rows after those read; returns how many were read. */
  read(chunk: number): Promise<number>;
}

/** A run's rows read so far and the place reached in them; `read` is each kind of run's own. */
abstract class BufferedRun implements Run {
  protected rows: ItemRecord[] = [];
  protected at = 0;
  protected done = false;

  head(): ItemRecord | undefined {
    return this.rows[this.at];
  }

  take(): boolean {
    this.at++;
    return this.at >= this.rows.length && !this.done;
  }

  buffered(): number {
    return this.rows.length - this.at;
  }

  more(): boolean {
    return !this.done;
  }

  abstract read(chunk: number): Promise<number>;
}

/** One (album, kind) range of the `taken` index, newest first. */
class TakenRun extends BufferedRun {
  constructor(
    private readonly index: IDBIndex,
    private readonly lower: IDBValidKey[],
    private upper: IDBValidKey[],
  ) {
    super();
  }

  async read(chunk: number): Promise<number> {
    const got = await readDescending<ItemRecord>(this.index, IDBKeyRange.bound(this.lower, this.upper, false, true), chunk);
    this.rows = [...this.rows.slice(this.at), ...got.map((g) => g.value)];
    this.at = 0;
    const last = got[got.length - 1]?.value;
    if (got.length < chunk || !last) this.done = true;
    else this.upper = [last.albumId, 'a', last.kind, last.st, last.id];
    return got.length;
  }
}

/**
 * One word's entries of the `words` index, newest first. Its keys, [word, st], repeat when items share a
 * time, and rows of one time come in the order of their primary key: a chunk ends before the time it was cut
 * in, the next one reads that time whole, and each chunk is put in (st, id) order.
 */
class WordRun extends BufferedRun {
  private upper: IDBValidKey[];
  private upperOpen: boolean;

  constructor(
    private readonly index: IDBIndex,
    private readonly word: string,
    private readonly lower: IDBValidKey[],
    p: Plan,
  ) {
    super();
    if (p.cursor && (p.to === null || p.cursor.time < p.to)) {
      this.upper = [word, p.cursor.time];
      this.upperOpen = false;
    } else {
      this.upper = p.to !== null ? [word, p.to] : [word, []];
      this.upperOpen = true;
    }
  }

  async read(chunk: number): Promise<number> {
    if (indexedDB.cmp(this.lower, this.upper) > 0) {
      this.done = true;
      return 0;
    }
    let rows = await readBackwards(this.index, IDBKeyRange.bound(this.lower, this.upper, false, this.upperOpen), chunk);
    let read = rows.length;
    if (rows.length < chunk) this.done = true;
    else {
      const cut = rows[rows.length - 1]!.st;
      const before = rows.filter((r) => r.st !== cut);
      if (before.length > 0) {
        rows = before;
        this.upper = [this.word, cut];
        this.upperOpen = false;
      } else {
        // A whole chunk of one time: read that time whole.
        rows = await readBackwards(this.index, IDBKeyRange.only([this.word, cut]), Infinity);
        read += rows.length;
        this.upper = [this.word, cut];
        this.upperOpen = true;
      }
    }
    // Every row read now is older than those still held: the cut time was left for this read.
    this.rows = [...this.rows.slice(this.at), ...rows.sort(byNewest)];
    this.at = 0;
    return read;
  }
}

/** The `taken` ranges of a walk over these albums. */
function takenRuns(tx: AnyTx, p: Plan, albumIds: readonly string[]): Run[] {
  const index = unwrap(tx).objectStore('items').index('taken');
  const runs: Run[] = [];
  for (const albumId of albumIds) {
    for (const kind of p.kinds) {
      const lower: IDBValidKey[] = p.from !== null ? [albumId, 'a', kind, p.from] : [albumId, 'a', kind];
      let upper: IDBValidKey[] = p.to !== null ? [albumId, 'a', kind, p.to] : [albumId, 'a', kind, []];
      if (p.cursor) {
        const below: IDBValidKey[] = [albumId, 'a', kind, p.cursor.time, p.cursor.id];
        if (indexedDB.cmp(below, upper) < 0) upper = below;
      }
      if (indexedDB.cmp(lower, upper) < 0) runs.push(new TakenRun(index, lower, upper));
    }
  }
  return runs;
}

/** The distinct words of the `words` index that begin with `prefix`, or null when there are more than `max`. */
function wordsBeginning(index: IDBIndex, prefix: string, max: number): Promise<string[] | null> {
  return new Promise((resolve, reject) => {
    const found: string[] = [];
    const request = index.openKeyCursor(wordRange(prefix));
    request.onsuccess = () => {
      const cursor = request.result;
      if (!cursor) return resolve(found);
      const word = (cursor.key as [string, number])[0];
      found.push(word);
      if (found.length > max) return resolve(null);
      // Past every entry of this word: an array sorts after every number.
      cursor.continue([word, []]);
    };
    request.onerror = () => reject(request.error);
  });
}

/** The runs of a word walk: one per distinct word beginning with `prefix`; null when there are too many. */
async function wordRuns(tx: AnyTx, p: Plan, prefix: string): Promise<Run[] | null> {
  const index = unwrap(tx).objectStore('items').index('words');
  const words = await wordsBeginning(index, prefix, WALK_WORDS_MAX);
  return words && words.map((word) => new WordRun(index, word, p.from !== null ? [word, p.from] : [word], p));
}

const MAX_CHUNK = 500;

/**
 * The first `limit` + 1 results in the sort order, merging the runs; null when more than `budget` rows were
 * read before the page was full. A row found in two runs (two words of one prefix) counts once.
 */
async function walk(runs: Run[], p: Plan, budget: number, signal?: AbortSignal): Promise<ItemRecord[] | null> {
  const want = p.limit + 1;
  // Enough from each run to fill the page if the results were spread evenly (a few more: a word run ends a
  // chunk before the time it was cut in). Then, each time a run runs dry, what the rest of the page needs from
  // it at the share of rows found so far and the run's share of the rows taken: few rows read in vain, and
  // few requests one after the other when the criteria keep only a few (each is a round trip).
  const first = Math.min(want + 8, Math.max(8, Math.ceil((2 * want) / Math.max(1, runs.length))));
  const chunks = runs.map(() => first);
  const takes = runs.map(() => 0);
  let read = (await Promise.all(runs.map((r) => r.read(first)))).reduce((a, b) => a + b, 0);
  const out: ItemRecord[] = [];
  let previous: ItemRecord | undefined;
  while (out.length < want) {
    if (read > budget) return null;
    signal?.throwIfAborted();
    let best = -1;
    let head: ItemRecord | undefined;
    for (let i = 0; i < runs.length; i++) {
      const h = runs[i]!.head();
      if (h && (!head || byNewest(h, head) < 0)) {
        best = i;
        head = h;
      }
    }
    if (!head) break;
    const repeat = previous !== undefined && previous.id === head.id && previous.albumId === head.albumId;
    if (!repeat && matches(head, p)) out.push(head);
    previous = head;
    takes[best]!++;
    if (runs[best]!.take() && out.length < want) {
      // The rows the rest of the page needs from a run (one found in takes / out.length), read for this run
      // and, in the same round trip, for every run holding less than half of its share.
      const known = out.length >= 4;
      const need = (i: number) => (known ? Math.ceil((1.25 * (want - out.length) * takes[i]!) / out.length) + 8 : chunks[i]! * 2);
      const reads = runs.map((run, i) => {
        if (i === best) return Math.max(8, need(i));
        return known && run.more() && run.buffered() < need(i) / 2 ? need(i) - run.buffered() : 0;
      });
      const got = await Promise.all(
        reads.map((n, i) => {
          if (n <= 0) return 0;
          chunks[i] = Math.min(MAX_CHUNK, n);
          return runs[i]!.read(chunks[i]!);
        }),
      );
      read += got.reduce((a, b) => a + b, 0);
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
  const albums = (await tx.objectStore('albums').getAll()).filter((a) => p.albumId === null || a.id === p.albumId);
  const albumIds = albums.map((a) => a.id);
  if (p.words.length === 0) return pageOf((await walk(takenRuns(tx, p, albumIds), p, Infinity, signal)) ?? [], p.limit);

  // [Note: Local search]
  const index = tx.objectStore('items').index('words');
  const counts = await Promise.all(p.words.map((w) => index.count(wordRange(w))));
  let rarest = 0;
  counts.forEach((n, i) => {
    if (n < counts[rarest]!) rarest = i;
  });
  const fewest = counts[rarest]!;
  const word = p.words[rarest]!;
  if (fewest === 0) return { rows: [], nextCursor: null };
  if (fewest > 2 * (p.limit + 1)) {
    // An album with fewer items than the word: walking the album reads fewer rows than the word walk would.
    const inAlbum = p.albumId !== null && albums.reduce((n, a) => n + a.itemCount, 0) < fewest;
    const runs = inAlbum ? takenRuns(tx, p, albumIds) : await wordRuns(tx, p, word);
    if (runs) return pageOf((await walk(runs, p, Infinity, signal)) ?? [], p.limit);
    if (fewest > CANDIDATES_MAX) {
      const walked = await walk(takenRuns(tx, p, albumIds), p, fewest, signal);
      if (walked) return pageOf(walked, p.limit);
    }
  }
  return pageOf(await candidates(tx, p, word), p.limit);
}

/** Search on IndexedDB. */
export class LocalSearch implements SearchPort {
  constructor(private readonly deps: LocalDataDeps) {}

  searchItems(query: SearchQuery, opts: CallOptions = {}): Promise<Page<Item>> {
    return guard(opts.signal, async () => {
      const p = parseQuery(query);
      const profile = await this.deps.profile();
      // Rows stored before search words existed are searched only once they have theirs.
      await searchWordsFilled(this.deps.db);
      return readTransaction(this.deps, opts.signal, (tx) => search(tx, p, profile.id, opts.signal));
    });
  }
}
