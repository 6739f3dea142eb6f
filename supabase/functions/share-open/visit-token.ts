/**
 * Visit tokens: what share-open hands a visitor once the link (and its password) let them in, so the pages
 * that follow need neither. 128 random bits, base64url; only the SHA-256 is stored. A visit lives 12 hours,
 * never past the link's own expiry; every call still checks the link itself (_shared/share-access.ts).
 */
import type { Tx } from '../_shared/database.ts';
import { sha256Hex, type SharedLink } from '../_shared/share-access.ts';

export const VISIT_SECONDS = 12 * 3600;

export function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

export async function startVisit(tx: Tx, link: SharedLink, visitorHash: string, now: Date): Promise<{ visit: string; expiresAt: Date }> {
  const cap = now.getTime() + VISIT_SECONDS * 1000;
  const expiresAt = new Date(link.expiresAt === null ? cap : Math.min(cap, link.expiresAt.getTime()));
  const visit = newToken();
  // Delete on write: visits that ended go as new ones start.
  await tx`delete from public.share_visits where expires_at <= ${now}`;
  await tx`insert into public.share_visits (token_hash, link_id, visitor_hash, expires_at)
           values (${await sha256Hex(visit)}, ${link.linkId}::uuid, ${visitorHash}, ${expiresAt})`;
  return { visit, expiresAt };
}
