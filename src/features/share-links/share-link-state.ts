import type { ShareLink } from '../../backend/entities';
import { relativeTime } from '../social/relative-time';

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
  return { kind: 'active', text: link.expiresAt === null ? 'Active · never expires' : `Active · expires ${relativeTime(link.expiresAt, now)}` };
}

/** "3 of 10 views", "1 view". */
export function viewsText(link: ShareLink): string {
  if (link.maxViews !== null) return `${link.viewCount} of ${link.maxViews} views`;
  return `${link.viewCount} view${link.viewCount === 1 ? '' : 's'}`;
}
