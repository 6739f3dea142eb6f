import { describe, expect, it } from 'vitest';
import { toBroadcastMessage, toChangeEvent, toViewers } from './supabase-realtime';

const ALBUM = '0b7c2f8e-5d1a-4e6b-8c3d-9f0a1b2c3d4e';

const ITEM_ROW = {
  id: 'i1',
  album_id: ALBUM,
  uploader_id: 'u1',
  kind: 'image',
  status: 'ready',
  filename: 'coffee.jpg',
  mime: 'image/jpeg',
  bytes: 1200,
  sha256: null,
  width: 400,
  height: 300,
  duration_ms: null,
  taken_at: '2024-03-31 23:30:00+00',
  original_key: `albums/${ALBUM}/i1/original`,
  preview_key: null,
  thumb_key: 'k',
  thumbhash: null,
  metadata: { cameraMake: 'FUJIFILM', gps: 'dropped' },
  created_at: '2024-05-01T10:00:00+00:00',
  deleted_at: '2024-06-01 10:00:00.5+00',
  // Columns the app does not read (the database sends the table's row) are left out.
  sort_taken: '2024-03-31 23:30:00+00',
};
const itemChange = (row: Record<string, unknown>) => toChangeEvent({ table: 'items', op: 'update', album_id: ALBUM, row });

describe('Supabase realtime: change messages from the database as typed ChangeEvents', () => {
  it('an item change carries the Item, with ISO times and only the metadata fields the app knows', () => {
    const ev = toChangeEvent({ table: 'items', op: 'update', album_id: ALBUM, row: ITEM_ROW, id: 'message id' });
    expect(ev).toMatchObject({ entity: 'item', op: 'update', albumId: ALBUM, id: 'i1' });
    expect(ev?.row).toMatchObject({ id: 'i1', albumId: ALBUM, filename: 'coffee.jpg', thumbKey: 'k', takenAt: '2024-03-31T23:30:00.000Z', deletedAt: '2024-06-01T10:00:00.500Z', createdAt: '2024-05-01T10:00:00.000Z' });
    expect(ev?.row).toHaveProperty('metadata', { cameraMake: 'FUJIFILM' });
    expect(ev?.row).not.toHaveProperty('sortTaken');
    expect(ev?.row).not.toHaveProperty('sort_taken');
  });

  it("a guest's item (no uploader) keeps the name the guest gave", () => {
    expect(itemChange({ ...ITEM_ROW, uploader_id: null, guest_label: 'Ana' })?.row).toMatchObject({ uploaderId: '', guestLabel: 'Ana' });
  });

  it('an item row with a column missing or of another type, or of another album, is unreadable: only its id is told', () => {
    for (const row of [{ ...ITEM_ROW, bytes: '1200x' }, { ...ITEM_ROW, status: 'gone' }, { ...ITEM_ROW, created_at: 'yesterday' }, { ...ITEM_ROW, album_id: 'a2' }, { id: 'i1' }]) {
      expect(itemChange(row)).toEqual({ entity: 'item', op: 'update', albumId: ALBUM, id: 'i1', row: null });
    }
  });

  it('a comment change carries the comment; a delete only its key', () => {
    const row = { id: 'c1', album_id: ALBUM, item_id: 'i1', author_id: 'u1', body: 'Nice', created_at: '2024-03-01 10:00:00+00', edited_at: null };
    expect(toChangeEvent({ table: 'comments', op: 'insert', album_id: ALBUM, row })).toEqual({
      entity: 'comment',
      op: 'insert',
      albumId: ALBUM,
      id: 'c1',
      row: { itemId: 'i1', authorId: 'u1', body: 'Nice', createdAt: '2024-03-01T10:00:00.000Z', editedAt: null },
    });
    expect(toChangeEvent({ table: 'comments', op: 'delete', album_id: ALBUM, row: { id: 'c1' } })).toEqual({ entity: 'comment', op: 'delete', albumId: ALBUM, id: 'c1', row: null });
    expect(toChangeEvent({ table: 'items', op: 'delete', album_id: ALBUM, row: { id: 'i9' } })).toEqual({ entity: 'item', op: 'delete', albumId: ALBUM, id: 'i9', row: null });
  });

  it('members and hearts are keyed by their key; a delete keeps who it was', () => {
    expect(toChangeEvent({ table: 'album_members', op: 'insert', album_id: ALBUM, row: { album_id: ALBUM, user_id: 'u2', role: 'viewer', added_by: 'u1' } })).toEqual({
      entity: 'album_member',
      op: 'insert',
      albumId: ALBUM,
      id: `${ALBUM}:u2`,
      row: { userId: 'u2', role: 'viewer' },
    });
    expect(toChangeEvent({ table: 'album_members', op: 'delete', album_id: ALBUM, row: { album_id: ALBUM, user_id: 'u2' } })?.row).toEqual({ userId: 'u2', role: null });
    // A role the app does not know: the row is unreadable, and the member list is read again.
    expect(toChangeEvent({ table: 'album_members', op: 'update', album_id: ALBUM, row: { user_id: 'u2', role: 'admin' } })?.row).toBeNull();
    const heart = toChangeEvent({ table: 'favorites', op: 'delete', album_id: ALBUM, row: { item_id: 'i1', user_id: 'u2' } });
    expect(heart).toEqual({ entity: 'favorite', op: 'delete', albumId: ALBUM, id: 'i1:u2', row: { itemId: 'i1', userId: 'u2', createdAt: null } });
  });

  it("an album's change carries its fields; one that names only the album, or a delete, carries none", () => {
    const row = { id: 'a2', owner_id: 'u1', title: 'Renamed', description: '', cover_item_id: null, item_count: 3, bytes_total: '4096', created_at: '2024-01-01 10:00:00+00', updated_at: '2024-03-01 10:00:00+00', deleted_at: null };
    expect(toChangeEvent({ table: 'albums', op: 'update', album_id: 'a2', row, quiet_ms: 5000 })).toEqual({
      entity: 'album',
      op: 'update',
      albumId: 'a2',
      id: 'a2',
      row: { title: 'Renamed', description: '', coverItemId: null, itemCount: 3, bytesTotal: 4096, updatedAt: '2024-03-01T10:00:00.000Z' },
    });
    expect(toChangeEvent({ table: 'albums', op: 'update', album_id: 'a2', row: { id: 'a2' } })?.row).toBeNull();
    expect(toChangeEvent({ table: 'albums', op: 'delete', album_id: ALBUM, row: { id: ALBUM } })).toEqual({ entity: 'album', op: 'delete', albumId: ALBUM, id: ALBUM, row: null });
  });

  it('ignores tables the app does not follow and malformed messages', () => {
    expect(toChangeEvent({ table: 'devices', op: 'insert', album_id: ALBUM, row: { id: 'd1' } })).toBeNull();
    expect(toChangeEvent({ table: 'items', op: 'delete', row: { id: 'i1' } })).toBeNull();
    expect(toChangeEvent({ table: 'items', op: 'truncate', album_id: ALBUM, row: {} })).toBeNull();
    expect(toChangeEvent({ table: 'items', op: 'insert', album_id: ALBUM, row: null })).toBeNull();
    expect(toChangeEvent({ table: 'favorites', op: 'insert', album_id: ALBUM, row: { item_id: 'i1' } })).toBeNull();
    expect(toChangeEvent('change')).toBeNull();
  });
});

