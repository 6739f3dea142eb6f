/**
 * Rows as PostgREST sends them (snake_case, Postgres timestamps, bigints as numbers) → the ports' entities
 * (camelCase, ISO timestamps, plain data). Unknown columns are dropped, so nothing of the wire leaks out.
 */
import type { Activity, Album, Item, ItemKind, ItemMetadata, ItemStatus, Profile, Role } from '../ports';

export type Row = Record<string, unknown>;

/** Postgres `timestamptz` text (`2024-03-01 10:00:00.123456+00`) as an ISO string in UTC, ms precision. */
export function isoTime(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  // Postgres may send a space between date and time, and microseconds: both parse after a small fix.
  const normal = value.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00');
  const t = Date.parse(normal);
  return Number.isNaN(t) ? value : new Date(t).toISOString();
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value);
}

function textOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function num(value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : 0;
}

function numOrNull(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : null;
}

const ROLES: readonly Role[] = ['owner', 'editor', 'contributor', 'viewer'];
const KINDS: readonly ItemKind[] = ['image', 'video', 'file'];
const STATUSES: readonly ItemStatus[] = ['uploading', 'ready', 'failed'];
const VERBS: readonly Activity['verb'][] = ['added_items', 'created_album', 'commented', 'joined', 'trashed_items', 'restored_items'];

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

export function toProfile(row: Row): Profile {
  return {
    id: text(row.id),
    displayName: text(row.display_name),
    avatarKey: textOrNull(row.avatar_key),
    createdAt: isoTime(row.created_at) ?? '',
  };
}

/** A row of the `album_summaries` view. */
export function toAlbum(row: Row): Album {
  return {
    id: text(row.id),
    ownerId: text(row.owner_id),
    title: text(row.title),
    description: text(row.description),
    coverItemId: textOrNull(row.cover_item_id),
    coverThumbKey: textOrNull(row.cover_thumb_key),
    coverThumbhash: textOrNull(row.cover_thumbhash),
    itemCount: num(row.item_count),
    bytesTotal: num(row.bytes_total),
    createdAt: isoTime(row.created_at) ?? '',
    updatedAt: isoTime(row.updated_at) ?? '',
    role: oneOf(row.role, ROLES, 'viewer'),
  };
}

const METADATA_NUMBERS = ['exposureTime', 'fNumber', 'iso', 'focalLength', 'rating'] as const;
const METADATA_TEXTS = ['cameraMake', 'cameraModel', 'lens', 'title', 'description', 'label'] as const;

/** The `metadata` jsonb, keeping only the fields the app knows, with their types. */
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
export function toItem(row: Row): Item {
  return {
    id: text(row.id),
    albumId: text(row.album_id),
    uploaderId: text(row.uploader_id),
    kind: oneOf(row.kind, KINDS, 'file'),
    status: oneOf(row.status, STATUSES, 'uploading'),
    filename: text(row.filename),
    mime: text(row.mime),
    bytes: num(row.bytes),
    sha256: textOrNull(row.sha256),
    width: numOrNull(row.width),
    height: numOrNull(row.height),
    durationMs: numOrNull(row.duration_ms),
    takenAt: isoTime(row.taken_at),
    originalKey: text(row.original_key),
    previewKey: textOrNull(row.preview_key),
    thumbKey: textOrNull(row.thumb_key),
    thumbhash: textOrNull(row.thumbhash),
    metadata: toMetadata(row.metadata),
    createdAt: isoTime(row.created_at) ?? '',
    deletedAt: isoTime(row.deleted_at),
  };
}

/** A row of the `activity_feed` view. */
export function toActivity(row: Row): Activity {
  return {
    id: text(row.id),
    albumId: text(row.album_id),
    albumTitle: text(row.album_title),
    actorId: text(row.actor_id ?? row.actor),
    actorName: text(row.actor_name),
    verb: oneOf(row.verb, VERBS, 'added_items'),
    count: num(row.count ?? 1),
    createdAt: isoTime(row.created_at) ?? '',
  };
}

/** Any row of a realtime change, camelCased, with timestamps as ISO strings: plain data for the app. */
export function toPlainRow(row: Row): { id: string } & Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    const camel = key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    out[camel] = /(_at|^sort_taken)$/.test(key) ? isoTime(value) : value;
  }
  return { ...out, id: text(row.id) };
}
