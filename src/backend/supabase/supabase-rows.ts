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
import { isTakenOffset, LOCATION_NOTES } from '../../lib/item-metadata';
import type { MonthCount } from '../../domain/queries';
import type { FinalizeItemInput } from '../../domain/inputs';
import type { AlbumChange, ChangeOp, CommentChange, FavoriteChange, MemberChange } from '../ports';
import type { Activity, Album, Invite, InvitePreview, InviteRole, Item, ItemKind, ItemLocationNote, ItemMetadata, ItemStatus, Profile, Role } from '../../domain/entities';

export type Row = Record<string, unknown>;

/** The rows of an answer (the parsers below check each); a body that holds no rows is a broken server. */
export function rows(data: unknown): Row[] {
  if (Array.isArray(data)) return data as Row[];
  if (data === null || data === undefined) return [];
  if (typeof data === 'object') return [data as Row];
  throw new AppError('backend/unreachable', 'The server sent an answer the app cannot read (not rows).', { details: { received: typeof data } });
}

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
const VERBS: readonly Activity['verb'][] = [
  'added_items',
  'created_album',
  'commented',
  'joined',
  'trashed_items',
  'restored_items',
  'left',
  'removed_member',
  'changed_role',
  'transferred_ownership',
];

const iso = (value: string): string => new Date(parseTime(value)).toISOString();
const isoOrNull = (value: string | null): string | null => (value === null ? null : iso(value));
const toNumber = (value: number | string): number => Number(value);
const toNumberOrNull = (value: number | string | null): number | null => (value === null ? null : Number(value));

/** The row parsed, or `backend/unreachable` with the issues: a server that sends this is not one the app can use. */
function parse<S extends z.ZodMiniType>(schema: S, row: unknown, what: string): z.output<S> {
  const result = schema.safeParse(row);
  if (result.success) return result.data;
  const columns = [...new Set(result.error.issues.map((i) => i.path.join('.')))].join(', ');
  throw new AppError('backend/unreachable', `The server sent ${what} the app cannot read (${columns}).`, { cause: result.error, details: { unreadable: what } });
}

/** The server answered, with a row the app cannot read (not a network failure). */
export function isUnreadableRow(e: unknown): boolean {
  return e instanceof AppError && typeof e.details?.unreadable === 'string';
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
  keep_location: z.boolean(),
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
    keepLocation: r.keep_location,
  };
}

const METADATA_NUMBERS = ['exposureTime', 'fNumber', 'iso', 'focalLength', 'rating'] as const;
const METADATA_TEXTS = ['cameraMake', 'cameraModel', 'lens', 'title', 'description', 'label', 'creator', 'rights'] as const;

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
  if (Array.isArray(source.keywordPaths)) out.keywordPaths = source.keywordPaths.filter((k): k is string => typeof k === 'string');
  if (source.notice === 'image/undecodable' || source.notice === 'image/too-large') out.notice = source.notice;
  if ((LOCATION_NOTES as readonly unknown[]).includes(source.location)) out.location = source.location as ItemLocationNote;
  if (source.animated === true) out.animated = true;
  if (source.sidecar === true) out.sidecar = true;
  if (isTakenOffset(source.takenOffset)) out.takenOffset = source.takenOffset;
  return out;
}

/** A row of `items`. */
const ITEM = z.object({
  id: text,
  album_id: text,
  // No uploader once their account is gone.
  uploader_id: z.nullable(text),
  guest_label: z.optional(z.nullable(text)),
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
  // [Note: Originals stored compressed] (the migrations); absent from rows of older servers.
  stored_encoding: z.optional(z.nullable(text)),
  stored_bytes: z.optional(z.nullable(whole)),
  preview_key: z.nullable(text),
  thumb_key: z.nullable(text),
  thumbhash: z.nullable(text),
  metadata: jsonObject,
  created_at: timestamp,
  deleted_at: z.nullable(timestamp),
  edited_at: z.optional(z.nullable(timestamp)),
});

