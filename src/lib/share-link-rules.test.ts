import { describe, expect, it } from 'vitest';
import type { ShareLinkInput } from '../domain/entities';
import { isAppError } from './app-error';
import { fieldText } from './error-messages';
import { checkShareLinkInput, EXPIRY_CHOICES, expiryFor, shareLinkIssues } from './share-link-rules';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const base: ShareLinkInput = { allowDownload: true, allowGuestUpload: false };
const issues = (patch: Partial<ShareLinkInput>) => shareLinkIssues({ ...base, ...patch }, NOW).map((i) => fieldText(i));

describe('share link rules', () => {
  it('takes a password of 8 to 128 characters, counted as the database counts them', () => {
    expect(issues({ password: '1234567' })).toEqual(["A link's password has at least 8 characters."]);
    expect(issues({ password: '12345678' })).toEqual([]);
    expect(issues({ password: '😀'.repeat(128) })).toEqual([]);
    expect(issues({ password: 'x'.repeat(129) })).toEqual(["A link's password has at most 128 characters."]);
  });

  it('offers expiries from an hour to a year, 30 days first chosen, and every choice passes the server’s range', () => {
    expect(EXPIRY_CHOICES.map((c) => c.name)).toEqual(['1 hour', '1 day', '7 days', '30 days', '90 days', '1 year', 'Never']);
    for (const c of EXPIRY_CHOICES) expect(shareLinkIssues({ ...base, expiresAt: expiryFor(c.id, NOW) }, NOW)).toEqual([]);
    expect(expiryFor('never', NOW)).toBeNull();
    // An hour is sent with time to spare for the trip, a year a little short.
    expect(Date.parse(expiryFor('1h', NOW)!) - NOW).toBeGreaterThan(3_600_000);
    expect(Date.parse(expiryFor('1y', NOW)!) - NOW).toBeLessThan(365 * 86_400_000);
    expect(issues({ expiresAt: new Date(NOW + 59 * 60_000).toISOString() })).toEqual(['A link expires between one hour and one year from now, or never.']);
  });

  it('takes view and guest limits as whole numbers in range, or none', () => {
    expect(issues({ maxViews: 1, guestMaxFiles: 10_000, guestMaxBytes: 10 * 1024 ** 4 })).toEqual([]);
    expect(issues({ maxViews: 0 })).toHaveLength(1);
    expect(issues({ guestMaxFiles: 10_001 })).toEqual(['Enter a whole number of files from 1 to 10,000, or leave it empty.']);
    expect(issues({ guestMaxBytes: 10 * 1024 ** 4 + 1 })).toHaveLength(1);
    expect(issues({ maxViews: null, guestMaxFiles: null, guestMaxBytes: null })).toEqual([]);
  });

  it('sends the label trimmed, an empty one as none, and refuses hidden direction marks', () => {
    expect(checkShareLinkInput({ ...base, label: '  For Ben ' }).label).toBe('For Ben');
    expect(checkShareLinkInput({ ...base, label: '   ' }).label).toBeNull();
    let caught: unknown;
    try {
      checkShareLinkInput({ ...base, label: 'Ben\u202Etxt.exe' });
    } catch (e) {
      caught = e;
    }
    expect(isAppError(caught) && caught.code).toBe('validation/invalid');
  });
});
