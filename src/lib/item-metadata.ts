/**
 * The bound on an item's metadata (PRODUCT.md §9): only the fields of ItemMetadata, with their types, at most
 * 16 KiB of JSON in all and 200 keywords of up to 100 characters. The database refuses anything else
 * (private.is_item_metadata in supabase/migrations/20261123120100_item_metadata_bound.sql); `itemMetadata` in
 * validation.ts states the same rule for the local backend, and `boundItemMetadata` makes any metadata fit
 * it, so the uploader never sends what would be refused: a photo is never lost because of its metadata.
 * No zod here: the media worker uses this file.
 */
import type { ItemMetadata } from '../domain/entities';

export const METADATA_MAX_BYTES = 16 * 1024;
export const KEYWORDS_MAX = 200;
export const KEYWORD_MAX_CHARS = 100;
/** A keyword with its ancestors (`Places|Portugal|Porto`); a longer one is left out rather than cut mid-level. */
export const KEYWORD_PATH_MAX_CHARS = 200;
/** Clocks run from UTC−12:00 to UTC+14:00: a capture time's offset is bounded at ±14 h (the database's bound too). */
export const TAKEN_OFFSET_MAX_MINUTES = 14 * 60;
export const isTakenOffset = (v: unknown): v is number => Number.isInteger(v) && Math.abs(v as number) <= TAKEN_OFFSET_MAX_MINUTES;

// [Note: Photos filed by the clock where they were taken]
// A photo taken at 21:30 in New York on 31 January is a photo of 31 January, as its camera showed and as the
// person remembers it, though in UTC it was taken on 1 February. So the grid sorts and files photos by the clock
// where they were taken: `takenAt` (an instant) moved by its offset (`metadata.takenOffset`, when the file gave
// one) and read as if it were UTC. A date the file gave without an offset is kept as that clock already
// ([Note: A capture time's offset]), so it needs nothing. The backends sort and count by the same time: the
// `sort_taken` column (supabase/migrations/20261208100000_items_filed_by_wall_clock.sql) and the local rows'
// `st` (src/backend/local/local-list-fields.ts); the app places live changes by it (src/shared/live/item-order.ts).
// The date added is an instant of the upload: it stays in UTC.

/** When an item was taken, as the clock read where it was taken, in ms as if that clock were UTC; NaN when not known. */
export function takenWallClock(item: { takenAt: string | null; metadata?: { takenOffset?: number } }): number {
  const taken = item.takenAt ? Date.parse(item.takenAt) : Number.NaN;
  const offset = item.metadata?.takenOffset;
  return isTakenOffset(offset) ? taken + offset * 60_000 : taken;
}
/** Longer texts are cut on the way in (as the XMP and EXIF readers cut them); the database bounds the total. */
const LONG_TEXT_MAX_CHARS = 2000;
const TEXT_MAX_CHARS = 200;

const TEXT_KEYS = ['cameraMake', 'cameraModel', 'lens', 'title', 'description', 'label', 'creator', 'rights'] as const;
const NUMBER_KEYS = ['exposureTime', 'fNumber', 'iso', 'focalLength', 'rating'] as const;
export const NOTICES = ['image/undecodable', 'image/too-large'] as const;
export const LOCATION_NOTES = ['removed', 'preview', 'kept'] as const;

/** At most `max` characters; only the first 2 × max UTF-16 units are looked at, so a 20 MiB text costs nothing. */
const cut = (text: string, max: number) => (text.length <= max ? text : [...text.slice(0, max * 2)].slice(0, max).join('').trim());
/** Postgres' jsonb holds no NUL and no half of a surrogate pair: either would refuse the whole request. */
// eslint-disable-next-line no-control-regex
const storable = (text: string) => text.replace(/\u0000/g, '').replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

/**
 * The size of `value` as Postgres prints a jsonb (`{"a": 1, "b": [1, 2]}`: a space after every colon and
 * comma), which is what the database measures. Numbers in exponent form are counted as if written out,
 * as Postgres writes them: an upper bound, never an underestimate.
 */
export function jsonbTextBytes(value: unknown): number {
  if (typeof value === 'string') return utf8Bytes(JSON.stringify(value));
  if (typeof value === 'number') {
    const s = String(value);
    const e = /e([+-]\d+)$/.exec(s);
    return s.length + (e ? Math.abs(Number(e[1])) : 0);
  }
  if (Array.isArray(value)) {
    return 2 + value.reduce<number>((n, v) => n + jsonbTextBytes(v), 0) + Math.max(value.length - 1, 0) * 2;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return 2 + entries.reduce((n, [k, v]) => n + utf8Bytes(JSON.stringify(k)) + 2 + jsonbTextBytes(v), 0) + Math.max(entries.length - 1, 0) * 2;
  }
  return JSON.stringify(value ?? null).length;
}

/**
 * `metadata` cut down to what the database accepts: known fields of the right type only, the first 200
 * keywords cut to 100 characters, long texts cut; then, while it is still over 16 KiB, keywords are dropped
 * from the end, then the description and the title.
 */
export function boundItemMetadata(metadata: unknown): ItemMetadata {
  if (!metadata || typeof metadata !== 'object' || Array.isArray(metadata)) return {};
  const source = metadata as Record<string, unknown>;
  const out: ItemMetadata = {};
  for (const key of TEXT_KEYS) {
    const v = source[key];
    if (typeof v === 'string') out[key] = cut(storable(v), key === 'description' || key === 'title' || key === 'rights' ? LONG_TEXT_MAX_CHARS : TEXT_MAX_CHARS);
  }
  for (const key of NUMBER_KEYS) {
    const v = source[key];
    if (typeof v === 'number' && Number.isFinite(v)) out[key] = v;
  }
  if (Array.isArray(source.keywords)) {
    out.keywords = source.keywords
      .filter((k): k is string => typeof k === 'string')
      .map((k) => cut(storable(k), KEYWORD_MAX_CHARS))
      .filter((k) => k.length > 0)
      .slice(0, KEYWORDS_MAX);
  }
  if (Array.isArray(source.keywordPaths)) {
    const paths = source.keywordPaths
      .filter((p): p is string => typeof p === 'string')
      .map((p) => storable(p))
      .filter((p) => p.length > 0 && [...p].length <= KEYWORD_PATH_MAX_CHARS)
      .slice(0, KEYWORDS_MAX);
    if (paths.length) out.keywordPaths = paths;
  }
  if ((NOTICES as readonly unknown[]).includes(source.notice)) out.notice = source.notice as ItemMetadata['notice'];
  if ((LOCATION_NOTES as readonly unknown[]).includes(source.location)) out.location = source.location as ItemMetadata['location'];
  if (source.animated === true) out.animated = true;
  if (source.sidecar === true) out.sidecar = true;
  if (isTakenOffset(source.takenOffset)) out.takenOffset = source.takenOffset;

  while (jsonbTextBytes(out) > METADATA_MAX_BYTES && out.keywordPaths?.length) out.keywordPaths = out.keywordPaths.slice(0, -1);
  if (out.keywordPaths?.length === 0) delete out.keywordPaths;
  while (jsonbTextBytes(out) > METADATA_MAX_BYTES && out.keywords?.length) out.keywords = out.keywords.slice(0, -1);
  for (const key of ['description', 'rights', 'title', 'creator', 'label', 'lens', 'cameraModel', 'cameraMake'] as const) {
    if (jsonbTextBytes(out) <= METADATA_MAX_BYTES) break;
    delete out[key];
  }
  return out;
}
