import { describe, expect, it } from 'vitest';
import { formatBytes, formatDuration, formatEta, formatMonth, safeFilename } from './format';

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
    expect(formatEta(null)).toBe('');
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
