import { describe, expect, it } from 'vitest';
import { formatRelativeTime } from './relative-time';

// Noon in the device's own time zone, whichever it is: dates are shown in that zone.
const localNoon = (year: number, month: number, day: number) => new Date(year, month - 1, day, 12);
const now = localNoon(2026, 3, 10).getTime();
const ago = (ms: number) => new Date(now - ms).toISOString();

describe('formatRelativeTime', () => {
  it('says how long ago in words', () => {
    expect(formatRelativeTime(ago(10_000), now)).toBe('just now');
    expect(formatRelativeTime(ago(-60_000), now)).toBe('just now');
    expect(formatRelativeTime(ago(50_000), now)).toBe('1 minute ago');
    expect(formatRelativeTime(ago(5 * 60_000), now)).toBe('5 minutes ago');
    expect(formatRelativeTime(ago(2 * 3_600_000 + 59 * 60_000), now)).toBe('2 hours ago');
    expect(formatRelativeTime(ago(30 * 3_600_000), now)).toBe('yesterday');
    expect(formatRelativeTime(ago(3 * 86_400_000), now)).toBe('3 days ago');
  });

  it('gives the date after a week, with the year only when it is another year', () => {
    const march = formatRelativeTime(localNoon(2026, 3, 1).toISOString(), now);
    expect(march).toMatch(/\b1\b/);
    expect(march).not.toMatch(/2026/);
    expect(formatRelativeTime(localNoon(2025, 12, 24).toISOString(), now)).toMatch(/2025/);
    expect(formatRelativeTime('not a date', now)).toBe('');
  });
});