export function toItem(row: unknown): Item {
  const r = parse(ITEM, row, 'an item');
  return {
    id: r.id,
    albumId: r.album_id,
    uploaderId: r.uploader_id ?? '',
    ...(r.guest_label ? { guestLabel: r.guest_label } : {}),
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
    ...(r.stored_encoding === 'gzip' && r.stored_bytes != null ? { storedEncoding: 'gzip' as const, storedBytes: toNumber(r.stored_bytes) } : {}),
    previewKey: r.preview_key,
    thumbKey: r.thumb_key,
    thumbhash: r.thumbhash,
    metadata: toMetadata(r.metadata),
    createdAt: iso(r.created_at),
    deletedAt: isoOrNull(r.deleted_at),
    ...(r.edited_at ? { editedAt: iso(r.edited_at) } : {}),
  };
}

/** What a finished upload says of its item, as `finalize_item` (and the guest's finalize) take it. */
export function toFinalizeInput(input: FinalizeItemInput): Row {
  return {
    sha256: input.sha256,
    width: input.width,
    height: input.height,
    duration_ms: input.durationMs,
    taken_at: input.takenAt,
    has_preview: input.hasPreview,
    has_thumb: input.hasThumb,
    thumbhash: input.thumbhash,
    metadata: input.metadata,
  };
}

/** A row of `count_items_by_month`. */
const MONTH_COUNT = z.object({ month: text, count: whole });

export function toMonthCount(row: unknown): MonthCount {
  const r = parse(MONTH_COUNT, row, 'a month count');
  return { month: r.month, count: toNumber(r.count) };
}

/** A row of `unread_counts()`. */
const UNREAD = z.object({ album_id: text, unread: whole });

export function toUnreadCount(row: unknown): { albumId: string; unread: number } {
  const r = parse(UNREAD, row, 'an unread count');
  return { albumId: r.album_id, unread: toNumber(r.unread) };
}

/** A row of the `activity_feed` view. */
const ACTIVITY = z.object({
  id: text,
  album_id: text,
  album_title: text,
  // No actor once their account is gone; no name once the caller cannot see them (they left).
  actor_id: z.nullable(text),
  actor_name: z.nullable(text),
  verb: oneOf(VERBS),
  subject: z.nullable(text),
  subject_kind: z.nullable(oneOf(KINDS)),
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
    subjectId: r.subject,
    subjectKind: r.subject_kind,
    count: toNumber(r.count),
    createdAt: iso(r.created_at),
  };
}

/** A row of `album_members`, before the names are joined in. */
const MEMBERSHIP = z.object({ user_id: text, role: oneOf(ROLES), added_by: z.nullable(text), created_at: timestamp });

export interface Membership {
  userId: string;
  role: Role;
  addedBy: string | null;
  createdAt: string;
}

export function toMembership(row: unknown): Membership {
  const r = parse(MEMBERSHIP, row, 'a member');
  return { userId: r.user_id, role: r.role, addedBy: r.added_by, createdAt: iso(r.created_at) };
}

/** The columns of `profiles` a member list shows. */
const PROFILE_CARD = z.object({ id: text, display_name: text, avatar_key: z.nullable(text) });

export function toProfileCard(row: unknown): { id: string; displayName: string; avatarKey: string | null } {
  const r = parse(PROFILE_CARD, row, 'a profile');
  return { id: r.id, displayName: r.display_name, avatarKey: r.avatar_key };
}

const INVITE_ROLES: readonly InviteRole[] = ['editor', 'contributor', 'viewer'];
/** The columns of `invites` a client may read (never token_hash). */
export const INVITE_COLUMNS = 'id,album_id,role,email,expires_at,max_uses,use_count,created_by,created_at,revoked_at';
const INVITE = z.object({
  id: text,
  album_id: text,
  role: oneOf(INVITE_ROLES),
  email: z.nullable(text),
  expires_at: timestamp,
  max_uses: z.nullable(whole),
  use_count: whole,
  created_by: z.nullable(text),
  created_at: timestamp,
  revoked_at: z.nullable(timestamp),
});

