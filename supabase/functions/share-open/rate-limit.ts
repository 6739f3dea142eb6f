/**
 * Wrong passwords, two limits in 15 minutes: 10 per link per client, and 30 per link from all clients together,
 * which no change of address escapes. Past either, every attempt is `share/rate-limited` until the oldest failure
 * that counts leaves the window, the right password included, so guessing costs the same whether or not a guess
 * would have been right.
 *
 * [Note: A guess is counted before it is checked]
 * Checking the limit and recording a failure were two transactions with the password hash (80 ms of PBKDF2)
 * between them: forty guesses sent at once all passed the check before any was recorded. Now one transaction,
 * holding a lock of the link's own, checks both limits and records the guess as a failure; the guess is taken
 * back only once the password proved right. So at most the limit's number of guesses are ever being checked,
 * in parallel or not, and a guess past the limit costs a database round trip, never a hash: the password hash
 * work any number of unauthenticated clients can cause is at most 30 hashes per password link per 15 minutes.
 */
import type { Tx } from '../_shared/database.ts';
import { ShareError } from '../_shared/share-access.ts';

export const MAX_FAILURES = 10;
export const LINK_MAX_FAILURES = 30;
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

/**
 * [Note: The client address the platform vouches for]
 * A proxy adds the address it was called from to the end of X-Forwarded-For; whatever comes before that is what
 * the caller sent, and a caller can send anything there. So the client is the last entry, the one Supabase's
 * gateway added (Kong, in front of the functions, appends the peer's address), or, where the deployment names
 * one in SHOEBOX_CLIENT_IP_HEADER, a header its edge sets and overwrites (`cf-connecting-ip` behind Cloudflare).
 * Where the last entry is a proxy of the platform's own rather than the caller, every caller looks like one
 * client: the per-client limit then holds them all together, which refuses more but lets no one through. The
 * per-link limit does not depend on the address at all.
 */
export function clientAddress(request: Request, header?: string): string {
  if (header) return request.headers.get(header)?.trim() || 'unknown';
  const hops = (request.headers.get('x-forwarded-for') ?? '').split(',').map((h) => h.trim()).filter(Boolean);
  return hops[hops.length - 1] ?? 'unknown';
}

/** The client ([Note: The client address the platform vouches for]), keyed-hashed per link. */
export async function clientHash(address: string, linkId: string, key: CryptoKey): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${linkId}\n${address}`));
  return Array.from(new Uint8Array(mac), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Throws `share/rate-limited` (429, Retry-After) when the client or the link used up its wrong passwords. */
export async function refuseIfLimited(tx: Tx, linkId: string, client: string, now: Date): Promise<void> {
  const since = new Date(now.getTime() - WINDOW_SECONDS * 1000);
  const [mine, all] = await Promise.all([
    tx<{ at: Date }[]>`
      select at from public.share_password_failures
      where link_id = ${linkId}::uuid and client_hash = ${client} and at > ${since}
      order by at desc limit ${MAX_FAILURES}`,
    tx<{ at: Date }[]>`
      select at from public.share_password_failures
      where link_id = ${linkId}::uuid and at > ${since}
      order by at desc limit ${LINK_MAX_FAILURES}`,
  ]);
  // Free again once the oldest of the last ten (or thirty) leaves the window.
  const frees: number[] = [];
  for (const [rows, max] of [[mine, MAX_FAILURES], [all, LINK_MAX_FAILURES]] as const) {
    if (rows.length >= max) frees.push(rows[rows.length - 1]!.at.getTime() + WINDOW_SECONDS * 1000);
  }
  if (frees.length === 0) return;
  const retryAfterSeconds = Math.max(1, Math.ceil((Math.max(...frees) - now.getTime()) / 1000));
  throw new ShareError(429, 'share/rate-limited', 'Too many wrong passwords. Try again later.', { retryAfterSeconds }, {
    'Retry-After': String(retryAfterSeconds),
  });
}

/**
 * Counts a guess as a wrong password before it is checked ([Note: A guess is counted before it is checked]):
 * refused when a limit is used up, else recorded. Returns the row to take back if the password proves right.
 */
export async function takeGuess(tx: Tx, linkId: string, client: string, now: Date): Promise<string> {
  // One guess of a link at a time through here: the next waits for this one's row to be in.
  await tx`select pg_advisory_xact_lock(hashtextextended(${`share-password ${linkId}`}, 0))`;
  await tx`delete from public.share_password_failures where at <= ${new Date(now.getTime() - WINDOW_SECONDS * 1000)}`;
  await refuseIfLimited(tx, linkId, client, now);
  const [row] = await tx<{ id: string }[]>`
    insert into public.share_password_failures (link_id, client_hash, at) values (${linkId}::uuid, ${client}, ${now})
    returning id::text`;
  return row!.id;
}

/** The password was right: its guess is not a failure. */
export async function takeBack(tx: Tx, guess: string): Promise<void> {
  await tx`delete from public.share_password_failures where id = ${guess}::bigint`;
}
