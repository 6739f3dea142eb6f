/**
 * The share link a visit token stands for: share-open issues visit tokens once a link (and its password) let
 * a visitor in; share-upload accepts the same ones, checked by the same code (share-access.ts).
 */
import type { Tx } from './database.ts';
import { linkByVisit } from './share-access.ts';

/** The id of the link the visit belongs to; a ShareError for a missing, expired or forged visit, or a dead link. */
export async function linkOfVisit(tx: Tx, visit: unknown, now: Date): Promise<string> {
  return (await linkByVisit(tx, visit, now)).linkId;
}
