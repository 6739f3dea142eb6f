import { describe, expect, it } from 'vitest';
import { formatBytes, formatDateTime, formatDuration, formatEta, formatMonth, formatTaken, formatTransfer, formatUtcOffset, safeFilename } from './format';

describe('format', () => {
  it('shows sizes the way file managers do', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(20 * 1024 ** 3)).toBe('20 GB');
    expect(formatBytes(-1)).toBe('—');
  });

  it('shows durations and time left', () => {
    expect(formatDuration(65_000)).toBe('1:05');
    expect(formatDuration(3_726_000)).toBe('1:02:06');
    expect(formatEta(12)).toBe('12 s left');
    expect(formatEta(0.4)).toBe('1 s left');
    expect(formatEta(null)).toBe('');
    // Every byte sent, files still being finished: never "0 s left", and no speed of nought beside it.
    expect(formatEta(0)).toBe('finishing');
    expect(formatTransfer(0, 0)).toBe('finishing');
    expect(formatTransfer(2 * 1024 * 1024, 90)).toBe('2 MB/s · about 2 min left');
    expect(formatTransfer(0, null)).toBe('estimating time left');
  });

  it('shows a date taken as the clock read it where it was taken, with the offset, when that is known', () => {
    const fmt = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
    // 18:30 at +02:00 and 22:00 at +05:45, whatever this machine's own zone is.
    expect(formatTaken('2023-07-14T16:30:05.000Z', 120)).toBe(`${fmt.format(Date.UTC(2023, 6, 14, 18, 30, 5))} (UTC+2)`);
    expect(formatTaken('2023-12-31T16:15:00.000Z', 345)).toBe(`${fmt.format(Date.UTC(2023, 11, 31, 22, 0))} (UTC+5:45)`);
    expect(formatTaken('2023-07-14T16:30:05.000Z', undefined)).toBe(formatDateTime('2023-07-14T16:30:05.000Z'));
    expect(formatTaken(null, 120)).toBe('Unknown date');
    expect([formatUtcOffset(0), formatUtcOffset(-300), formatUtcOffset(-210), formatUtcOffset(840)]).toEqual(['UTC', 'UTC−5', 'UTC−3:30', 'UTC+14']);
  });

  it('names months and the undated group', () => {
    expect(formatMonth('unknown')).toBe('No date');
    expect(formatMonth('2024-05')).toMatch(/2024/);
  });

  it('neutralises bidi overrides and control characters in filenames', () => {
    expect(safeFilename('photo\u202Egpj.exe')).toBe('photo\ufffdgpj.exe');
    expect(safeFilename('a\nb.jpg')).toBe('a\ufffdb.jpg');
    expect(safeFilename('ok/name.jpg')).toBe('ok/name.jpg');
    // The direction marks (left-to-right, right-to-left, Arabic letter mark) reorder a name as well.
    expect(safeFilename('a\u200Fb\u200Ec\u061Cd.jpg')).toBe('a\ufffdb\ufffdc\ufffdd.jpg');
  });
});
