/**
 * The ItemsPort and ItemWritesPort contract, read and write together (a list needs items written to it):
 * reserving and finishing uploads, the trash, bounds, unfinished uploads, lists by keyset cursor and month counts.
 */
import { describe, expect, it } from 'vitest';
import { limits } from '../../config';
import { objectKeys, type Backend } from '../../backend/ports';
import type { Item, ItemMetadata } from '../../domain/entities';
import {
  addReadyItem,
  clockPasses,
  expectAppError,
  expectNewestFirst,
  finalizeInput,
  placeOriginal,
  reserveInput,
} from './contract-fixtures';

export function describeItemsContract(makeBackend: () => Promise<Backend> | Backend): void {
  describe('items', () => {
    it('reserves items idempotently and keeps them out of lists and counts until finalized', async () => {
      const b = await makeBackend();
      const album = await b.albums.createAlbum({ title: 'Reserved' });
      const inputs = [reserveInput(), reserveInput({ kind: 'video', bytes: 5000 })];
      const reserved = await b.itemWrites.reserveItems(album.id, inputs);
      expect(reserved.map((i) => i.id)).toEqual(inputs.map((i) => i.id));
      for (const item of reserved) {
        expect(item).toMatchObject({
          albumId: album.id,
          status: 'uploading',
          originalKey: objectKeys.original(album.id, item.id),
          thumbKey: null,
          previewKey: null,
          deletedAt: null,
        });
      }
      const again = await b.itemWrites.reserveItems(album.id, inputs);
      expect(again).toEqual(reserved);

      expect((await b.items.listItems(album.id, { sort: 'added' })).rows).toEqual([]);
      expect(await b.items.countItemsByMonth(album.id, { sort: 'added' })).toEqual([]);
      expect(await b.albums.getAlbum(album.id)).toMatchObject({ itemCount: 0, bytesTotal: 0 });
      expect((await b.items.getItem(album.id, inputs[0]!.id)).status).toBe('uploading');
    });

    it('refuses empty files and files over the size limit', async () => {
      const b = await makeBackend();
      const album = await b.albums.createAlbum({ title: 'Sizes' });
      await expectAppError(b.itemWrites.reserveItems(album.id, [reserveInput({ bytes: 0 })]), 'upload/empty');
      await expectAppError(b.itemWrites.reserveItems(album.id, [reserveInput({ bytes: limits().maxUploadBytes + 1 })]), 'upload/too-large');
    });

    it('finalizes items into the album with their keys, counts and cover; finalizing twice changes nothing', async () => {
      const b = await makeBackend();
      const album = await b.albums.createAlbum({ title: 'Finalized' });
      const image = await addReadyItem(b, album.id, { bytes: 1000, thumbhash: 'IMAGEHASH' });
      await clockPasses(image.createdAt);
      const video = await addReadyItem(b, album.id, { kind: 'video', bytes: 2000, thumbhash: 'VIDEOHASH' });
      await clockPasses(video.createdAt);
      const file = await addReadyItem(b, album.id, { kind: 'file', bytes: 4000 });

      expect(image).toMatchObject({
        status: 'ready',
        thumbKey: objectKeys.thumb(album.id, image.id),
        previewKey: objectKeys.preview(album.id, image.id),
        width: 4000,
        height: 3000,
        sha256: 'a'.repeat(64),
      });
      expect(video).toMatchObject({ thumbKey: objectKeys.thumb(album.id, video.id), previewKey: objectKeys.poster(album.id, video.id) });
      expect(file).toMatchObject({ status: 'ready', thumbKey: null, previewKey: null });

      const listed = (await b.items.listItems(album.id, { sort: 'added' })).rows;
      expect(listed.map((i) => i.id)).toEqual([file.id, video.id, image.id]);
      expect(await b.items.getItem(album.id, image.id)).toEqual(image);

      const counted = await b.albums.getAlbum(album.id);
      expect(counted).toMatchObject({ itemCount: 3, bytesTotal: 7000, coverThumbKey: video.thumbKey, coverThumbhash: 'VIDEOHASH' });
      expect((await b.albums.listAlbums()).find((a) => a.id === album.id)).toMatchObject({ itemCount: 3, coverThumbKey: video.thumbKey });

      const twice = await b.itemWrites.finalizeItem(album.id, image.id, finalizeInput({ width: 1, height: 1 }));
      expect(twice).toEqual(image);
      expect(await b.albums.getAlbum(album.id)).toMatchObject({ itemCount: 3, bytesTotal: 7000 });
    });

    it('records an original stored gzip-compressed with its stored size; the item keeps the file\'s own size', async () => {
      const b = await makeBackend();
      const album = await b.albums.createAlbum({ title: 'Compressed' });
      const input = reserveInput({ kind: 'file', mime: 'text/plain', filename: 'ride.csv', bytes: 5000, stored: { encoding: 'gzip', bytes: 400 } });
      const [reserved] = await b.itemWrites.reserveItems(album.id, [input]);
      expect(reserved).toMatchObject({ bytes: 5000, storedEncoding: 'gzip', storedBytes: 400 });
      await placeOriginal(b, album.id, reserved!.id);
      const ready = await b.itemWrites.finalizeItem(album.id, reserved!.id, finalizeInput({ width: null, height: null, hasPreview: false, hasThumb: false }));
      expect(ready).toMatchObject({ status: 'ready', bytes: 5000, storedEncoding: 'gzip', storedBytes: 400 });
      expect(await b.items.getItem(album.id, reserved!.id)).toEqual(ready);
      expect(await b.albums.getAlbum(album.id)).toMatchObject({ itemCount: 1, bytesTotal: 5000 });
      // Stored as it is, an item says nothing of it.
      const plain = await addReadyItem(b, album.id, { kind: 'file', bytes: 300 });
      expect(plain.storedEncoding).toBeUndefined();
      expect(plain.storedBytes).toBeUndefined();
      for (const stored of [{ encoding: 'gzip' as const, bytes: 5000 }, { encoding: 'gzip' as const, bytes: 0 }, { encoding: 'br', bytes: 10 } as never]) {
        await expectAppError(b.itemWrites.reserveItems(album.id, [reserveInput({ bytes: 5000, stored })]), 'validation/invalid');
      }
    });

    it('keeps failed uploads out of the album', async () => {
      const b = await makeBackend();
      const album = await b.albums.createAlbum({ title: 'Failures' });
      const [reserved] = await b.itemWrites.reserveItems(album.id, [reserveInput()]);
      await b.itemWrites.failItem(album.id, reserved!.id);
      expect((await b.items.getItem(album.id, reserved!.id)).status).toBe('failed');
      expect((await b.items.listItems(album.id, { sort: 'added' })).rows).toEqual([]);
      expect((await b.items.listItems(album.id, { sort: 'added', trashed: true })).rows).toEqual([]);
      expect(await b.items.countItemsByMonth(album.id, { sort: 'added' })).toEqual([]);
      expect((await b.albums.getAlbum(album.id)).itemCount).toBe(0);
    });

    it('answers item/not-found for an item that does not exist', async () => {
      const b = await makeBackend();
      const album = await b.albums.createAlbum({ title: 'Lookups' });
      await expectAppError(b.items.getItem(album.id, crypto.randomUUID()), 'item/not-found');
      await expectAppError(b.itemWrites.finalizeItem(album.id, crypto.randomUUID(), finalizeInput()), 'item/not-found');
    });
  });

  describe('bounds and unfinished uploads', () => {
    it('refuses metadata beyond the bound (201 keywords, unknown fields, 17 KiB, a 201-character keyword path) and the upload can still finish', async () => {
      const b = await makeBackend();
      const album = await b.albums.createAlbum({ title: 'Bounded' });
      const [reserved] = await b.itemWrites.reserveItems(album.id, [reserveInput()]);
      await placeOriginal(b, album.id, reserved!.id);
      const tooMany = { keywords: Array.from({ length: 201 }, (_, i) => `k${i}`) };
      const unknown = { cameraMake: 'Canon', tracking: 'x' } as unknown as ItemMetadata;
      const tooLarge = { description: 'x'.repeat(17 * 1024) };
      const longPath = { keywords: ['c'], keywordPaths: [`${'a|'.repeat(100)}c`] };
      for (const metadata of [tooMany, unknown, tooLarge, longPath]) {
        await expectAppError(b.itemWrites.finalizeItem(album.id, reserved!.id, finalizeInput({ metadata })), 'validation/invalid');
      }
      expect((await b.items.getItem(album.id, reserved!.id)).status).toBe('uploading');
      const done = await b.itemWrites.finalizeItem(album.id, reserved!.id, finalizeInput({ metadata: { keywords: tooMany.keywords.slice(0, 200) } }));
      expect(done.metadata.keywords).toHaveLength(200);
    });

    it('counts and clears only uploads others left unfinished: the owner\'s own stay and can finish', async () => {
      const b = await makeBackend();
      const album = await b.albums.createAlbum({ title: 'Pending' });
      const [mine] = await b.itemWrites.reserveItems(album.id, [reserveInput()]);
      expect(await b.itemWrites.countPendingItems(album.id)).toBe(0);
      expect(await b.itemWrites.clearPendingItems(album.id)).toBe(0);
      await placeOriginal(b, album.id, mine!.id);
      expect((await b.itemWrites.finalizeItem(album.id, mine!.id, finalizeInput())).status).toBe('ready');
      await expectAppError(b.itemWrites.countPendingItems(crypto.randomUUID()), 'album/not-found');
      await expectAppError(b.itemWrites.clearPendingItems(crypto.randomUUID()), 'album/not-found');
    });
  });

  describe('lists and counts', () => {
    it('sorts by date taken (else date added) or by date added, newest first', async () => {
      const b = await makeBackend();
      const album = await b.albums.createAlbum({ title: 'Sorting' });
      const taken2020 = await addReadyItem(b, album.id, { takenAt: '2020-05-01T10:00:00.000Z' });
      await clockPasses(taken2020.createdAt);
      const taken2023 = await addReadyItem(b, album.id, { takenAt: '2023-01-10T08:30:00.000Z' });
      await clockPasses(taken2023.createdAt);
      const undated = await addReadyItem(b, album.id, { takenAt: null });
      await clockPasses(undated.createdAt);
      const taken2021 = await addReadyItem(b, album.id, { takenAt: '2021-07-04T18:00:00.000Z' });

      const byTaken = (await b.items.listItems(album.id, { sort: 'taken' })).rows;
      expect(byTaken.map((i) => i.id)).toEqual([undated.id, taken2023.id, taken2021.id, taken2020.id]);
      const byAdded = (await b.items.listItems(album.id, { sort: 'added' })).rows;
      expect(byAdded.map((i) => i.id)).toEqual([taken2021.id, undated.id, taken2023.id, taken2020.id]);
      expectNewestFirst(byAdded, (i) => i.createdAt);
    });

    it('pages with a keyset cursor: no gaps, no repeats, unaffected by newer additions', async () => {
      const b = await makeBackend();
      const album = await b.albums.createAlbum({ title: 'Paging' });
      const same = '2022-02-02T02:02:02.000Z';
      for (const takenAt of [same, same, same, '2022-03-01T00:00:00.000Z', '2021-01-01T00:00:00.000Z', null, same]) {
        await addReadyItem(b, album.id, { takenAt });
      }
      const whole = (await b.items.listItems(album.id, { sort: 'taken', limit: 100 })).rows;
      expect(whole).toHaveLength(7);
      expectNewestFirst(whole, (i) => i.takenAt ?? i.createdAt);

      const first = await b.items.listItems(album.id, { sort: 'taken', limit: 3 });
      expect(first.rows).toEqual(whole.slice(0, 3));
      expect(typeof first.nextCursor).toBe('string');
      // Something newer arrives while the user scrolls: later pages continue where the first one ended.
      await addReadyItem(b, album.id, { takenAt: null });
      const rest: Item[] = [];
      let cursor = first.nextCursor;
      while (cursor) {
        const page = await b.items.listItems(album.id, { sort: 'taken', limit: 3, cursor });
        expect(page.rows.length).toBeGreaterThan(0);
        rest.push(...page.rows);
        cursor = page.nextCursor;
      }
      expect([...first.rows, ...rest]).toEqual(whole);

      const exact = await b.items.listItems(album.id, { sort: 'added', limit: 8 });
      expect(exact.rows).toHaveLength(8);
      expect(exact.nextCursor).toBeNull();
    });

    it('filters by kind and by month, and counts per month newest first', async () => {
      const b = await makeBackend();
      const album = await b.albums.createAlbum({ title: 'Filters' });
      const jan1 = await addReadyItem(b, album.id, { takenAt: '2023-01-03T00:00:00.000Z' });
      const jan2 = await addReadyItem(b, album.id, { kind: 'video', takenAt: '2023-01-31T23:59:59.000Z' });
      const feb = await addReadyItem(b, album.id, { takenAt: '2023-02-01T00:00:00.000Z' });
      const dec = await addReadyItem(b, album.id, { kind: 'video', takenAt: '2022-12-31T23:59:59.999Z' });
      const doc = await addReadyItem(b, album.id, { kind: 'file', takenAt: '2023-01-15T12:00:00.000Z' });

      const videos = (await b.items.listItems(album.id, { sort: 'taken', kind: 'video' })).rows;
      expect(videos.map((i) => i.id)).toEqual([jan2.id, dec.id]);
      const january = (await b.items.listItems(album.id, { sort: 'taken', month: '2023-01' })).rows;
      expect(january.map((i) => i.id)).toEqual([jan2.id, doc.id, jan1.id]);
      const januaryImages = (await b.items.listItems(album.id, { sort: 'taken', month: '2023-01', kind: 'image' })).rows;
      expect(januaryImages.map((i) => i.id)).toEqual([jan1.id]);
      expect((await b.items.listItems(album.id, { sort: 'taken', month: '2023-02' })).rows.map((i) => i.id)).toEqual([feb.id]);
      expect((await b.items.listItems(album.id, { sort: 'taken', month: '2019-06' })).rows).toEqual([]);

      expect(await b.items.countItemsByMonth(album.id, { sort: 'taken' })).toEqual([
        { month: '2023-02', count: 1 },
        { month: '2023-01', count: 3 },
        { month: '2022-12', count: 1 },
      ]);
      expect(await b.items.countItemsByMonth(album.id, { sort: 'taken', kind: 'video' })).toEqual([
        { month: '2023-01', count: 1 },
        { month: '2022-12', count: 1 },
      ]);
      const thisMonth = new Date().toISOString().slice(0, 7);
      expect(await b.items.countItemsByMonth(album.id, { sort: 'added' })).toEqual([{ month: thisMonth, count: 5 }]);
    });

    it('files photos by the clock where they were taken: lists, month filters and counts alike', async () => {
      const b = await makeBackend();
      const album = await b.albums.createAlbum({ title: 'Clocks' });
      // 21:30 on 31 January in New York: 02:30 on 1 February in UTC.
      const newYork = await addReadyItem(b, album.id, { takenAt: '2024-02-01T02:30:00.000Z', metadata: { takenOffset: -300 } });
      // 00:30 on 1 February, its zone not known.
      const unknown = await addReadyItem(b, album.id, { takenAt: '2024-02-01T00:30:00.000Z' });
      // 08:00 on 1 February in Tokyo: 23:00 on 31 January in UTC.
      const tokyo = await addReadyItem(b, album.id, { takenAt: '2024-01-31T23:00:00.000Z', metadata: { takenOffset: 540 } });
      expect(newYork.takenAt).toBe('2024-02-01T02:30:00.000Z');

      const ids = (rows: Item[]) => rows.map((i) => i.id);
      expect(ids((await b.items.listItems(album.id, { sort: 'taken' })).rows)).toEqual([tokyo.id, unknown.id, newYork.id]);
      expect(ids((await b.items.listItems(album.id, { sort: 'taken', month: '2024-01' })).rows)).toEqual([newYork.id]);
      expect(ids((await b.items.listItems(album.id, { sort: 'taken', month: '2024-02' })).rows)).toEqual([tokyo.id, unknown.id]);
      expect(await b.items.countItemsByMonth(album.id, { sort: 'taken' })).toEqual([
        { month: '2024-02', count: 2 },
        { month: '2024-01', count: 1 },
      ]);
    });

    it('moves items to the trash and back, with counts following', async () => {
      const b = await makeBackend();
      const album = await b.albums.createAlbum({ title: 'Trash' });
      const keep = await addReadyItem(b, album.id, { bytes: 100, takenAt: '2024-03-01T00:00:00.000Z' });
      const drop1 = await addReadyItem(b, album.id, { bytes: 200, takenAt: '2024-03-02T00:00:00.000Z' });
      const drop2 = await addReadyItem(b, album.id, { bytes: 400, takenAt: '2024-04-02T00:00:00.000Z' });

      await b.itemWrites.trashItems(album.id, [drop1.id, drop2.id]);
      await b.itemWrites.trashItems(album.id, [drop1.id]);
      expect((await b.items.listItems(album.id, { sort: 'taken' })).rows.map((i) => i.id)).toEqual([keep.id]);
      const trash = (await b.items.listItems(album.id, { sort: 'taken', trashed: true })).rows;
      expect(trash.map((i) => i.id).sort()).toEqual([drop1.id, drop2.id].sort());
      for (const item of trash) expect(item.deletedAt).not.toBeNull();
      expect(await b.albums.getAlbum(album.id)).toMatchObject({ itemCount: 1, bytesTotal: 100 });
      expect(await b.items.countItemsByMonth(album.id, { sort: 'taken' })).toEqual([{ month: '2024-03', count: 1 }]);
      expect(await b.items.countItemsByMonth(album.id, { sort: 'taken', trashed: true })).toEqual([
        { month: '2024-04', count: 1 },
        { month: '2024-03', count: 1 },
      ]);

      await b.itemWrites.restoreItems(album.id, [drop1.id]);
      expect((await b.items.getItem(album.id, drop1.id)).deletedAt).toBeNull();
      expect((await b.items.listItems(album.id, { sort: 'taken' })).rows.map((i) => i.id)).toEqual([drop1.id, keep.id]);
      expect(await b.albums.getAlbum(album.id)).toMatchObject({ itemCount: 2, bytesTotal: 300 });
      expect(await b.items.countItemsByMonth(album.id, { sort: 'taken' })).toEqual([{ month: '2024-03', count: 2 }]);
    });
  });

  describe('edits', () => {
    it('edits one item\'s details, leaves the camera\'s own record alone, and stamps when', async () => {
      const b = await makeBackend();
      const album = await b.albums.createAlbum({ title: 'Edits' });
      const item = await addReadyItem(b, album.id, { metadata: { cameraMake: 'Canon', iso: 200, title: 'Old', keywords: ['sea'], location: 'removed' } });
      expect(item.editedAt ?? null).toBeNull();
      const [edited] = await b.itemWrites.editItems(album.id, [item.id], {
        title: '  Harbour at dawn ',
        description: 'Boats\nand gulls',
        rating: 4,
        label: 'Green',
        keywords: ['harbour', ' boats ', 'harbour', ''],
      });
      const expected: ItemMetadata = {
        cameraMake: 'Canon',
        iso: 200,
        location: 'removed',
        title: 'Harbour at dawn',
        description: 'Boats\nand gulls',
        rating: 4,
        label: 'Green',
        keywords: ['harbour', 'boats'],
      };
      expect(edited!.metadata).toEqual(expected);
      expect(Date.parse(edited!.editedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(item.createdAt));
      expect((await b.items.getItem(album.id, item.id)).metadata).toEqual(expected);

      // Blank text, a rating of 0 and no keywords clear them.
      const [cleared] = await b.itemWrites.editItems(album.id, [item.id], { title: ' ', description: null, rating: 0, label: null, keywords: [] });
      expect(cleared!.metadata).toEqual({ cameraMake: 'Canon', iso: 200, location: 'removed' });
    });

    it('keeps the keyword hierarchy, and a keyword taken away takes its place in it along', async () => {
      const b = await makeBackend();
      const album = await b.albums.createAlbum({ title: 'Hierarchy' });
      const item = await addReadyItem(b, album.id, { metadata: { keywords: ['Porto', 'river'], keywordPaths: ['Places|Portugal|Porto', 'Nature|river'] } });
      expect((await b.items.getItem(album.id, item.id)).metadata.keywordPaths).toEqual(['Places|Portugal|Porto', 'Nature|river']);
      const [edited] = await b.itemWrites.editItems(album.id, [item.id], { removeKeywords: ['Porto'], addKeywords: ['bridge'] });
      expect(edited!.metadata).toEqual({ keywords: ['river', 'bridge'], keywordPaths: ['Nature|river'] });
      // Undone: the keyword comes back with its place; a place whose keyword the item lacks is left out.
      const [undone] = await b.itemWrites.editItems(album.id, [item.id], {
        addKeywords: ['Porto'],
        removeKeywords: ['bridge'],
        addKeywordPaths: ['Places|Portugal|Porto', 'Nature|river', 'Places|Spain|Vigo'],
      });
      expect(undone!.metadata).toEqual({ keywords: ['river', 'Porto'], keywordPaths: ['Nature|river', 'Places|Portugal|Porto'] });
      const [cleared] = await b.itemWrites.editItems(album.id, [item.id], { keywords: ['bridge'] });
      expect(cleared!.metadata).toEqual({ keywords: ['bridge'] });
      await expectAppError(b.itemWrites.editItems(album.id, [item.id], { addKeywordPaths: [`${'x'.repeat(200)}|y`] }), 'validation/invalid');
    });

    it('adds and removes keywords across a selection, each item keeping its own', async () => {
      const b = await makeBackend();
      const album = await b.albums.createAlbum({ title: 'Keywords' });
      const a = await addReadyItem(b, album.id, { metadata: { keywords: ['family', 'beach'] } });
      const c = await addReadyItem(b, album.id, { metadata: { rating: 2 } });
      const edited = await b.itemWrites.editItems(album.id, [a.id, c.id], { addKeywords: ['summer', 'beach'], removeKeywords: ['family'], rating: 5 });
      expect(edited.map((i) => i.id)).toEqual([a.id, c.id]);
      expect(edited.map((i) => i.metadata)).toEqual([
        { keywords: ['beach', 'summer'], rating: 5 },
        { keywords: ['summer', 'beach'], rating: 5 },
      ]);
    });

    it('shifts or sets the date taken; items move between months and the counts follow', async () => {
      const b = await makeBackend();
      const album = await b.albums.createAlbum({ title: 'Dates' });
      const early = await addReadyItem(b, album.id, { takenAt: '2023-12-31T22:30:00.000Z' });
      const late = await addReadyItem(b, album.id, { takenAt: '2024-01-15T10:00:00.000Z' });
      const undated = await addReadyItem(b, album.id, { kind: 'file' });
      const addedMonth = (await b.items.getItem(album.id, undated.id)).createdAt.slice(0, 7);
      // A camera clock an hour and a half behind.
      const shifted = await b.itemWrites.editItems(album.id, [early.id, late.id, undated.id], { shiftTakenAtMs: 90 * 60_000 });
      expect(shifted.map((i) => i.takenAt)).toEqual(['2024-01-01T00:00:00.000Z', '2024-01-15T11:30:00.000Z', null]);
      expect(await b.items.countItemsByMonth(album.id, { sort: 'taken' })).toEqual([
        { month: addedMonth, count: 1 },
        { month: '2024-01', count: 2 },
      ]);
      const [set] = await b.itemWrites.editItems(album.id, [late.id], { takenAt: '2019-06-01T12:00:00+02:00' });
      expect(set!.takenAt).toBe('2019-06-01T10:00:00.000Z');
      expect((await b.items.listItems(album.id, { sort: 'taken', month: '2019-06' })).rows.map((i) => i.id)).toEqual([late.id]);
      expect(await b.items.countItemsByMonth(album.id, { sort: 'taken' })).toEqual([
        { month: addedMonth, count: 1 },
        { month: '2024-01', count: 1 },
        { month: '2019-06', count: 1 },
      ]);
      expect(await b.albums.getAlbum(album.id)).toMatchObject({ itemCount: 3 });
    });

    it('refuses what is not an edit, and items that are not in the album, changing nothing', async () => {
      const b = await makeBackend();
      const album = await b.albums.createAlbum({ title: 'Refusals' });
      const other = await b.albums.createAlbum({ title: 'Other' });
      const item = await addReadyItem(b, album.id, { metadata: { keywords: Array.from({ length: 199 }, (_, i) => `k${i}`) } });
      const elsewhere = await addReadyItem(b, other.id);
      const [pending] = await b.itemWrites.reserveItems(album.id, [reserveInput()]);
      for (const edit of [{}, { rating: 6 }, { rating: 2.5 }, { cameraMake: 'Nikon' }, { title: 'x'.repeat(2001) }, { takenAt: 'yesterday' }, { keywords: ['a'], addKeywords: ['b'] }, { shiftTakenAtMs: 1e15 }]) {
        await expectAppError(b.itemWrites.editItems(album.id, [item.id], edit as never), 'validation/invalid');
      }
      // Two more keywords would make 201.
      await expectAppError(b.itemWrites.editItems(album.id, [item.id], { addKeywords: ['one', 'two'] }), 'validation/invalid');
      await expectAppError(b.itemWrites.editItems(album.id, [item.id, elsewhere.id], { rating: 3 }), 'item/not-found');
      await expectAppError(b.itemWrites.editItems(album.id, [pending!.id], { rating: 3 }), 'item/not-found');
      const trashed = await addReadyItem(b, album.id);
      await b.itemWrites.trashItems(album.id, [trashed.id]);
      await expectAppError(b.itemWrites.editItems(album.id, [trashed.id], { rating: 3 }), 'item/not-found');
      const now = await b.items.getItem(album.id, item.id);
      expect(now.metadata.rating).toBeUndefined();
      expect(now.metadata.keywords).toHaveLength(199);
      expect(now.editedAt ?? null).toBeNull();
    });
  });
}
