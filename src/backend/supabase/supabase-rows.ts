/**
 * Rows as PostgREST sends them (snake_case, Postgres timestamps, bigints as numbers) → the ports' entities
 * (camelCase, ISO timestamps, plain data). Each row is parsed against the columns the app reads: a column
 * missing or of another type fails the call with `backend/unreachable` (the parse's issues as its cause)
 * rather than coming out as a zero or an empty string. Unknown columns are dropped, so nothing of the wire
 * leaks out.
 */
// zod/mini, as in lib/validation.ts: tree-shakable, and this adapter loads only with a Supabase backend.
import * as z from 'zod/mini';
import { AppError } from '../../lib/app-error';
import type { Activity, Album, Item, ItemKind, ItemMetadata, ItemStatus, MonthCount, Profile, Role } from '../ports';

export type Row = Record<string, unknown>;

/** Postgres `timestamptz` text (`2024-03-01 10:00:00.123456+00`) as an ISO string in UTC, ms precision. */
export function isoTime(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  const t = parseTime(value);
  return Number.isNaN(t) ? value : new Date(t).toISOString();
}

// Postgres may send a space between date and time, and microseconds: both parse after a small fix.
const parseTime = (value: string): number => Date.parse(value.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00'));

const text = z.string();
const timestamp = z.string().check(z.refine((v) => !Number.isNaN(parseTime(v)), 'Expected a timestamp'));
// z.custom rather than z.union, z.int, z.enum and z.record: the zod code they pull in would land in the
// first screen's chunk, which shares zod/mini with lib/validation.ts.
/** A count or a size: a whole number, which a client may also receive as its decimal text. */
const whole = z.custom<number | string>((v) => Number.isSafeInteger(v) || (typeof v === 'string' && /^-?\d+$/.test(v)), 'Expected a whole number');
const oneOf = <T extends string>(allowed: readonly T[]) => z.custom<T>((v) => allowed.includes(v as T), `Expected one of ${allowed.join(', ')}`);
const jsonObject = z.custom<Record<string, unknown>>((v) => !!v && typeof v === 'object' && !Array.isArray(v), 'Expected an object');
const ROLES: readonly Role[] = ['owner', 'editor', 'contributor', 'viewer'];
const KINDS: readonly ItemKind[] = ['image', 'video', 'file'];
const STATUSES: readonly ItemStatus[] = ['uploading', 'ready', 'failed'];
const VERBS: readonly Activity['verb'][] = ['added_items', 'created_album', 'commented', 'joined', 'trashed_items', 'restored_items'];

const iso = (value: string): string => new Date(parseTime(value)).toISOString();
const isoOrNull = (value: string | null): string | null => (value === null ? null : iso(value));
const toNumber = (value: number | string): number => Number(value);
const toNumberOrNull = (value: number | string | null): number | null => (value === null ? null : Number(value));

/** The row parsed, or `backend/unreachable` with the issues: a server that sends this is not one the app can use. */
function parse<S extends z.ZodMiniType>(schema: S, row: unknown, what: string): z.output<S> {
  const result = schema.safeParse(row);
  if (result.success) return result.data;
  const columns = [...new Set(result.error.issues.map((i) => i.path.join('.')))].join(', ');
  throw new AppError('backend/unreachable', `The server sent ${what} the app cannot read (${columns}).`, { cause: result.error });
}

const PROFILE = z.object({ id: text, display_name: text, avatar_key: z.nullable(text), created_at: timestamp });

export function toProfile(row: unknown): Profile {
  const r = parse(PROFILE, row, 'a profile');
  return { id: r.id, displayName: r.display_name, avatarKey: r.avatar_key, createdAt: iso(r.created_at) };
}

/** A row of the `album_summaries` view. */
const ALBUM = z.object({
  id: text,
  owner_id: text,
  title: text,
  description: text,
  cover_item_id: z.nullable(text),
  cover_thumb_key: z.nullable(text),
  cover_thumbhash: z.nullable(text),
  item_count: whole,
  bytes_total: whole,
  created_at: timestamp,
  updated_at: timestamp,
  role: oneOf(ROLES),
});

export function toAlbum(row: unknown): Album {
  const r = parse(ALBUM, row, 'an album');
  return {
    id: r.id,
    ownerId: r.owner_id,
    title: r.title,
    description: r.description,
    coverItemId: r.cover_item_id,
    coverThumbKey: r.cover_thumb_key,
    coverThumbhash: r.cover_thumbhash,
    itemCount: toNumber(r.item_count),
    bytesTotal: toNumber(r.bytes_total),
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    role: r.role,
  };
}

const METADATA_NUMBERS = ['exposureTime', 'fNumber', 'iso', 'focalLength', 'rating'] as const;
const METADATA_TEXTS = ['cameraMake', 'cameraModel', 'lens', 'title', 'description', 'label'] as const;

/**
 * The `metadata` jsonb, keeping only the fields the app knows, with their types. Its fields come from the
 * files' own EXIF and XMP, so one of another type is left out rather than failing the item.
 */
export function toMetadata(value: unknown): ItemMetadata {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const source = value as Record<string, unknown>;
  const out: ItemMetadata = {};
  for (const key of METADATA_TEXTS) if (typeof source[key] === 'string') out[key] = source[key];
  for (const key of METADATA_NUMBERS) if (typeof source[key] === 'number' && Number.isFinite(source[key])) out[key] = source[key];
  if (Array.isArray(source.keywords)) out.keywords = source.keywords.filter((k): k is string => typeof k === 'string');
  if (source.notice === 'image/undecodable' || source.notice === 'image/too-large') out.notice = source.notice;
  return out;
}

/** A row of `items`. */
const ITEM = z.object({
  id: text,
  album_id: text,
  // No uploader once their account is gone.
  uploader_id: z.nullable(text),
  kind: oneOf(KINDS),
  status: oneOf(STATUSES),
  filename: text,
  mime: text,
  bytes: whole,
  sha256: z.nullable(text),
  width: z.nullable(whole),
  height: z.nullable(whole),
  duration_ms: z.nullable(whole),
  taken_at: z.nullable(timestamp),
  original_key: text,
  preview_key: z.nullable(text),
  thumb_key: z.nullable(text),
  thumbhash: z.nullable(text),
  metadata: jsonObject,
  created_at: timestamp,
  deleted_at: z.nullable(timestamp),
});

export function toItem(row: unknown): Item {
  const r = parse(ITEM, row, 'an item');
  return {
    id: r.id,
    albumId: r.album_id,
    uploaderId: r.uploader_id ?? '',
    kind: r.kind,
    status: r.status,
    filename: r.filename,
    mime: r.mime,
    bytes: toNumber(r.bytes),
    sha256: r.sha256,
    width: toNumberOrNull(r.width),
    height: toNumberOrNull(r.height),
    durationMs: toNumberOrNull(r.duration_ms),
    takenAt: isoOrNull(r.taken_at),
    originalKey: r.original_key,
    previewKey: r.preview_key,
    thumbKey: r.thumb_key,
    thumbhash: r.thumbhash,
    metadata: toMetadata(r.metadata),
    createdAt: iso(r.created_at),
    deletedAt: isoOrNull(r.deleted_at),
  };
}

/** A row of `count_items_by_month`. */
const MONTH_COUNT = z.object({ month: text, count: whole });

export function toMonthCount(row: unknown): MonthCount {
  const r = parse(MONTH_COUNT, row, 'a month count');
  return { month: r.month, count: toNumber(r.count) };
}

/** A row of the `activity_feed` view. */
const ACTIVITY = z.object({
  id: text,
  album_id: text,
  album_title: text,
  // No actor once their account is gone; the view then names them ''.
  actor_id: z.nullable(text),
  actor_name: text,
  verb: oneOf(VERBS),
  count: whole,
  created_at: timestamp,
});

export function toActivity(row: unknown): Activity {
  const r = parse(ACTIVITY, row, 'an activity');
  return {
    id: r.id,
    albumId: r.album_id,
    albumTitle: r.album_title,
    actorId: r.actor_id ?? '',
    actorName: r.actor_name,
    verb: r.verb,
    count: toNumber(r.count),
    createdAt: iso(r.created_at),
  };
}

/** Any row of a realtime change, camelCased, with timestamps as ISO strings: plain data for the app. */
export function toPlainRow(row: Row): { id: string } & Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    const camel = key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    out[camel] = /(_at|^sort_taken)$/.test(key) ? isoTime(value) : value;
  }
  return { ...out, id: typeof row.id === 'string' ? row.id : row.id === null || row.id === undefined ? '' : String(row.id) };
}
