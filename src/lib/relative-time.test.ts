import { describe, expect, it } from 'vitest';
import { formatRelativeTime } from './relative-time';

const now = Date.parse('2026-03-10T12:00:00Z');
const ago = (ms: number) => new Date(now - ms).toISOString();

describe('formatRelativeTime', () => {
  it('says how long ago in the words of a feed', () => {
    expect(formatRelativeTime(ago(10_000), now)).toBe('just now');
    expect(formatRelativeTime(ago(-60_000), now)).toBe('just now');
    expect(formatRelativeTime(ago(50_000), now)).toBe('1 min ago');
    expect(formatRelativeTime(ago(5 * 60_000), now)).toBe('5 min ago');
    expect(formatRelativeTime(ago(2 * 3_600_000 + 59 * 60_000), now)).toBe('2 h ago');
    expect(formatRelativeTime(ago(30 * 3_600_000), now)).toBe('yesterday');
    expect(formatRelativeTime(ago(3 * 86_400_000), now)).toBe('3 days ago');
  });

  it('gives the date after a week, with the year only when it is another year', () => {
    const march = formatRelativeTime('2026-03-01T12:00:00Z', now);
    expect(march).toMatch(/1/);
    expect(march).not.toMatch(/2026/);
    expect(formatRelativeTime('2025-12-24T12:00:00Z', now)).toMatch(/2025/);
    expect(formatRelativeTime('not a date', now)).toBe('');
  });
});
