/**
 * [Note: Search words]
 * An item is found by words. Its filename, title, description, keywords, camera make, camera model and lens
 * (in that order) are cut into words: runs of letters and digits, lower-cased and folded to unaccented letters
 * (É → e, ß → ss, Æ → ae, Ł → l), each cut to SEARCH_WORD_MAX_CHARS, the
 * first ITEM_WORDS_MAX distinct ones kept. A search's text is cut the same way (its first SEARCH_WORDS_MAX
 * words), and each of its words must begin a word of the item: "port" finds Porto, "img 12" finds
 * IMG_1234.JPG, "ete" finds Été. The database makes the same words in SQL, whatever its locale ([Note: Search
 * words in SQL] in supabase/migrations/20261201100000_item_search.sql), and the search contract
 * (src/testing/contract/search-contract.ts) holds both backends to the same answers.
 */
import type { ItemMetadata } from '../domain/entities';
import { SEARCH_WORDS_MAX } from '../domain/queries';

export const SEARCH_WORD_MAX_CHARS = 64;
export const ITEM_WORDS_MAX = 512;

/** Letters NFKD leaves whole that are still folded, as a reader would expect (Straße → strasse). */
const FOLD: Record<string, string> = { æ: 'ae', œ: 'oe', ø: 'o', ß: 'ss', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ħ: 'h', ŧ: 't' };
const FOLDABLE = new RegExp(`[${Object.keys(FOLD).join('')}]`, 'gu');

/** The words of a text, in order, repeats included. */
function words(text: string): string[] {
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(FOLDABLE, (c) => FOLD[c] ?? c);
  return folded
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '')
    .map((w) => (w.length > SEARCH_WORD_MAX_CHARS ? [...w].slice(0, SEARCH_WORD_MAX_CHARS).join('') : w));
}

function distinct(list: string[], max: number): string[] {
  return [...new Set(list)].slice(0, max);
}

/** The words a search's text asks for (at most SEARCH_WORDS_MAX, repeats dropped). */
export function queryWords(text: string): string[] {
  return distinct(words(text), SEARCH_WORDS_MAX);
}

/** The words an item is found by. */
export function itemWords(item: { filename: string; metadata: ItemMetadata }): string[] {
  const m = item.metadata;
  const parts = [item.filename, m.title, m.description, ...(m.keywords ?? []), m.cameraMake, m.cameraModel, m.lens];
  return distinct(
    parts.flatMap((p) => (typeof p === 'string' ? words(p) : [])),
    ITEM_WORDS_MAX,
  );
}

/** Whether every query word begins one of the item's words. */
export function wordsMatch(item: readonly string[], query: readonly string[]): boolean {
  return query.every((q) => item.some((w) => w.startsWith(q)));
}
