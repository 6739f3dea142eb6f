/**
 * The Data and Auth port contracts against the real Supabase adapter, real supabase-js and our real SQL
 * (migrations, grants, RLS, functions) on a fresh database, with only the hosted HTTP API emulated
 * (tests/db/wire). Each backend signs up its own account through the adapter, so tests share nothing.
 * The Realtime contract needs a WebSocket to a Realtime server, which is not emulated, so it is not run
 * here; the Functions port has no contract suite and the Files port has no Supabase implementation yet.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { describeAuthPortContract } from '../../src/testing/contract/auth-port-contract';
import { expectAppError, placeOriginalsWith, reserveInput } from '../../src/testing/contract/contract-fixtures';
import { describeDataPortsContract } from '../../src/testing/contract/data-ports-contract';
import type { Backend } from '../../src/backend/ports';
import { createSupabaseBackend } from '../../src/backend/supabase/create-supabase-backend';
import { SilentWebSocket } from '../../src/testing/supabase-wire-stub';
import type { Harness } from './db-harness';
import { createWireEmulator, startWire, type WireEmulator } from './wire/wire-emulator';

let db: Harness;
let wire: WireEmulator;

// Applying the migrations can take minutes when the machine is busy with other suites.
beforeAll(async () => ({ db, wire } = await startWire()), 300_000);
afterAll(() => db?.close());

const PASSWORD = 'correct horse battery staple';
let accounts = 0;

function newBackend(project: WireEmulator = wire): Backend {
  return placeOriginalsWith(createSupabaseBackend({ url: project.url, anonKey: project.anonKey, fetch: project.fetch, persistSession: false, webSocket: SilentWebSocket as never }), project.placeOriginal);
}

/** A backend signed in as a new account, made through the adapter's own sign-up. */
async function signedUp(project: WireEmulator = wire): Promise<{ backend: Backend; email: string }> {
  const n = ++accounts;
  const email = `person${n}.${crypto.randomUUID().slice(0, 8)}@example.test`;
  const backend = newBackend(project);
  const session = await backend.auth.signUp(email, PASSWORD, `Person ${n}`);
  if (!session) throw new Error('sign-up gave no session: the emulated project asks for no email confirmation');
  return { backend, email };
}

/** A new account, then a second client signing in to it with its password. */
async function signedIn(): Promise<Backend> {
  const { email } = await signedUp();
  const backend = newBackend();
  await backend.auth.signInWithPassword(email, PASSWORD);
  return backend;
}

describeDataPortsContract('supabase (wire emulator)', async () => (await signedUp()).backend);
describeAuthPortContract('supabase (wire emulator)', signedIn);

