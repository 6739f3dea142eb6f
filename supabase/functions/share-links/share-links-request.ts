/** The share-links requests (as src/backend/supabase/supabase-share-links.ts sends them), checked field by field; a bad field is `validation/invalid` naming it. */
import { failure } from '../_shared/http.ts';
import { isAcceptablePassword } from '../_shared/password-hash.ts';

export interface CreateInput {
  op: 'create';
  albumId: string;
  label: string | null;
  password?: string;
  /** Absent: 30 days; null: never. */
  expiresAt?: string | null;
  allowDownload: boolean;
  allowGuestUpload: boolean;
  maxViews: number | null;
  guestMaxFiles: number | null;
  guestMaxBytes: number | null;
}

export interface SetPasswordInput {
  op: 'set-password';
  linkId: string;
  password: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const invalid = (field: string, message: string) => failure(400, 'validation/invalid', message, {}, { field, rule: 'invalid' });

const optionalInt = (v: unknown, min: number, max: number) =>
  v === undefined || v === null || (Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max);

export function parseRequest(body: Record<string, unknown> | null): CreateInput | SetPasswordInput | Response {
  if (!body) return failure(400, 'validation/invalid', 'Send { op: "create" | "set-password", … }.');
  if (body.op === 'set-password') {
    if (typeof body.linkId !== 'string' || !UUID.test(body.linkId)) return invalid('linkId', 'linkId is not a link id.');
    if (body.password !== null && !isAcceptablePassword(body.password)) return invalid('password', 'A password has 8 to 128 characters.');
    return { op: 'set-password', linkId: body.linkId.toLowerCase(), password: body.password as string | null };
  }
  if (body.op !== 'create') return invalid('op', 'Unknown operation.');
  const { albumId, label, password, expiresAt, allowDownload, allowGuestUpload, maxViews, guestMaxFiles, guestMaxBytes } = body;
  if (typeof albumId !== 'string' || !UUID.test(albumId)) return invalid('albumId', 'albumId is not an album id.');
  if (label !== undefined && label !== null && typeof label !== 'string') return invalid('label', 'A label is text.');
  if (password !== undefined && !isAcceptablePassword(password)) return invalid('password', 'A password has 8 to 128 characters.');
  if (expiresAt !== undefined && expiresAt !== null && (typeof expiresAt !== 'string' || Number.isNaN(Date.parse(expiresAt)))) {
    return invalid('expiresAt', 'The expiry is a date and time, or null for never.');
  }
  if (typeof allowDownload !== 'boolean') return invalid('allowDownload', 'allowDownload is true or false.');
  if (typeof allowGuestUpload !== 'boolean') return invalid('allowGuestUpload', 'allowGuestUpload is true or false.');
  if (!optionalInt(maxViews, 1, 2_147_483_647)) return invalid('maxViews', 'A view limit is a whole number of at least 1.');
  if (!optionalInt(guestMaxFiles, 1, 10_000)) return invalid('guestMaxFiles', 'A guest adds 1 to 10,000 files.');
  if (!optionalInt(guestMaxBytes, 1, 10_995_116_277_760)) return invalid('guestMaxBytes', 'A guest adds at most 10 TiB.');
  const trimmed = typeof label === 'string' ? label.trim() : '';
  return {
    op: 'create',
    albumId: albumId.toLowerCase(),
    label: trimmed === '' ? null : trimmed,
    ...(password === undefined ? {} : { password: password as string }),
    ...(expiresAt === undefined ? {} : { expiresAt: expiresAt === null ? null : new Date(expiresAt as string).toISOString() }),
    allowDownload,
    allowGuestUpload,
    maxViews: (maxViews ?? null) as number | null,
    guestMaxFiles: (guestMaxFiles ?? null) as number | null,
    guestMaxBytes: (guestMaxBytes ?? null) as number | null,
  };
}
