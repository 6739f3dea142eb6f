/**
 * Views: one per link, browser (the visitor id it keeps, hashed) and UTC day. A link with a view limit lets a
 * new visitor-day in only while it has views left (checked and counted in one statement, so two browsers
 * opening the last view at once cannot both get it); a visitor already counted today is let in again.
 */
import type { Tx } from '../_shared/database.ts';
import { ShareError } from '../_shared/share-access.ts';

export async function countView(tx: Tx, linkId: string, visitorHash: string, now: Date): Promise<void> {
  const day = now.toISOString().slice(0, 10);
  // Delete on write: only today's and yesterday's rows can still decide anything.
  await tx`delete from public.share_link_views where day < ${day}::date - 1`;
  const added = await tx`
    insert into public.share_link_views (link_id, visitor_hash, day) values (${linkId}::uuid, ${visitorHash}, ${day}::date)
    on conflict do nothing returning 1`;
  if (added.length > 0) {
    const counted = await tx`
      update public.share_links set view_count = view_count + 1
      where id = ${linkId}::uuid and (max_views is null or view_count < max_views) returning 1`;
    if (counted.length === 0) {
      throw new ShareError(410, 'share/expired', 'This link has been opened as many times as it may be.', { reason: 'view-limit' });
    }
  }
  await tx`update public.share_links set last_opened_at = ${now} where id = ${linkId}::uuid`;
}
