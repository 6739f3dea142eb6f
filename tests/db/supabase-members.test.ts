/**
 * Members and invitations through the Supabase adapter, with two and three people: real supabase-js, our
 * real SQL, only the hosted HTTP API emulated (tests/db/wire). What every backend shares is in the data ports'
 * contract (src/testing/contract/members-contract.ts); this file holds what needs someone else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addReadyItem, expectAppError } from '../../src/testing/contract/contract-fixtures';
import type { Harness } from './db-harness';
import { startWire, type WireEmulator } from './wire/wire-emulator';
import { signUpPerson, type WirePerson } from './wire/wire-person';

let db: Harness;
let wire: WireEmulator;

beforeAll(async () => ({ db, wire } = await startWire()), 300_000);
afterAll(() => db?.close());


type Person = WirePerson;

const person = () => signUpPerson(wire, 'Member');

/** `owner`'s new album, joined by `others` through one invitation with `role`. */
async function sharedAlbum(owner: Person, role: 'editor' | 'contributor' | 'viewer', ...others: Person[]): Promise<string> {
  const album = await owner.backend.albums.createAlbum({ title: 'Together' });
  const { token } = await owner.backend.members.createInvite(album.id, { role });
  for (const other of others) expect(await other.backend.members.acceptInvite(token)).toBe(album.id);
  return album.id;
}

