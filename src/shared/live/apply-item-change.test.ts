import { QueryClient } from '@tanstack/react-query';
import { expect, test } from 'vitest';
import type { Album, Item } from '../../domain/entities';
import type { ChangeOfEntity } from '../../backend/ports';
import type { MonthCount } from '../../domain/queries';
import { albumKeys } from '../album-keys';
import { applyItemChange, type ItemPlaces } from './apply-item-change';
import { itemKeys } from '../item-keys';

type ItemEvent = ChangeOfEntity<'item'>;

const row = (id: string): Item => ({
  id, albumId: 'a1', uploaderId: 'u1', kind: 'image', status: 'ready', filename: `${id}.jpg`, mime: 'image/jpeg', bytes: 1000,
  sha256: null, width: 400, height: 300, durationMs: null, takenAt: '2023-07-01T10:00:00.000Z', originalKey: `albums/a1/${id}/original`,
  previewKey: null, thumbKey: null, thumbhash: null, metadata: {}, createdAt: '2026-11-24T10:00:00.000Z', deletedAt: null,
});
const finalized = (id: string): ItemEvent => ({ entity: 'item', op: 'update', albumId: 'a1', id, row: row(id) });
const view = { sort: 'taken' as const, trashed: false };

/**
 * Two photos of July 2023 finish one after the other. The first one's event makes the month appear (counted
 * 1); the grid reads that month, and the read already holds the second photo, finished meanwhile; then the
 * second one's event arrives. The month and the header cannot tell from the cache whether they counted it.
 */
test('an item whose month was read after it arrived, ahead of its event, has its counts and the header read again', () => {
  const qc = new QueryClient();
  const places: ItemPlaces = new Map();
  qc.setQueryData<Album>(albumKeys.detail('a1'), { id: 'a1', itemCount: 0, bytesTotal: 0 } as Album);
  qc.setQueryData<MonthCount[]>(itemKeys.months('a1', view), []);
  applyItemChange(qc, finalized('p1'), places);
  expect(qc.getQueryData<Album>(albumKeys.detail('a1'))?.itemCount).toBe(1);
  expect(qc.getQueryData<MonthCount[]>(itemKeys.months('a1', view))).toEqual([{ month: '2023-07', count: 1 }]);

  qc.setQueryData<Item[]>(itemKeys.month('a1', view, '2023-07'), [row('p1'), row('p2')]);
  applyItemChange(qc, finalized('p2'), places);
  expect(qc.getQueryState(itemKeys.months('a1', view))?.isInvalidated).toBe(true);
  expect(qc.getQueryState(albumKeys.detail('a1'))?.isInvalidated).toBe(true);
  expect(qc.getQueryData<Item[]>(itemKeys.month('a1', view, '2023-07'))?.map((i) => i.id).sort()).toEqual(['p1', 'p2']);
});

test('an item placed by its own event is counted once, and nothing is read again', () => {
  const qc = new QueryClient();
  const places: ItemPlaces = new Map();
  qc.setQueryData<Album>(albumKeys.detail('a1'), { id: 'a1', itemCount: 1, bytesTotal: 1000 } as Album);
  qc.setQueryData<MonthCount[]>(itemKeys.months('a1', view), [{ month: '2023-07', count: 1 }]);
  qc.setQueryData<Item[]>(itemKeys.month('a1', view, '2023-07'), [row('p1')]);
  applyItemChange(qc, finalized('p2'), places);
  expect(qc.getQueryData<MonthCount[]>(itemKeys.months('a1', view))).toEqual([{ month: '2023-07', count: 2 }]);
  expect(qc.getQueryData<Album>(albumKeys.detail('a1'))?.itemCount).toBe(2);
  expect(qc.getQueryState(itemKeys.months('a1', view))?.isInvalidated).toBe(false);
  expect(qc.getQueryState(albumKeys.detail('a1'))?.isInvalidated).toBe(false);
});

/**
 * Realtime may send a change again. In a month not loaded only the counts say the photo is there, so nothing in
 * the cache tells a second hearing from a new photo but what the first one applied.
 */
test('a photo finished, trashed and purged, each event heard twice in a month not loaded, moves the counts once', () => {
  const qc = new QueryClient();
  const places: ItemPlaces = new Map();
  const trashView = { sort: 'taken' as const, trashed: true };
  qc.setQueryData<Album>(albumKeys.detail('a1'), { id: 'a1', itemCount: 3, bytesTotal: 3000 } as Album);
  qc.setQueryData<MonthCount[]>(itemKeys.months('a1', view), [{ month: '2023-07', count: 3 }]);
  qc.setQueryData<MonthCount[]>(itemKeys.months('a1', trashView), []);
  const header = () => qc.getQueryData<Album>(albumKeys.detail('a1'));
  const twice = (ev: ItemEvent) => [ev, ev].forEach((e) => applyItemChange(qc, e, places));

  twice(finalized('p4'));
  expect(header()).toMatchObject({ itemCount: 4, bytesTotal: 4000 });
  expect(qc.getQueryData<MonthCount[]>(itemKeys.months('a1', view))).toEqual([{ month: '2023-07', count: 4 }]);

  twice({ entity: 'item', op: 'update', albumId: 'a1', id: 'p4', row: { ...row('p4'), deletedAt: '2026-11-25T10:00:00.000Z' } });
  expect(header()).toMatchObject({ itemCount: 3, bytesTotal: 3000 });
  expect(qc.getQueryData<MonthCount[]>(itemKeys.months('a1', view))).toEqual([{ month: '2023-07', count: 3 }]);
  expect(qc.getQueryData<MonthCount[]>(itemKeys.months('a1', trashView))).toEqual([{ month: '2023-07', count: 1 }]);

  // Purged: the event carries only the id, as on Supabase; the month is the one the trash event said.
  twice({ entity: 'item', op: 'delete', albumId: 'a1', id: 'p4', row: null });
  expect(qc.getQueryData<MonthCount[]>(itemKeys.months('a1', trashView))).toEqual([]);
  expect(header()).toMatchObject({ itemCount: 3, bytesTotal: 3000 });
  for (const key of [itemKeys.months('a1', view), itemKeys.months('a1', trashView), albumKeys.detail('a1')]) {
    expect(qc.getQueryState(key)?.isInvalidated).toBe(false);
  }
});

