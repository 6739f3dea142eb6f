import { describe, expect, it } from 'vitest';
import { toBroadcastMessage, toChangeEvent, toViewers } from './supabase-realtime';

const ALBUM = '0b7c2f8e-5d1a-4e6b-8c3d-9f0a1b2c3d4e';

describe('Supabase realtime: change messages from the database as ChangeEvents', () => {
  it('an item insert or update carries the new row, camelCased, timestamps as ISO', () => {
    const ev = toChangeEvent({
      table: 'items',
      op: 'update',
      album_id: ALBUM,
      row: { id: 'i1', album_id: ALBUM, status: 'ready', thumb_key: 'k', deleted_at: '2024-03-01 10:00:00.5+00', created_at: '2024-03-01T09:00:00+00:00' },
      id: 'message id',
    });
    expect(ev).toEqual({
      entity: 'item',
      op: 'update',
      albumId: ALBUM,
      row: { id: 'i1', albumId: ALBUM, status: 'ready', thumbKey: 'k', deletedAt: '2024-03-01T10:00:00.500Z', createdAt: '2024-03-01T09:00:00.000Z' },
    });
    expect(toChangeEvent({ table: 'comments', op: 'insert', album_id: ALBUM, row: { id: 'c1', album_id: ALBUM, body: 'Nice' } })).toMatchObject({
      entity: 'comment',
      op: 'insert',
      row: { id: 'c1', body: 'Nice' },
    });
  });

  it('a delete carries only the key, and the album from the message', () => {
    expect(toChangeEvent({ table: 'items', op: 'delete', album_id: ALBUM, row: { id: 'i9' } })).toEqual({
      entity: 'item',
      op: 'delete',
      albumId: ALBUM,
      row: { id: 'i9' },
    });
    expect(toChangeEvent({ table: 'albums', op: 'delete', album_id: ALBUM, row: { id: ALBUM } })).toEqual({
      entity: 'album',
      op: 'delete',
      albumId: ALBUM,
      row: { id: ALBUM },
    });
  });

  it('members and favorites get an id made of their key; albums are their own album', () => {
    expect(toChangeEvent({ table: 'album_members', op: 'insert', album_id: ALBUM, row: { album_id: ALBUM, user_id: 'u2', role: 'viewer' } })).toEqual({
      entity: 'album_member',
      op: 'insert',
      albumId: ALBUM,
      row: { id: `${ALBUM}:u2`, albumId: ALBUM, userId: 'u2', role: 'viewer' },
    });
    expect(toChangeEvent({ table: 'favorites', op: 'delete', album_id: ALBUM, row: { item_id: 'i1', user_id: 'u2' } })?.row.id).toBe('i1:u2');
    expect(toChangeEvent({ table: 'albums', op: 'update', album_id: 'a2', row: { id: 'a2', title: 'Renamed', item_count: 3 }, quiet_ms: 5000 })).toEqual({
      entity: 'album',
      op: 'update',
      albumId: 'a2',
      row: { id: 'a2', title: 'Renamed', itemCount: 3 },
    });
  });

  it('ignores tables the app does not follow and malformed messages', () => {
    expect(toChangeEvent({ table: 'devices', op: 'insert', album_id: ALBUM, row: { id: 'd1' } })).toBeNull();
    expect(toChangeEvent({ table: 'items', op: 'delete', row: { id: 'i1' } })).toBeNull();
    expect(toChangeEvent({ table: 'items', op: 'truncate', album_id: ALBUM, row: {} })).toBeNull();
    expect(toChangeEvent({ table: 'items', op: 'insert', album_id: ALBUM, row: null })).toBeNull();
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
