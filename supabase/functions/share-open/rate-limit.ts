/**
 * Wrong passwords: 10 per link per client (the first X-Forwarded-For address, hashed with the link's id) in
 * 15 minutes. Past that, every attempt is `share/rate-limited` until the oldest failure leaves the window,
 * the right password included, so guessing costs the same whether or not a guess would have been right.
 */
import type { Tx } from '../_shared/database.ts';
import { sha256Hex, ShareError } from '../_shared/share-access.ts';

export const MAX_FAILURES = 10;
export const WINDOW_SECONDS = 15 * 60;

/** The client as the platform's proxy saw it: the first address of X-Forwarded-For. */
export function clientHash(request: Request, linkId: string): Promise<string> {
  const first = (request.headers.get('x-forwarded-for') ?? '').split(',')[0]!.trim() || 'unknown';
  return sha256Hex(`${linkId}\n${first}`);
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