describe('members and invitations over the emulated wire', () => {
  it('the owner invites; a stranger previews the album, joins with the role, and shows in the member list', async () => {
    const ada = await person();
    const bob = await person();
    const album = await ada.backend.albums.createAlbum({ title: 'Lisbon' });
    const { invite, token } = await ada.backend.members.createInvite(album.id, { role: 'contributor', maxUses: 2 });
    expect(token.length).toBeGreaterThanOrEqual(22);
    expect(invite).toMatchObject({ albumId: album.id, role: 'contributor', email: null, maxUses: 2, useCount: 0, createdBy: ada.id, revokedAt: null });
    const days = (Date.parse(invite.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    expect((await ada.backend.members.listInvites(album.id)).map((i) => i.id)).toEqual([invite.id]);
    expect(JSON.stringify(await ada.backend.members.listInvites(album.id))).not.toContain(token);

    await expectAppError(bob.backend.albums.getAlbum(album.id), 'album/not-found');
    expect(await bob.backend.members.invitePreview(token)).toEqual({ albumTitle: 'Lisbon', coverThumbKey: null, coverThumbhash: null, inviterName: ada.name });
    expect(await bob.backend.members.acceptInvite(token)).toBe(album.id);
    expect((await bob.backend.albums.getAlbum(album.id)).role).toBe('contributor');

    const members = await ada.backend.members.listMembers(album.id);
    expect(members.map((m) => [m.userId, m.displayName, m.role])).toEqual([
      [ada.id, ada.name, 'owner'],
      [bob.id, bob.name, 'contributor'],
    ]);
    expect(members[1]).toMatchObject({ addedBy: ada.id, addedByName: ada.name, avatarKey: null });
    expect(await bob.backend.members.listMembers(album.id)).toEqual(members);
    expect((await ada.backend.members.listInvites(album.id))[0]?.useCount).toBe(1);
    // Only the owner sees the invitations.
    expect(await bob.backend.members.listInvites(album.id)).toEqual([]);
    // Opening the link again as a member spends nothing.
    expect(await bob.backend.members.acceptInvite(token)).toBe(album.id);
    expect((await ada.backend.members.listInvites(album.id))[0]?.useCount).toBe(1);
  });

  it('the owner changes a role and removes a member; the member may do neither', async () => {
    const ada = await person();
    const bob = await person();
    const albumId = await sharedAlbum(ada, 'editor', bob);
    await expectAppError(bob.backend.members.setMemberRole(albumId, ada.id, 'viewer'), 'album/forbidden');
    await expectAppError(bob.backend.members.removeMember(albumId, ada.id), 'album/forbidden');
    await expectAppError(bob.backend.members.createInvite(albumId, { role: 'editor' }), 'album/forbidden');
    await expectAppError(bob.backend.members.transferOwnership(albumId, bob.id), 'album/forbidden');

    await ada.backend.members.setMemberRole(albumId, bob.id, 'viewer');
    expect((await bob.backend.albums.getAlbum(albumId)).role).toBe('viewer');
    expect((await ada.backend.members.listMembers(albumId)).find((m) => m.userId === bob.id)?.role).toBe('viewer');

    await ada.backend.members.removeMember(albumId, bob.id);
    await expectAppError(bob.backend.albums.getAlbum(albumId), 'album/not-found');
    await expectAppError(bob.backend.members.listMembers(albumId), 'album/not-found');
    expect((await ada.backend.members.listMembers(albumId)).map((m) => m.userId)).toEqual([ada.id]);
  });

  it('a revoked invitation says so to whoever holds it, and leaves the pending list', async () => {
    const ada = await person();
    const bob = await person();
    const album = await ada.backend.albums.createAlbum({ title: 'Withdrawn' });
    const { invite, token } = await ada.backend.members.createInvite(album.id, { role: 'viewer' });
    await expectAppError(bob.backend.members.revokeInvite(invite.id), 'album/not-found');
    await ada.backend.members.revokeInvite(invite.id);
    await ada.backend.members.revokeInvite(invite.id);
    expect(await ada.backend.members.listInvites(album.id)).toEqual([]);
    await expectAppError(bob.backend.members.invitePreview(token), 'invite/revoked');
    await expectAppError(bob.backend.members.acceptInvite(token), 'invite/revoked');
    await expectAppError(bob.backend.albums.getAlbum(album.id), 'album/not-found');
  });

  it('a single-use invitation lets one person in and tells the next it is used up', async () => {
    const ada = await person();
    const bob = await person();
    const cy = await person();
    const album = await ada.backend.albums.createAlbum({ title: 'One seat' });
    const { token } = await ada.backend.members.createInvite(album.id, { role: 'viewer', maxUses: 1, expiresInDays: 1 });
    expect(await bob.backend.members.acceptInvite(token)).toBe(album.id);
    await expectAppError(cy.backend.members.acceptInvite(token), 'invite/used-up');
    await expectAppError(cy.backend.members.invitePreview(token), 'invite/used-up');
    expect(await ada.backend.members.listInvites(album.id)).toEqual([]);
  });

  it('refuses an invitation that lasts no day or more than a year, or that no one may use', async () => {
    const ada = await person();
    const album = await ada.backend.albums.createAlbum({ title: 'Bounds' });
    for (const expiresInDays of [0, 366, 1.5]) {
      const e = await expectAppError(ada.backend.members.createInvite(album.id, { role: 'viewer', expiresInDays }), 'validation/invalid');
      expect(e.details).toMatchObject({ field: 'expiresInDays' });
    }
    await expectAppError(ada.backend.members.createInvite(album.id, { role: 'viewer', maxUses: 0 }), 'validation/invalid');
    await expectAppError(ada.backend.members.createInvite(album.id, { role: 'owner' as never }), 'validation/invalid');
    const { invite } = await ada.backend.members.createInvite(album.id, { role: 'viewer', expiresInDays: 365 });
    expect(Date.parse(invite.expiresAt) - Date.now()).toBeGreaterThan(364 * 86_400_000);
  });

  it('hands the album over to a member; the old owner becomes an editor and may leave, trashing what they added', async () => {
    const ada = await person();
    const bob = await person();
    const albumId = await sharedAlbum(ada, 'contributor', bob);
    const adas = await addReadyItem(ada.backend, albumId);
    const bobs = await addReadyItem(bob.backend, albumId);

    await ada.backend.members.transferOwnership(albumId, bob.id);
    expect((await bob.backend.albums.getAlbum(albumId)).role).toBe('owner');
    expect((await ada.backend.members.listMembers(albumId)).map((m) => [m.userId, m.role])).toEqual([
      [bob.id, 'owner'],
      [ada.id, 'editor'],
    ]);
    await expectAppError(bob.backend.members.leaveAlbum(albumId, { keepItems: true }), 'album/forbidden');

    await ada.backend.members.leaveAlbum(albumId, { keepItems: false });
    await expectAppError(ada.backend.albums.getAlbum(albumId), 'album/not-found');
    const trashed = await bob.backend.items.listItems(albumId, { sort: 'added', trashed: true });
    expect(trashed.rows.map((i) => i.id)).toEqual([adas.id]);
    expect((await bob.backend.items.listItems(albumId, { sort: 'added' })).rows.map((i) => i.id)).toEqual([bobs.id]);
    expect((await bob.backend.members.listMembers(albumId)).map((m) => m.userId)).toEqual([bob.id]);
  });

  it('a member who leaves keeping their items leaves them in the album', async () => {
    const ada = await person();
    const bob = await person();
    const albumId = await sharedAlbum(ada, 'contributor', bob);
    const bobs = await addReadyItem(bob.backend, albumId);
    await bob.backend.members.leaveAlbum(albumId, { keepItems: true });
    await expectAppError(bob.backend.albums.getAlbum(albumId), 'album/not-found');
    expect((await ada.backend.items.listItems(albumId, { sort: 'added' })).rows.map((i) => i.id)).toEqual([bobs.id]);
  });

  it('the home screen\'s activity still reads once people join, change roles, leave, are removed and hand over', async () => {
    const ada = await person();
    const bob = await person();
    const cy = await person();
    const albumId = await sharedAlbum(ada, 'viewer', bob, cy);
    await ada.backend.members.setMemberRole(albumId, bob.id, 'editor');
    await ada.backend.members.removeMember(albumId, cy.id);
    await ada.backend.members.transferOwnership(albumId, bob.id);
    await ada.backend.members.leaveAlbum(albumId, { keepItems: true });
    const verbs = (await bob.backend.activity.listActivity(20)).map((a) => a.verb);
    expect(verbs).toEqual(['left', 'transferred_ownership', 'removed_member', 'changed_role', 'joined', 'joined', 'created_album']);
  });

  it('sends no request the emulated project cannot serve', () => {
    expect(wire.unserved).toEqual([]);
  });
});
