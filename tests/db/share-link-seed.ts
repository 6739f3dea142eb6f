/**
 * Share links written straight into the database as the share-links function leaves them (hashes only), in
 * any state a test needs: expired, revoked, used up, opened. For tests of the settings screen and the adapter
 * that read and revoke links; making one through the function is tested with the function running.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Queryable } from './db-harness';

export interface SeedShareLink {
  albumId: string;
  createdBy: string;
  label?: string | null;
  password?: boolean;
  /** Hours from now (negative: in the past); null never; left out, 30 days. */
  expiresInHours?: number | null;
  allowDownload?: boolean;
  allowGuestUpload?: boolean;
  maxViews?: number | null;
  viewCount?: number;
  guestMaxFiles?: number | null;
  guestMaxBytes?: number | null;
  /** Hours ago. */
  openedHoursAgo?: number | null;
  revoked?: boolean;
}

/** The new link's id. */
export async function seedShareLink(db: Queryable, s: SeedShareLink): Promise<string> {
  const hours = s.expiresInHours === undefined ? 30 * 24 : s.expiresInHours;
  // A link must live an hour at least after it was made: an expired one was made long enough ago.
  const createdHoursAgo = hours !== null && hours < 2 ? 2 - hours : 0;
  const [row] = await db.query<{ id: string }>(
    `insert into public.share_links (album_id, token_hash, label, password_hash, expires_at, allow_download, allow_guest_upload,
       max_views, view_count, guest_max_files, guest_max_bytes, last_opened_at, created_by, created_at, revoked_at)
     values ($1, $2, $3, $4, case when $5::float8 is null then null else now() + make_interval(secs => $5::float8 * 3600) end,
       $6, $7, $8, $9, $10, $11, case when $12::float8 is null then null else now() - make_interval(secs => $12::float8 * 3600) end,
       $13, now() - make_interval(secs => $14::float8 * 3600), case when $15 then now() else null end)
     returning id`,
    [
      s.albumId,
      randomBytes(32).toString('hex'),
      s.label ?? null,
      s.password ? `pbkdf2-sha256$600000$${randomBytes(16).toString('base64')}$${randomBytes(32).toString('base64')}` : null,
      hours,
      s.allowDownload ?? true,
      s.allowGuestUpload ?? false,
      s.maxViews ?? null,
      s.viewCount ?? 0,
      s.guestMaxFiles ?? null,
      s.guestMaxBytes ?? null,
      s.openedHoursAgo ?? null,
      s.createdBy,
      createdHoursAgo,
      s.revoked ?? false,
    ],
  );
  return row!.id;
}

/**
 * A guest joins the link and adds `n` files as the share-upload function does (private.guest_reserve, then,
 * unless `finish` is false, the original recorded as stored and guest_finalize); the items' ids.
 */
export async function seedGuestItems(db: Queryable, linkId: string, name: string, n: number, finish = true): Promise<string[]> {
  const [guest] = await db.query<{ token: string }>(`select * from private.guest_join($1, $2, null)`, [linkId, name]);
  const files = Array.from({ length: n }, (_, i) => ({ id: randomUUID(), filename: `guest-${i}.jpg`, mime: 'image/jpeg', kind: 'image', bytes: 1000 + i }));
  await db.query(`select private.guest_reserve($1, $2, $3)`, [linkId, guest!.token, JSON.stringify(files)]);
  if (finish) {
    for (const f of files) {
      const input = { sha256: randomBytes(32).toString('hex'), metadata: {} };
      // What share-upload records once the bucket has the original at its reserved size.
      await db.query(`select private.record_stored($1, $2)`, [f.id, f.bytes]);
      await db.query(`select private.guest_finalize($1, $2, $3, $4)`, [linkId, guest!.token, f.id, JSON.stringify(input)]);
    }
  }
  return files.map((f) => f.id);
}