describe('Supabase adapter over the emulated wire', () => {
  it('shows one account nothing of another account’s albums', async () => {
    const { backend: ada } = await signedUp();
    const { backend: bob } = await signedUp();
    const album = await ada.albums.createAlbum({ title: 'Private' });
    await expectAppError(bob.albums.getAlbum(album.id), 'album/not-found');
    await expectAppError(bob.items.listItems(album.id, { sort: 'taken' }), 'album/not-found');
    await expectAppError(bob.albums.updateAlbum(album.id, { title: 'Taken over' }), 'album/not-found');
    expect((await bob.albums.listAlbums()).map((a) => a.id)).not.toContain(album.id);
    expect((await ada.albums.getAlbum(album.id)).title).toBe('Private');
  });

  it('refuses a wrong password, an email already registered, and reads by someone signed out', async () => {
    const { email } = await signedUp();
    const other = newBackend();
    await expectAppError(other.auth.signInWithPassword(email, 'not the password'), 'auth/invalid-credentials');
    const taken = await expectAppError(other.auth.signUp(email, PASSWORD, 'Again'), 'validation/invalid');
    expect(taken.details).toMatchObject({ field: 'email' });
    expect(await other.auth.getSession()).toBeNull();
    await expectAppError(other.albums.listAlbums(), 'auth/session-expired');
  });

  // Tokens are stamped in whole seconds, so a 3-second token lives 2 to 3 seconds.
  describe('with access tokens that last three seconds', () => {
    let shortLived: WireEmulator;
    beforeAll(async () => {
      shortLived = await createWireEmulator(db, { accessTokenSeconds: 3 });
    });
    afterEach(() => vi.useRealTimers());
    /** The tokens' three seconds pass: for the app and the emulated project alike (one process, one clock). */
    const tokensRunOut = () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 3_100);
    };

    it('stays signed in after the access token expires, by refreshing it', async () => {
      const { backend } = await signedUp(shortLived);
      const first = (await backend.auth.getSession())!;
      tokensRunOut();
      const later = (await backend.auth.getSession())!;
      expect(later.userId).toBe(first.userId);
      expect(later.expiresAt!).toBeGreaterThan(first.expiresAt!);
      expect((await backend.albums.createAlbum({ title: 'After a refresh' })).ownerId).toBe(first.userId);
    });

    it('signing out the other devices ends their sessions once their tokens run out, and keeps this one', async () => {
      const { backend: here, email } = await signedUp(shortLived);
      const there = newBackend(shortLived);
      await there.auth.signInWithPassword(email, PASSWORD);
      await here.auth.signOut('others');
      tokensRunOut();
      await expectAppError(there.auth.getSession(), 'auth/session-expired');
      expect(await there.auth.getSession()).toBeNull();
      await expectAppError(there.albums.listAlbums(), 'auth/session-expired');
      expect((await here.auth.getSession())?.email).toBe(email);
      expect(await here.albums.listAlbums()).toEqual([]);
    });

    it('sends no request the emulated project cannot serve', () => {
      expect(shortLived.unserved).toEqual([]);
    });
  });

  it('shows the owner how many uploads a contributor left unfinished, and clears them; a contributor may do neither', async () => {
    const { backend: owner } = await signedUp();
    const { backend: cora } = await signedUp();
    const album = await owner.albums.createAlbum({ title: 'Shared' });
    const coraId = (await cora.auth.getSession())!.userId;
    await db.query(`insert into public.album_members (album_id, user_id, role) values ($1, $2, 'contributor')`, [album.id, coraId]);
    const reserved = await cora.itemWrites.reserveItems(album.id, [reserveInput(), reserveInput()]);
    await cora.itemWrites.failItem(album.id, reserved[0]!.id);

    expect(await owner.itemWrites.countPendingItems(album.id)).toBe(2);
    await expectAppError(cora.itemWrites.countPendingItems(album.id), 'album/forbidden');
    await expectAppError(cora.itemWrites.clearPendingItems(album.id), 'album/forbidden');
    expect(await owner.itemWrites.clearPendingItems(album.id)).toBe(2);
    expect(await owner.itemWrites.countPendingItems(album.id)).toBe(0);
    await expectAppError(cora.items.getItem(album.id, reserved[1]!.id), 'item/not-found');
  });

  it('clears 12,000 unfinished uploads, in as many calls as it takes', async () => {
    const { backend: owner } = await signedUp();
    const album = await owner.albums.createAlbum({ title: 'Crowded' });
    const helpers = [await signedUp(), await signedUp()];
    for (const [i, { backend }] of helpers.entries()) {
      const id = (await backend.auth.getSession())!.userId;
      await db.query(`insert into public.album_members (album_id, user_id, role) values ($1, $2, 'contributor')`, [album.id, id]);
      const n = i === 0 ? 10_000 : 2_000;
      await backend.itemWrites.reserveItems(album.id, Array.from({ length: n }, () => reserveInput()));
    }
    expect(await owner.itemWrites.countPendingItems(album.id)).toBe(12_000);
    // Each call clears at most 5,000 (tests/db/db-rules.test.ts); the adapter calls until all are gone.
    expect(await owner.itemWrites.clearPendingItems(album.id)).toBe(12_000);
    expect(await owner.itemWrites.countPendingItems(album.id)).toBe(0);
  });

  it('sends no request the emulated project cannot serve', () => {
    expect(wire.unserved).toEqual([]);
  });
});
