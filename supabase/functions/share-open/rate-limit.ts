/**
 * Wrong passwords: 10 per link per client (the first X-Forwarded-For address, keyed-hashed with the link's id) in
 * 15 minutes. Past that, every attempt is `share/rate-limited` until the oldest failure leaves the window,
 * the right password included, so guessing costs the same whether or not a guess would have been right.
 */
import type { Tx } from '../_shared/database.ts';
import { ShareError } from '../_shared/share-access.ts';

export const MAX_FAILURES = 10;
export const WINDOW_SECONDS = 15 * 60;

// [Note: A client key nobody can recompute]
// share_password_failures must not amount to a list of addresses: a plain SHA-256 of link id + address is
// reversed by hashing the few billion IPv4 addresses. So the value is an HMAC-SHA-256 under a key only the
// function holds. The key is derived from S3_SECRET_ACCESS_KEY, which share-open needs anyway and which every
// deployment sets (SUPABASE_JWT_SECRET is absent from projects that sign with asymmetric keys); deriving it
// under a label of its own keeps it apart from the S3 signatures made with the same secret. Changing that
// secret only forgets the failures of the last 15 minutes.

/** The HMAC key of client hashes, derived from the function's secret. */
export async function clientKey(secret: string): Promise<CryptoKey> {
  const hmac = { name: 'HMAC', hash: 'SHA-256' };
  const root = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), hmac, false, ['sign']);
  const derived = await crypto.subtle.sign('HMAC', root, new TextEncoder().encode('shoebox share-open client hash v1'));
  return await crypto.subtle.importKey('raw', derived, hmac, false, ['sign']);
}

/** The client as the platform's proxy saw it (the first address of X-Forwarded-For), keyed-hashed per link. */
export async function clientHash(request: Request, linkId: string, key: CryptoKey): Promise<string> {
  const first = (request.headers.get('x-forwarded-for') ?? '').split(',')[0]!.trim() || 'unknown';
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${linkId}\n${first}`));
  return Array.from(new Uint8Array(mac), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Throws `share/rate-limited` (429, Retry-After) when this client used up its wrong passwords for the link. */
export async function refuseIfLimited(tx: Tx, linkId: string, client: string, now: Date): Promise<void> {
  const since = new Date(now.getTime() - WINDOW_SECONDS * 1000);
  const rows = await tx<{ at: Date }[]>`
    select at from public.share_password_failures
    where link_id = ${linkId}::uuid and client_hash = ${client} and at > ${since}
    order by at desc limit ${MAX_FAILURES}`;
  if (rows.length < MAX_FAILURES) return;
  // Free again once the oldest of the last ten leaves the window.
  const oldest = rows[rows.length - 1]!.at.getTime();
  const retryAfterSeconds = Math.max(1, Math.ceil((oldest + WINDOW_SECONDS * 1000 - now.getTime()) / 1000));
  throw new ShareError(429, 'share/rate-limited', 'Too many wrong passwords. Try again later.', { retryAfterSeconds }, {
    'Retry-After': String(retryAfterSeconds),
  });
}

export async function recordFailure(tx: Tx, linkId: string, client: string, now: Date): Promise<void> {
  await tx`delete from public.share_password_failures where at <= ${new Date(now.getTime() - WINDOW_SECONDS * 1000)}`;
  await tx`insert into public.share_password_failures (link_id, client_hash, at) values (${linkId}::uuid, ${client}, ${now})`;
}