export function toInvite(row: unknown): Invite {
  const r = parse(INVITE, row, 'an invitation');
  return {
    id: r.id,
    albumId: r.album_id,
    role: r.role,
    email: r.email,
    expiresAt: iso(r.expires_at),
    maxUses: toNumberOrNull(r.max_uses),
    useCount: toNumber(r.use_count),
    createdBy: r.created_by,
    createdAt: iso(r.created_at),
    revokedAt: isoOrNull(r.revoked_at),
  };
}

/** A row of `create_invite`: the new invitation's id and its token, which is sent this once. */
const NEW_INVITE = z.object({ invite_id: text, token: z.string().check(z.minLength(16)) });

export function toNewInvite(row: unknown): { inviteId: string; token: string } {
  const r = parse(NEW_INVITE, row, 'an invitation');
  return { inviteId: r.invite_id, token: r.token };
}

/** A row of `invite_preview`. */
const INVITE_PREVIEW = z.object({ album_title: text, cover_thumb_key: z.nullable(text), inviter_name: text, cover_thumbhash: z.nullable(text) });

export function toInvitePreview(row: unknown): InvitePreview {
  const r = parse(INVITE_PREVIEW, row, 'an invitation');
  return { albumTitle: r.album_title, coverThumbKey: r.cover_thumb_key, coverThumbhash: r.cover_thumbhash, inviterName: r.inviter_name };
}

/** A row of `album_summaries` reduced to its id (what accept_invite answers with). */
const ALBUM_ID = z.object({ id: text });

export function toAlbumId(row: unknown): string {
  return parse(ALBUM_ID, row, 'an album').id;
}

// Rows of the `change` messages the database sends (private.send_change): the table's own row (to_jsonb), or
// only its key for a delete. Each is parsed as the reads' rows are; a change the app cannot read is `null` to
// its caller, who reads the data again.

/** An `albums` row: its own columns only (no role, no cover thumbnail: those are joined in by the reads). */
const ALBUM_CHANGE = z.object({
  title: text,
  description: text,
  cover_item_id: z.nullable(text),
  item_count: whole,
  bytes_total: whole,
  updated_at: timestamp,
});

export function toAlbumChange(row: unknown): AlbumChange {
  const r = parse(ALBUM_CHANGE, row, 'an album change');
  return { title: r.title, description: r.description, coverItemId: r.cover_item_id, itemCount: toNumber(r.item_count), bytesTotal: toNumber(r.bytes_total), updatedAt: iso(r.updated_at) };
}

/** An `album_members` row, or its key (a delete). */
const MEMBER_CHANGE = z.object({ user_id: text, role: z.optional(oneOf(ROLES)) });

export function toMemberChange(row: unknown, op: ChangeOp): MemberChange {
  const r = parse(MEMBER_CHANGE, row, 'a member change');
  if (op !== 'delete' && !r.role) throw new AppError('backend/unreachable', 'The server sent a member change without a role.', { details: { unreadable: 'a member change' } });
  return { userId: r.user_id, role: op === 'delete' ? null : (r.role ?? null) };
}

/** A `comments` row. */
const COMMENT_CHANGE = z.object({ item_id: text, author_id: z.nullable(text), body: text, created_at: timestamp, edited_at: z.nullable(timestamp) });

export function toCommentChange(row: unknown): CommentChange {
  const r = parse(COMMENT_CHANGE, row, 'a comment change');
  return { itemId: r.item_id, authorId: r.author_id, body: r.body, createdAt: iso(r.created_at), editedAt: isoOrNull(r.edited_at) };
}

/** A `favorites` row, or its key (a delete). */
const FAVORITE_CHANGE = z.object({ item_id: text, user_id: text, created_at: z.optional(timestamp) });

export function toFavoriteChange(row: unknown): FavoriteChange {
  const r = parse(FAVORITE_CHANGE, row, 'a heart change');
  return { itemId: r.item_id, userId: r.user_id, createdAt: r.created_at === undefined ? null : iso(r.created_at) };
}

/** The parts the share link rows (supabase-share-links.ts) are read with. */
export { parse as parseRow, text, timestamp, whole, iso, isoOrNull, toNumber, toNumberOrNull };
