/**
 * Share links through the Supabase adapter with several people: real supabase-js, our real SQL and RLS, only
 * the hosted HTTP API emulated (tests/db/wire). Links are written as the share-links function leaves them
 * (tests/db/share-link-seed.ts); what every backend shares is in the data ports' contracts
 * (src/testing/contract/share-links-contract.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockPasses, expectAppError } from '../../src/testing/contract/contract-fixtures';
import type { Harness } from './db-harness';
import { seedGuestItems, seedShareLink } from './share-link-seed';
import { startWire, type WireEmulator } from './wire/wire-emulator';
import { signUpPerson, type WirePerson } from './wire/wire-person';

let db: Harness;
let wire: WireEmulator;

beforeAll(async () => ({ db, wire } = await startWire()), 300_000);
afterAll(() => db?.close());

const person = () => signUpPerson(wire, 'Sharer');

/** `owner`'s album with `others` joined in their roles. */
async function albumWith(owner: WirePerson, ...others: [WirePerson, 'editor' | 'contributor' | 'viewer'][]): Promise<string> {
  const album = await owner.backend.albums.createAlbum({ title: 'Shared by link' });
  for (const [p, role] of others) await p.backend.members.acceptInvite((await owner.backend.members.createInvite(album.id, { role })).token);
  return album.id;
}

describe('share links over the emulated wire', () => {
  it('lists every link of the album, newest first, with what the owner set and nothing secret', async () => {
    const ada = await person();
    const albumId = await albumWith(ada);
    const older = await seedShareLink(db, { albumId, createdBy: ada.id, label: 'For Ben', password: true, expiresInHours: 24, maxViews: 10, viewCount: 3, openedHoursAgo: 2 });
    const newer = await seedShareLink(db, {
      albumId,
      createdBy: ada.id,
      expiresInHours: null,
      allowDownload: false,
      allowGuestUpload: true,
      guestMaxFiles: 20,
      guestMaxBytes: 5 * 1024 ** 3,
    });
    await db.query(`update public.share_links set created_at = created_at - interval '1 minute' where id = $1`, [older]);
    const links = await ada.backend.shareLinks.listShareLinks(albumId);
    expect(links.map((l) => l.id)).toEqual([newer, older]);
    expect(links[1]).toMatchObject({ albumId, label: 'For Ben', hasPassword: true, allowDownload: true, allowGuestUpload: false, maxViews: 10, viewCount: 3, createdBy: ada.id, revokedAt: null });
    expect(Date.parse(links[1]!.expiresAt!) - Date.now()).toBeGreaterThan(23 * 3_600_000);
    expect(Date.now() - Date.parse(links[1]!.lastOpenedAt!)).toBeGreaterThan(1.9 * 3_600_000);
    expect(links[0]).toMatchObject({ label: null, hasPassword: false, expiresAt: null, allowDownload: false, allowGuestUpload: true, guestMaxFiles: 20, guestMaxBytes: 5 * 1024 ** 3, lastOpenedAt: null });
    // Neither hash reaches the app.
    expect(JSON.stringify(links)).not.toMatch(/pbkdf2|token_hash|password_hash/);
  });

  it('each link carries how many items its guests added that are still in the album, for the owner and an editor', async () => {
    const [ada, bob] = [await person(), await person()];
    const albumId = await albumWith(ada, [bob, 'editor']);
    const party = await seedShareLink(db, { albumId, createdBy: ada.id, label: 'Party', allowGuestUpload: true });
    const quiet = await seedShareLink(db, { albumId, createdBy: ada.id, label: 'Quiet', allowGuestUpload: true });
    const [first] = await seedGuestItems(db, party, 'Ana', 3);
    await seedGuestItems(db, party, 'Ben', 1, false);
    await bob.backend.itemWrites.trashItems(albumId, [first!]);
    for (const who of [ada, bob]) {
      const links = await who.backend.shareLinks.listShareLinks(albumId);
      expect(Object.fromEntries(links.map((l) => [l.id, l.guestItemCount]))).toEqual({ [party]: 2, [quiet]: 0 });
    }
  });

  it('an editor revokes a link: it stays listed as revoked, and revoking again keeps the first time', async () => {
    const [ada, bob] = [await person(), await person()];
    const albumId = await albumWith(ada, [bob, 'editor']);
    const id = await seedShareLink(db, { albumId, createdBy: ada.id });
    expect((await bob.backend.shareLinks.listShareLinks(albumId)).map((l) => l.id)).toEqual([id]);
    await bob.backend.shareLinks.revokeShareLink(id);
    const [revoked] = await ada.backend.shareLinks.listShareLinks(albumId);
    expect(revoked!.revokedAt).not.toBeNull();
    // A second revoke, at a later time, would stamp a later one.
    await clockPasses(revoked!.revokedAt!);
    await ada.backend.shareLinks.revokeShareLink(id);
    expect((await ada.backend.shareLinks.listShareLinks(albumId))[0]!.revokedAt).toBe(revoked!.revokedAt);
  });

  it('a contributor, a viewer and a stranger see no link and cannot revoke one; the link stays on', async () => {
    const [ada, cy, dee, eve] = [await person(), await person(), await person(), await person()];
    const albumId = await albumWith(ada, [cy, 'contributor'], [dee, 'viewer']);
    const id = await seedShareLink(db, { albumId, createdBy: ada.id, label: 'Family' });
    for (const member of [cy, dee]) {
      expect(await member.backend.shareLinks.listShareLinks(albumId)).toEqual([]);
      await expectAppError(member.backend.shareLinks.revokeShareLink(id), 'album/not-found');
    }
    await expectAppError(eve.backend.shareLinks.listShareLinks(albumId), 'album/not-found');
    await expectAppError(eve.backend.shareLinks.revokeShareLink(id), 'album/not-found');
    expect((await ada.backend.shareLinks.listShareLinks(albumId))[0]).toMatchObject({ id, revokedAt: null });
  });

  it('sends no request the emulated project cannot serve', () => {
    expect(wire.unserved).toEqual([]);
  });
});
