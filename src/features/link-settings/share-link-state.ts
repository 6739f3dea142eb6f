import type { ShareLink } from '../../domain/entities';

/** Where a link stands (PRODUCT.md §4): `active → expired | revoked | exhausted`. */
export type ShareLinkStateKind = 'active' | 'expired' | 'revoked' | 'used-up';

export interface ShareLinkState {
  kind: ShareLinkStateKind;
  /** "Active · expires in 3 days", "Used up: view limit reached". */
  text: string;
}

/** A revoked link says so first, then an expired one, then one whose views ran out. */
export function shareLinkState(link: ShareLink, now = Date.now()): ShareLinkState {
  if (link.revokedAt !== null) return { kind: 'revoked', text: 'Revoked' };
  if (link.expiresAt !== null && Date.parse(link.expiresAt) <= now) return { kind: 'expired', text: 'Expired' };
  if (link.maxViews !== null && link.viewCount >= link.maxViews) return { kind: 'used-up', text: 'Used up: view limit reached' };
  return { kind: 'active', text: link.expiresAt === null ? 'Active · never expires' : `Active · expires ${expiresIn(Date.parse(link.expiresAt) - now)}` };
}

/** "3 of 10 views", "1 view". */
export function viewsText(link: ShareLink): string {
  if (link.maxViews !== null) return `${link.viewCount} of ${link.maxViews} views`;
  return `${link.viewCount} view${link.viewCount === 1 ? '' : 's'}`;
}

const inUnits = new Intl.RelativeTimeFormat('en', { numeric: 'always' });

/**
 * "in 45 minutes", "in 23 hours", "in 30 days", "in 11 months": counted in the unit the expiry was chosen in
 * (30 days is not "in 4 weeks").
 */
export function expiresIn(ms: number): string {
  const minutes = ms / 60_000;
  if (minutes < 59.5) return inUnits.format(Math.max(1, Math.round(minutes)), 'minute');
  const hours = minutes / 60;
  if (hours < 47.5) return inUnits.format(Math.round(hours), 'hour');
  const days = hours / 24;
  if (days < 99.5) return inUnits.format(Math.round(days), 'day');
  return inUnits.format(Math.round(days / 30.44), 'month');
}
