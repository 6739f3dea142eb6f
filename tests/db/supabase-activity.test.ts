/**
 * Activity and unread counts through the Supabase adapter with two people: real supabase-js, our real SQL,
 * only the hosted HTTP API emulated (tests/db/wire). What one person sees alone is in the data ports' contracts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addReadyItem, expectAppError } from '../../src/testing/contract/contract-fixtures';
import type { Harness } from './db-harness';
import { startWire, type WireEmulator } from './wire/wire-emulator';
import { signUpPerson } from './wire/wire-person';

let db: Harness;
let wire: WireEmulator;

beforeAll(async () => ({ db, wire } = await startWire()), 300_000);
afterAll(() => db?.close());


const person = () => signUpPerson(wire, 'Person');

describe('activity and unread counts over the emulated wire', () => {
  it('what another member does is unread until the album is opened; their lines name them, and no one once they left', async () => {
    const ada = await person();
    const bob = await person();
    const album = await ada.backend.albums.createAlbum({ title: 'Lisbon' });
    const other = await ada.backend.albums.createAlbum({ title: 'Porto' });
    const { token } = await ada.backend.members.createInvite(album.id, { role: 'contributor' });
    await bob.backend.members.acceptInvite(token);
    await ada.backend.activity.markAlbumSeen(album.id);
    expect(await ada.backend.activity.unreadCounts()).toEqual({});

    const first = await addReadyItem(bob.backend, album.id);
    await addReadyItem(bob.backend, album.id);
    // The two additions are one line; nothing happened in Porto; Bob's own doing is not unread to him.
    expect(await ada.backend.activity.unreadCounts()).toEqual({ [album.id]: 1 });
    expect((await bob.backend.activity.unreadCounts())[album.id]).toBeUndefined();
    expect(other.id in (await ada.backend.activity.unreadCounts())).toBe(false);

    const lines = (await ada.backend.activity.listActivity(20)).filter((a) => a.albumId === album.id && a.actorId === bob.id);
    expect(lines.map((a) => [a.verb, a.actorName, a.count, a.subjectId])).toEqual([
      ['added_items', bob.name, 2, first.id],
      ['joined', bob.name, 1, null],
    ]);

    await ada.backend.activity.markAlbumSeen(album.id);
    expect(await ada.backend.activity.unreadCounts()).toEqual({});

    await bob.backend.members.leaveAlbum(album.id, { keepItems: true });
    expect(await ada.backend.activity.unreadCounts()).toEqual({ [album.id]: 1 });
    const after = (await ada.backend.activity.listActivity(20)).filter((a) => a.albumId === album.id && a.actorId === bob.id);
    expect(after.map((a) => [a.verb, a.actorName])).toEqual([
      ['left', null],
      ['added_items', null],
      ['joined', null],
    ]);
    // Gone from the album, Bob can neither mark it nor count it.
    await expectAppError(bob.backend.activity.markAlbumSeen(album.id), 'album/not-found');
    expect(album.id in (await bob.backend.activity.unreadCounts())).toBe(false);
  });
});
