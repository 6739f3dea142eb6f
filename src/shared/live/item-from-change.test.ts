import { describe, expect, test } from 'vitest';
import type { ChangeEvent } from '../../backend/ports';
import type { Item } from '../../domain/entities';
import { bumpMonth, insertSorted } from './apply-item-change';
import { itemFromChange, monthOf } from './item-from-change';

const row = {
  id: 'i1',
  albumId: 'a1',
  uploaderId: 'u1',
  kind: 'image',
  status: 'ready',
  filename: 'coffee.jpg',
  mime: 'image/jpeg',
  bytes: 1200,
  sha256: null,
  width: 400,
  height: 300,
  durationMs: null,
  takenAt: '2024-03-31T23:30:00.000Z',
  originalKey: 'albums/a1/i1/original',
  previewKey: null,
  thumbKey: null,
  thumbhash: null,
  metadata: { cameraMake: 'FUJIFILM', gps: 'dropped' },
  createdAt: '2024-05-01T10:00:00.000Z',
  deletedAt: null,
  // Columns the app does not read (Supabase sends the table's row) are left out.
  sortTaken: '2024-03-31T23:30:00.000Z',
};
const ev = (r: Record<string, unknown>): ChangeEvent => ({ entity: 'item', op: 'update', albumId: 'a1', row: { id: 'i1', ...r } });

describe('itemFromChange', () => {
  test('reads a whole row as an Item, with only the metadata fields the app knows', () => {
    const item = itemFromChange(ev(row))!;
    expect(item.filename).toBe('coffee.jpg');
    expect(item.metadata).toEqual({ cameraMake: 'FUJIFILM' });
    expect(item).not.toHaveProperty('sortTaken');
  });

  test('a guest\'s item (no uploader) keeps the name the guest gave', () => {
    const item = itemFromChange(ev({ ...row, uploaderId: null, guestLabel: 'Ana' }))!;
    expect(item).toMatchObject({ uploaderId: '', guestLabel: 'Ana' });
  });

  test('a row with a column missing or of another type, or of another album, is no item', () => {
    expect(itemFromChange(ev({ ...row, bytes: '1200x' }))).toBeNull();
    expect(itemFromChange(ev({ ...row, status: 'gone' }))).toBeNull();
    expect(itemFromChange(ev({ ...row, createdAt: 'yesterday' }))).toBeNull();
    expect(itemFromChange(ev({ ...row, albumId: 'a2' }))).toBeNull();
    expect(itemFromChange(ev({ id: 'i1' }))).toBeNull();
  });

  test('the month is UTC, of the capture date when sorting by it, else of the date added', () => {
    const item = itemFromChange(ev(row))!;
    expect(monthOf(item, 'taken')).toBe('2024-03');
    expect(monthOf(item, 'added')).toBe('2024-05');
    expect(monthOf({ ...item, takenAt: null }, 'taken')).toBe('2024-05');
  });
});

describe('cache helpers', () => {
  const at = (id: string, takenAt: string) => ({ ...itemFromChange(ev(row))!, id, takenAt }) as Item;
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
