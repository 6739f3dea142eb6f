import { describe, expect, test } from 'vitest';
import type { Item } from '../../domain/entities';
import { bumpMonth, insertSorted } from './apply-item-change';
import { compareItems, dayOf, monthOf } from './item-order';

// Only what places an item: its id and its two dates.
const item = { id: 'i1', takenAt: '2024-03-31T23:30:00.000Z', createdAt: '2024-05-01T10:00:00.000Z' } as Item;

test('a photo is filed by the clock where it was taken, when its offset is known', () => {
  // 21:30 on 31 January in New York (UTC−5) is 02:30 on 1 February in UTC.
  const evening = { ...item, id: 'ny', takenAt: '2024-02-01T02:30:00.000Z', metadata: { takenOffset: -300 } } as Item;
  expect(monthOf(evening, 'taken')).toBe('2024-01');
  expect(dayOf(evening, 'taken')).toBe(Date.UTC(2024, 0, 31) / 86_400_000);
  // 08:00 on 1 February in Tokyo (UTC+9) was 23:00 on 31 January in UTC: it is a photo of 1 February.
  const morning = { ...item, id: 'tk', takenAt: '2024-01-31T23:00:00.000Z', metadata: { takenOffset: 540 } } as Item;
  expect(monthOf(morning, 'taken')).toBe('2024-02');
  // Newest first by those clocks: Tokyo's morning of the 1st before New York's evening of the 31st.
  expect(compareItems(morning, evening, 'taken')).toBeLessThan(0);
  // The date added is an instant, and stays in UTC.
  expect(monthOf({ ...evening, createdAt: '2024-02-01T02:30:00.000Z' }, 'added')).toBe('2024-02');
});

test('the month is UTC, of the capture date when sorting by it, else of the date added', () => {
  expect(monthOf(item, 'taken')).toBe('2024-03');
  expect(monthOf(item, 'added')).toBe('2024-05');
  expect(monthOf({ ...item, takenAt: null }, 'taken')).toBe('2024-05');
});

describe('cache helpers', () => {
  const at = (id: string, takenAt: string): Item => ({ ...item, id, takenAt });
  test('an item goes in newest first, ties by id', () => {
    const rows = [at('c', '2024-03-20T00:00:00Z'), at('b', '2024-03-10T00:00:00Z'), at('a', '2024-03-10T00:00:00Z')];
    expect(insertSorted(rows, at('x', '2024-03-15T00:00:00Z'), 'taken').map((i) => i.id)).toEqual(['c', 'x', 'b', 'a']);
    expect(insertSorted(rows, at('bb', '2024-03-10T00:00:00Z'), 'taken').map((i) => i.id)).toEqual(['c', 'bb', 'b', 'a']);
    expect(insertSorted([], at('x', '2024-03-15T00:00:00Z'), 'taken').map((i) => i.id)).toEqual(['x']);
  });

  test('month counts: bumped, a new month in its place, an emptied month dropped', () => {
    const counts = [
      { month: '2024-05', count: 2 },
      { month: '2024-01', count: 1 },
      { month: 'unknown', count: 4 },
    ];
    expect(bumpMonth(counts, '2024-03', 1).map((m) => m.month)).toEqual(['2024-05', '2024-03', '2024-01', 'unknown']);
    expect(bumpMonth(counts, '2025-01', 1)[0]).toEqual({ month: '2025-01', count: 1 });
    expect(bumpMonth(counts, '2024-05', 1)[0]).toEqual({ month: '2024-05', count: 3 });
    expect(bumpMonth(counts, '2024-01', -1).map((m) => m.month)).toEqual(['2024-05', 'unknown']);
    expect(bumpMonth(counts, '2023-01', -1)).toEqual(counts);
  });
});
