/**
 * The share link a visit token stands for. share-open issues visit tokens after a link is opened (and its
 * password given); share-upload accepts them here, in one place, so both functions agree on one check.
 *
 * Until share-open's own visit tokens exist, a visit is the link's token itself (looked up by its hash, as
 * share_links stores it). The link's state (revoked, expired, album deleted) is checked by the caller.
 */
import type { Tx } from './database.ts';

export class VisitRefused extends Error {
  constructor() {
    super('share/password-required');
  }
}

/** The id of the link the visit belongs to, or VisitRefused for a missing, expired or forged visit. */
export async function linkOfVisit(tx: Tx, visit: unknown): Promise<string> {
  if (typeof visit !== 'string' || visit.length < 16 || visit.length > 512) throw new VisitRefused();
  const rows = await tx<{ id: string }[]>`
    select l.id::text as id from public.share_links l where l.token_hash = private.hash_token(${visit})`;
  if (!rows[0]) throw new VisitRefused();
  return rows[0].id;
}