describe('Supabase realtime: presence and broadcast', () => {
  it('lists each vouched-for person once, from their first tab, earliest first, by the name the database gives', () => {
    const state = {
      'user-b': [
        { ticket: 'tb1', since: '2024-01-01T10:05:00.000Z', presence_ref: 'r1' },
        { ticket: 'tb2', since: '2024-01-01T10:01:00.000Z', presence_ref: 'r2' },
      ],
      'user-a': [{ ticket: 'ta', userId: 'user-b', displayName: 'Not Ada', since: '2024-01-01T10:03:00.000Z', presence_ref: 'r3' }],
      // Claims with no ticket the database vouches for: a forged owner, and malformed entries.
      owner: [{ userId: 'owner', displayName: 'Owner', ticket: 'forged', since: '2024-01-01T09:00:00.000Z' }],
      junk: [{ presence_ref: 'r4' }, null, { ticket: 'tb1', since: 'not a date' }],
    };
    const people = new Map([
      ['tb1', { userId: 'user-b', displayName: 'Bea' }],
      ['tb2', { userId: 'user-b', displayName: 'Bea' }],
      ['ta', { userId: 'user-a', displayName: 'Ada' }],
    ]);
    expect(toViewers(state, people)).toEqual([
      { userId: 'user-b', displayName: 'Bea', since: '2024-01-01T10:01:00.000Z' },
      { userId: 'user-a', displayName: 'Ada', since: '2024-01-01T10:03:00.000Z' },
    ]);
    expect(toViewers({}, people)).toEqual([]);
    expect(toViewers(state, new Map())).toEqual([]);
  });

  it('passes upload-progress broadcasts with a ticket and drops anything else', () => {
    const msg = { type: 'upload-progress', userId: 'u1', payload: { done: 3, total: 10 }, ticket: 't1' };
    expect(toBroadcastMessage(msg)).toEqual(msg);
    expect(toBroadcastMessage({ ...msg, ticket: undefined })).toBeNull();
    expect(toBroadcastMessage({ type: 'other', userId: 'u1', payload: {}, ticket: 't1' })).toBeNull();
    expect(toBroadcastMessage({ type: 'upload-progress', payload: {}, ticket: 't1' })).toBeNull();
    expect(toBroadcastMessage('upload-progress')).toBeNull();
  });
});