/** A member moves a photo's date (a camera clock set wrong): an edit, heard on the channel, changes its month. */
test('an edit that moves a loaded photo to another month moves it and its count; a second hearing changes nothing', () => {
  const qc = new QueryClient();
  const places: ItemPlaces = new Map();
  qc.setQueryData<Album>(albumKeys.detail('a1'), { id: 'a1', itemCount: 2, bytesTotal: 2000 } as Album);
  qc.setQueryData<MonthCount[]>(itemKeys.months('a1', view), [{ month: '2023-07', count: 2 }]);
  qc.setQueryData<Item[]>(itemKeys.month('a1', view, '2023-07'), [row('p1'), row('p2')]);
  qc.setQueryData<Item[]>(itemKeys.month('a1', view, '2023-08'), []);
  const moved: ItemEvent = {
    entity: 'item', op: 'update', albumId: 'a1', id: 'p2',
    row: { ...row('p2'), takenAt: '2023-08-02T10:00:00.000Z', metadata: { rating: 4 }, editedAt: '2026-11-27T10:00:00.000Z' },
  };
  applyItemChange(qc, moved, places);
  applyItemChange(qc, moved, places);
  expect(qc.getQueryData<MonthCount[]>(itemKeys.months('a1', view))).toEqual([{ month: '2023-08', count: 1 }, { month: '2023-07', count: 1 }]);
  expect(qc.getQueryData<Item[]>(itemKeys.month('a1', view, '2023-07'))?.map((i) => i.id)).toEqual(['p1']);
  expect(qc.getQueryData<Item[]>(itemKeys.month('a1', view, '2023-08'))?.map((i) => i.metadata.rating)).toEqual([4]);
  expect(qc.getQueryData<Album>(albumKeys.detail('a1'))).toMatchObject({ itemCount: 2, bytesTotal: 2000 });
  expect(qc.getQueryState(itemKeys.months('a1', view))?.isInvalidated).toBe(false);
});

test('an edit of a photo in a month not loaded is never counted as a new photo: the counts are read again', () => {
  const qc = new QueryClient();
  const places: ItemPlaces = new Map();
  qc.setQueryData<Album>(albumKeys.detail('a1'), { id: 'a1', itemCount: 1, bytesTotal: 1000 } as Album);
  qc.setQueryData<MonthCount[]>(itemKeys.months('a1', view), [{ month: '2023-07', count: 1 }]);
  qc.setQueryData<Item[]>(itemKeys.month('a1', view, '2024-01'), []);
  // Its new month is loaded, its old one is not: where it was, the event cannot say.
  applyItemChange(qc, { entity: 'item', op: 'update', albumId: 'a1', id: 'p1', row: { ...row('p1'), takenAt: '2024-01-05T00:00:00.000Z', editedAt: '2026-11-27T10:00:00.000Z' } }, places);
  expect(qc.getQueryState(itemKeys.months('a1', view))?.isInvalidated).toBe(true);
  expect(qc.getQueryData<Album>(albumKeys.detail('a1'))).toMatchObject({ itemCount: 1, bytesTotal: 1000 });
});

/**
 * Three uploads finish one after the other. The counts are read again just after the third finished (so they
 * hold it), the month's rows just before (so they do not); then the third one's event arrives. Counts and rows
 * each move by one, and the count would say 4 for 3 photos.
 */
test("a month's count follows its loaded rows when counts and rows were read at different moments", () => {
  const qc = new QueryClient();
  const places: ItemPlaces = new Map([['p3', { status: 'uploading', deletedAt: null, takenAt: row('p3').takenAt, createdAt: row('p3').createdAt, bytes: 1000 }]]);
  qc.setQueryData<MonthCount[]>(itemKeys.months('a1', view), [{ month: '2023-07', count: 3 }]);
  qc.setQueryData<Item[]>(itemKeys.month('a1', view, '2023-07'), [row('p1'), row('p2')]);
  applyItemChange(qc, finalized('p3'), places);
  expect(qc.getQueryData<Item[]>(itemKeys.month('a1', view, '2023-07'))?.map((i) => i.id).sort()).toEqual(['p1', 'p2', 'p3']);
  expect(qc.getQueryData<MonthCount[]>(itemKeys.months('a1', view))).toEqual([{ month: '2023-07', count: 3 }]);
});
