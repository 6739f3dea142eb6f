import { describe, expect, it } from 'vitest';
import type { ShareLink } from '../../domain/entities';
import { expiresIn, shareLinkState, viewsText } from './share-link-state';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const link = (patch: Partial<ShareLink>): ShareLink => ({
  id: 'l',
  albumId: 'a',
  label: null,
  hasPassword: false,
  expiresAt: '2026-11-28T12:00:00Z',
  allowDownload: true,
  allowGuestUpload: false,
  maxViews: null,
  viewCount: 0,
  guestMaxFiles: null,
  guestMaxBytes: null,
  lastOpenedAt: null,
  createdBy: null,
  createdAt: '2026-11-20T12:00:00Z',
  revokedAt: null,
  guestItemCount: null,
  ...patch,
});

describe('a share link’s state', () => {
  it('is active with when it expires, or that it never does', () => {
    expect(shareLinkState(link({}), NOW)).toEqual({ kind: 'active', text: 'Active · expires in 3 days' });
    expect(shareLinkState(link({ expiresAt: '2026-11-25T13:00:00Z' }), NOW).text).toBe('Active · expires in 1 hour');
    expect(shareLinkState(link({ expiresAt: null }), NOW).text).toBe('Active · never expires');
  });

  it('is expired from its expiry on, used up once the views reach the limit, and revoked above all', () => {
    expect(shareLinkState(link({ expiresAt: '2026-11-25T12:00:00Z' }), NOW).kind).toBe('expired');
    expect(shareLinkState(link({ maxViews: 3, viewCount: 3 }), NOW)).toEqual({ kind: 'used-up', text: 'Used up: view limit reached' });
    expect(shareLinkState(link({ maxViews: 3, viewCount: 2 }), NOW).kind).toBe('active');
    expect(shareLinkState(link({ expiresAt: '2026-11-24T12:00:00Z', maxViews: 1, viewCount: 1 }), NOW).kind).toBe('expired');
    expect(shareLinkState(link({ revokedAt: '2026-11-21T12:00:00Z', expiresAt: '2026-11-24T12:00:00Z' }), NOW)).toEqual({ kind: 'revoked', text: 'Revoked' });
  });

  it('counts views against the limit when there is one', () => {
    expect(viewsText(link({ viewCount: 3, maxViews: 10 }))).toBe('3 of 10 views');
    expect(viewsText(link({ viewCount: 1 }))).toBe('1 view');
    expect(viewsText(link({ viewCount: 0 }))).toBe('0 views');
  });
});

describe('when an active link expires', () => {
  it('is said in the unit of the choices: minutes, hours, days, then months', () => {
    const MIN = 60_000;
    expect(expiresIn(61 * MIN)).toBe('in 1 hour');
    expect(expiresIn(20 * MIN)).toBe('in 20 minutes');
    expect(expiresIn(10_000)).toBe('in 1 minute');
    expect(expiresIn(24 * 60 * MIN - 5000)).toBe('in 24 hours');
    expect(expiresIn(30 * 24 * 60 * MIN - 5000)).toBe('in 30 days');
    expect(expiresIn(90 * 24 * 60 * MIN)).toBe('in 90 days');
    expect(expiresIn(365 * 24 * 60 * MIN - MIN)).toBe('in 12 months');
  });
});
