/**
 * The share link a visit token stands for: share-open issues visit tokens once a link (and its password) let
 * a visitor in; share-upload accepts the same ones, checked by the same code (share-access.ts).
 */
import type { Tx } from './database.ts';
import { linkByVisit } from './share-access.ts';

/**
 * The link of the visit and the browser it was opened from (the visitor id, hashed); a ShareError for a
 * missing, expired or forged visit, or a dead link.
 */
export async function visitOf(tx: Tx, visit: unknown, now: Date): Promise<{ linkId: string; visitorHash: string }> {
  const { linkId, visitorHash } = await linkByVisit(tx, visit, now);
  return { linkId, visitorHash };
}
