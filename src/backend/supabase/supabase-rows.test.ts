/**
 * A row the app cannot read (a column missing, or of another type) is a broken server, not an album of zero
 * items called "": the call fails with `backend/unreachable`, and the cause names the column.
 */
import { describe, expect, it } from 'vitest';
import type { $ZodError } from 'zod/v4/core';
import { expectAppError } from '../../testing/contract/contract-fixtures';
import { PROFILE_ROW, signedIn, stubBackend, USER } from '../../testing/supabase-test-session';
import { json, tokenResponse, WireStub } from '../../testing/supabase-wire-stub';
import { toMetadata } from './supabase-rows';

const ALBUM_ID = '0b7c2f8e-5d1a-4e6b-8c3d-9f0a1b2c3d4e';
const ITEM_ID = '00000000-0000-4000-8000-000000000001';

const ALBUM_ROW = {
  id: ALBUM_ID,
  owner_id: '6f1d3a52-1111-4c3b-9a8e-2b8f0c1d2e3f',
  title: 'Lisbon',
  description: '',
  cover_item_id: null,
  item_count: 3,
  bytes_total: 7000,
  created_at: '2024-05-01T10:00:00.123456+00:00',
  updated_at: '2024-05-02 11:00:00+00',
  deleted_at: null,
  role: 'editor',
  cover_thumb_key: null,
  cover_thumbhash: null,
  keep_location: false,
};

const ITEM_ROW = {
  id: ITEM_ID,
  album_id: ALBUM_ID,
  uploader_id: null,
  kind: 'image',
  status: 'ready',
  filename: 'IMG_1.jpg',
  mime: 'image/jpeg',
  bytes: 1001,
  sha256: null,
  width: null,
  height: null,
  duration_ms: null,
  taken_at: null,
  original_key: `albums/${ALBUM_ID}/${ITEM_ID}/original`,
  preview_key: null,
  thumb_key: null,
  thumbhash: null,
  metadata: {},
  created_at: '2024-06-01T00:00:00+00:00',
  deleted_at: null,
  sort_taken: '2024-06-01T00:00:00+00:00',
};

const ACTIVITY_ROW = { id: 'a1', album_id: ALBUM_ID, album_title: 'Lisbon', actor_id: null, actor_name: null, verb: 'joined', subject: null, subject_kind: null, count: 1, created_at: '2024-06-01T00:00:00+00:00' };

/** The call failed as unreachable, and its cause is the parse's issues, naming `column`. */
async function expectUnreadable(call: Promise<unknown>, column: string): Promise<void> {
  const e = await expectAppError(call, 'backend/unreachable');
  const issues = (e.cause as $ZodError).issues;
  expect(issues.map((i) => i.path.join('.'))).toContain(column);
}

describe('Supabase rows: what the app cannot read fails the call', () => {
  it.each([
    ['item_count', 'abc'],
    ['item_count', null],
    ['bytes_total', 1.5],
    ['title', null],
    ['created_at', 5],
    ['updated_at', 'yesterday'],
    ['role', 'admin'],
    ['id', undefined],
  ])('an album whose %s is %j', async (column, value) => {
    const { backend, stub } = await signedIn();
    stub.on('GET', '/rest/v1/album_summaries', [{ ...ALBUM_ROW, [column]: value }]);
    await expectUnreadable(backend.albums.listAlbums(), column);
    await expectUnreadable(backend.albums.getAlbum(ALBUM_ID), column);
  });

  it('an answer that holds no rows at all', async () => {
    const { backend, stub } = await signedIn();
    stub.on('GET', '/rest/v1/album_summaries', json('albums'));
    await expectAppError(backend.albums.listAlbums(), 'backend/unreachable');
  });

  it('a well-formed album, with its nulls, still reads', async () => {
    const { backend, stub } = await signedIn();
    stub.on('GET', '/rest/v1/album_summaries', [ALBUM_ROW]);
    expect(await backend.albums.listAlbums()).toMatchObject([{ title: 'Lisbon', description: '', itemCount: 3, coverItemId: null, updatedAt: '2024-05-02T11:00:00.000Z' }]);
  });

  it.each([
    ['bytes', 'abc'],
    ['kind', 'gif'],
    ['status', null],
    ['filename', 7],
    ['width', '4000px'],
    ['taken_at', 'not a date'],
    ['metadata', 'exif'],
  ])('an item whose %s is %j', async (column, value) => {
    const { backend, stub } = await signedIn();
    stub.on('GET', '/rest/v1/items', [{ ...ITEM_ROW, [column]: value }]);
    await expectUnreadable(backend.items.listItems(ALBUM_ID, { sort: 'taken' }), column);
    stub.on('POST', '/rest/v1/rpc/reserve_items', [{ ...ITEM_ROW, [column]: value }]);
    await expectUnreadable(backend.itemWrites.reserveItems(ALBUM_ID, [{ id: ITEM_ID, filename: 'IMG_1.jpg', mime: 'image/jpeg', kind: 'image', bytes: 1001 }]), column);
  });

  it('a month count that is not a count', async () => {
    const { backend, stub } = await signedIn();
    stub.on('POST', '/rest/v1/rpc/count_items_by_month', [{ month: '2023-02', count: 'many' }]);
    await expectUnreadable(backend.items.countItemsByMonth(ALBUM_ID, { sort: 'taken' }), 'count');
    stub.on('POST', '/rest/v1/rpc/count_items_by_month', [{ month: null, count: 2 }]);
    await expectUnreadable(backend.items.countItemsByMonth(ALBUM_ID, { sort: 'taken' }), 'month');
  });

  it('an activity of an unknown verb or without a count', async () => {
    const { backend, stub } = await signedIn();
    stub.on('GET', '/rest/v1/activity_feed', [{ ...ACTIVITY_ROW, verb: 'exploded' }]);
    await expectUnreadable(backend.activity.listActivity(20), 'verb');
    stub.on('GET', '/rest/v1/activity_feed', [{ ...ACTIVITY_ROW, count: undefined }]);
    await expectUnreadable(backend.activity.listActivity(20), 'count');
  });

  it('a profile without a display name: signing in fails instead of greeting ""', async () => {
    const stub = new WireStub();
    stub.on('POST', '/auth/v1/token', tokenResponse(USER));
    stub.on('GET', '/rest/v1/profiles', [{ ...PROFILE_ROW, display_name: null }]);
    await expectUnreadable(stubBackend(stub).auth.signInWithPassword(USER.email, 'pw'), 'display_name');
  });
});

describe('Supabase rows: item metadata', () => {
  it('keeps the fields the app knows with their types, the location note, the animation flag and the time offset', () => {
    expect(toMetadata({ cameraMake: 'Canon', creator: 'Ana Lima', iso: 200, keywords: ['sea', 3], location: 'removed', animated: true, takenOffset: 345, tracking: 'x' })).toEqual({
      cameraMake: 'Canon',
      creator: 'Ana Lima',
      iso: 200,
      keywords: ['sea'],
      location: 'removed',
      animated: true,
      takenOffset: 345,
    });
    expect(toMetadata({ iso: '200', location: '48.85 N', animated: 'yes', takenOffset: '+02:00' })).toEqual({});
  });
});
