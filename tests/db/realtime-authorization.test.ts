/**
 * What a signed-in stranger can learn about an album over Realtime, tried as an attacker would: with plain
 * supabase-js and the anon key, on the emulated wire (tests/db/wire/realtime-emulator.ts) in front of our
 * real SQL. The project here still allows public channels (the README asks to turn that off), so each
 * attack is tried where it has the most room. Members, meanwhile, keep hearing everything through the app's
 * own adapter.
 */
import { createClient, type RealtimeChannel, type SupabaseClient } from '@supabase/supabase-js';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addReadyItem, placeOriginalsWith, sleep, waitFor } from '../../src/testing/contract/contract-fixtures';
import { REALTIME_DEADLINE_MS, subscribeLive } from '../../src/testing/contract/realtime-port-contract';
import type { Backend, BroadcastMessage, ChangeEvent, ChangeOfEntity } from '../../src/backend/ports';
import type { PresenceViewer } from '../../src/domain/entities';
import { createSupabaseBackend } from '../../src/backend/supabase/create-supabase-backend';
import { startDb, type Harness } from './db-harness';
import { createWireEmulator, type WireEmulator } from './wire/wire-emulator';

let db: Harness;
let wire: WireEmulator;

beforeAll(async () => {
  db = await startDb();
  wire = await createWireEmulator(db, { realtime: true });
}, 300_000);
afterAll(async () => {
  await wire?.close();
  await db?.close();
});

const PASSWORD = 'correct horse battery staple';
const DEADLINE = REALTIME_DEADLINE_MS * 5;

interface Person {
  backend: Backend;
  client: SupabaseClient;
  userId: string;
}

async function person(name: string): Promise<Person> {
  const email = `${name}.${crypto.randomUUID().slice(0, 8)}@example.test`;
  const backend = placeOriginalsWith(createSupabaseBackend({ url: wire.url, anonKey: wire.anonKey, fetch: wire.fetch, persistSession: false, webSocket: WebSocket as never }), wire.placeOriginal);
  const session = await backend.auth.signUp(email, PASSWORD, name);
  if (!session) throw new Error('sign-up gave no session');
  const client = createClient(wire.url, wire.anonKey, {
    global: { fetch: wire.fetch },
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  });
  const { error } = await client.auth.signInWithPassword({ email, password: PASSWORD });
  if (error) throw error;
  // Realtime joins with the user's token, as supabase-js does once signed in.
  await client.realtime.setAuth();
  return { backend, client, userId: session.userId };
}

async function invite(owner: Person, member: Person, albumId: string, role: 'editor' | 'contributor' | 'viewer' = 'editor'): Promise<void> {
  const created = await owner.client.rpc('create_invite', { p_album_id: albumId, p_role: role });
  if (created.error) throw new Error(created.error.message);
  const accepted = await member.client.rpc('accept_invite', { p_token: (created.data as { token: string }[])[0]!.token });
  if (accepted.error) throw new Error(accepted.error.message);
}

/** Subscribes a raw channel and resolves with how the join ended: SUBSCRIBED, or the error Realtime gave. */
function join(channel: RealtimeChannel): Promise<{ status: string; error?: string }> {
  return new Promise((resolve) => {
    channel.subscribe((status, err) => {
      if (status === 'SUBSCRIBED') resolve({ status });
      else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') resolve({ status, ...(err ? { error: err.message } : {}) });
    });
  });
}

const TABLES = ['album_members', 'albums', 'favorites', 'items', 'comments'];

describe('Realtime tells a non-member nothing about an album', () => {
  it('a stranger listening to postgres_changes on every table, with no filter, hears nothing of members, favourites, trash or deletion', async () => {
    const [owner, member, stranger] = await Promise.all([person('Owner'), person('Member'), person('Stranger')]);
    const album = await owner.backend.albums.createAlbum({ title: 'Not for strangers' });
    const item = await addReadyItem(owner.backend, album.id);

    const overheard: unknown[] = [];
    const spy = stranger.client.channel(`spy-${stranger.userId}`);
    for (const table of TABLES) spy.on('postgres_changes', { event: '*', schema: 'public', table }, (payload) => overheard.push(payload));
    expect(await join(spy)).toEqual({ status: 'SUBSCRIBED' });

    const heard: ChangeEvent[] = [];
    const { stop } = await subscribeLive(owner.backend, album.id, { onChange: (ev) => heard.push(ev) });
    try {
      await invite(owner, member, album.id);
      expect((await member.client.from('favorites').insert({ item_id: item.id, album_id: album.id })).error).toBeNull();
      expect((await member.client.from('favorites').delete().eq('item_id', item.id)).error).toBeNull();
      expect((await member.client.rpc('remove_member', { p_album_id: album.id, p_user_id: member.userId })).error).toBeNull();
      await owner.backend.itemWrites.trashItems(album.id, [item.id]);
      // The owner hears each of these on the album's channel, the removal and the favourite's deletion included.
      await waitFor(() => heard.find((ev) => ev.entity === 'favorite' && ev.op === 'delete'), DEADLINE, 'the favourite removed');
      await waitFor(() => heard.find((ev) => ev.entity === 'album_member' && ev.op === 'delete' && ev.row?.userId === member.userId), DEADLINE, 'the member removed');
      await waitFor(() => heard.find((ev) => ev.entity === 'item' && ev.id === item.id && ev.row?.deletedAt), DEADLINE, 'the item trashed');

      await owner.backend.albums.deleteAlbum(album.id);
      // An hour later the purge deletes the album's rows for good.
      await db.query(`select private.purge_expired(now() + interval '31 days', 1000)`);
      await db.query(`select private.purge_expired(now() + interval '31 days', 1000)`);
      expect(await db.query('select 1 from public.albums where id = $1', [album.id])).toEqual([]);
      wire.realtime!.changesMayHaveCommitted();
      await sleep(1500);
      expect(overheard).toEqual([]);
    } finally {
      stop();
      await stranger.client.removeChannel(spy);
    }
  });

  it("a stranger who joins an album's private channel is refused, and neither sees nor shows presence there", async () => {
    const [owner, member, stranger] = await Promise.all([person('Owner'), person('Member'), person('Stranger')]);
    const album = await owner.backend.albums.createAlbum({ title: 'Who is looking' });
    await invite(owner, member, album.id);
    let ownerSees: PresenceViewer[] = [];
    const { stop: stopOwner } = await subscribeLive(owner.backend, album.id, { onPresence: (v) => (ownerSees = v) });
    const { stop: stopMember } = await subscribeLive(member.backend, album.id);
    try {
      await waitFor(() => (ownerSees.some((v) => v.userId === member.userId) ? true : undefined), DEADLINE, 'the member among the viewers');

      const privateSpy = stranger.client.channel(`album:${album.id}`, { config: { private: true, presence: { key: stranger.userId } } });
      privateSpy.on('presence', { event: 'sync' }, () => undefined);
      expect(await join(privateSpy)).toEqual({
        status: 'CHANNEL_ERROR',
        error: `Unauthorized: You do not have permissions to read from this Channel topic: album:${album.id}`,
      });
      expect(privateSpy.presenceState()).toEqual({});
      await stranger.client.removeChannel(privateSpy);

      // A public channel of the same name is another channel: nothing of the members' shows there, nor back.
      const publicSpy = stranger.client.channel(`album:${album.id}`, { config: { presence: { key: stranger.userId } } });
      publicSpy.on('presence', { event: 'sync' }, () => undefined);
      expect(await join(publicSpy)).toEqual({ status: 'SUBSCRIBED' });
      expect(await publicSpy.track({ userId: stranger.userId, displayName: 'Fake viewer', since: new Date().toISOString() })).toBe('ok');
      await sleep(500);
      expect(Object.keys(publicSpy.presenceState())).toEqual([stranger.userId]);
      expect(ownerSees.map((v) => v.userId).sort()).toEqual([owner.userId, member.userId].sort());
      await stranger.client.removeChannel(publicSpy);
    } finally {
      stopMember();
      stopOwner();
    }
  });

  it("a member who signs out on a browser (or is signed out from another device) stops hearing the album's private channel there", async () => {
    const [owner, member] = await Promise.all([person('Owner'), person('Member')]);
    const album = await owner.backend.albums.createAlbum({ title: 'Signed out' });
    await invite(owner, member, album.id);
    const channel = member.client.channel(`album:${album.id}`, { config: { private: true } });
    const heard: unknown[] = [];
    const system: string[] = [];
    channel.on('broadcast', { event: 'note' }, (m) => heard.push(m.payload));
    channel.on('system', {}, (m: { message?: string }) => system.push(String(m.message)));
    const joined = new Promise<void>((resolve) =>
      channel.subscribe((status) => {
        if (status === 'SUBSCRIBED') resolve();
      }),
    );
    await joined;
    const send = (text: string) => owner.client.channel(`album:${album.id}`, { config: { private: true } }).httpSend('note', { text });
    await send('before');
    await waitFor(() => (heard.length === 1 ? true : undefined), DEADLINE, 'the note sent while signed in');

    // supabase-js hands Realtime the anon key once signed out: Realtime asks the read policy again and ends the channel.
    await member.client.auth.signOut({ scope: 'local' });
    await waitFor(
      () => (system.includes(`You no longer have permission to read from this Channel topic: album:${album.id}`) ? true : undefined),
      DEADLINE,
      'the channel ended',
    );
    await send('after');
    await sleep(500);
    expect(heard).toEqual([{ text: 'before' }]);
    expect(channel.state).toBe('closed');
    await member.client.removeChannel(channel);
  });

  it('upload progress from a stranger, or from a member who may not add items, reaches no one; from a contributor it does', async () => {
    const [owner, viewer, editor, stranger] = await Promise.all([person('Owner'), person('Viewer'), person('Editor'), person('Stranger')]);
    const album = await owner.backend.albums.createAlbum({ title: 'Progress' });
    await invite(owner, viewer, album.id, 'viewer');
    await invite(owner, editor, album.id, 'editor');
    const heard: BroadcastMessage[] = [];
    const { stop } = await subscribeLive(owner.backend, album.id, { onBroadcast: (msg) => heard.push(msg) });
    const { stop: stopViewer } = await subscribeLive(viewer.backend, album.id);
    try {
      const fake = (userId: string): BroadcastMessage => ({ type: 'upload-progress', userId, payload: { done: 1, total: 2 } });
      // Over the WebSocket, on the private channel (refused at join) and on the public one of the same name.
      const privateSpy = stranger.client.channel(`album:${album.id}`, { config: { private: true } });
      expect((await join(privateSpy)).status).toBe('CHANNEL_ERROR');
      await stranger.client.removeChannel(privateSpy);
      const publicSpy = stranger.client.channel(`album:${album.id}`);
      expect(await join(publicSpy)).toEqual({ status: 'SUBSCRIBED' });
      await publicSpy.send({ type: 'broadcast', event: 'upload-progress', payload: fake(stranger.userId) });
      await stranger.client.removeChannel(publicSpy);
      // Over REST, to the private topic: refused.
      const rest = stranger.client.channel(`album:${album.id}`, { config: { private: true } });
      await expect(rest.httpSend('upload-progress', fake(stranger.userId))).rejects.toThrow('Unauthorized');
      await stranger.client.removeChannel(rest);
      // A viewer is a member but adds no items: their progress is dropped.
      viewer.backend.realtime.broadcast(album.id, fake(viewer.userId));
      const viewerRest = viewer.client.channel(`album:${album.id}`, { config: { private: true } });
      await expect(viewerRest.httpSend('upload-progress', fake(viewer.userId))).rejects.toThrow('Unauthorized');
      await viewer.client.removeChannel(viewerRest);

      // An editor's progress arrives, over REST as the uploads screen sends it.
      editor.backend.realtime.broadcast(album.id, fake(editor.userId));
      await waitFor(() => heard.find((m) => m.userId === editor.userId), DEADLINE, "the editor's progress");
      await sleep(300);
      expect(heard).toEqual([fake(editor.userId)]);
    } finally {
      stopViewer();
      stop();
    }
  });
});

describe('A member cannot speak for the database', () => {
  it("a contributor's forged changes on the album's channel are applied by no one, and the changes topic takes nothing from them", async () => {
    const [owner, cora] = await Promise.all([person('Owner'), person('Cora')]);
    const album = await owner.backend.albums.createAlbum({ title: 'Forged' });
    await invite(owner, cora, album.id, 'contributor');
    const heard: ChangeEvent[] = [];
    const { stop } = await subscribeLive(owner.backend, album.id, { onChange: (ev) => heard.push(ev) });
    try {
      // The item is added while the owner listens, and its own changes are heard out before the forgeries:
      // added before, its last change could still be on the way when the listening starts.
      const item = await addReadyItem(owner.backend, album.id);
      await waitFor(() => heard.find((ev) => ev.entity === 'item' && ev.row?.status === 'ready'), DEADLINE, "the item's own change");
      await sleep(300);
      heard.length = 0;
      const forged = [
        { table: 'comments', op: 'insert', album_id: album.id, row: { id: crypto.randomUUID(), item_id: item.id, album_id: album.id, author_id: owner.userId, body: 'I never wrote this', created_at: new Date().toISOString(), edited_at: null } },
        { table: 'items', op: 'delete', album_id: album.id, row: { id: item.id } },
        { table: 'album_members', op: 'update', album_id: album.id, row: { album_id: album.id, user_id: cora.userId, role: 'owner' } },
        { table: 'albums', op: 'delete', album_id: album.id, row: { id: album.id } },
      ];
      // On the album's channel, which a contributor may join and send upload progress on.
      const spoof = cora.client.channel(`album:${album.id}`, { config: { private: true } });
      expect(await join(spoof)).toEqual({ status: 'SUBSCRIBED' });
      for (const payload of forged) await spoof.send({ type: 'broadcast', event: 'change', payload });
      await expect(spoof.httpSend('change', forged[1]!)).resolves.toBeDefined();
      // A real change after them arrives; none of the forged ones did.
      await cora.client.removeChannel(spoof);
      await cora.backend.social.addComment(album.id, item.id, 'Really mine');
      await waitFor(() => heard.find((ev) => ev.entity === 'comment' && ev.row?.body === 'Really mine'), DEADLINE, 'the real comment');
      await sleep(300);
      expect(heard.map((ev) => `${ev.entity} ${ev.op}`)).toEqual(['comment insert']);
      // On the changes topic itself: a member may listen there, never send.
      const direct = cora.client.channel(`album-db:${album.id}`, { config: { private: true } });
      await expect(direct.httpSend('change', forged[1]!)).rejects.toThrow('Unauthorized');
      expect(await join(direct)).toEqual({ status: 'SUBSCRIBED' });
      await direct.send({ type: 'broadcast', event: 'change', payload: forged[3]! });
      await cora.client.removeChannel(direct);
      await cora.backend.social.addComment(album.id, item.id, 'Still mine');
      await waitFor(() => heard.find((ev) => ev.entity === 'comment' && ev.row?.body === 'Still mine'), DEADLINE, 'the second comment');
      await sleep(300);
      expect(heard.map((ev) => `${ev.entity} ${ev.op}`)).toEqual(['comment insert', 'comment insert']);
      expect(await owner.backend.items.getItem(album.id, item.id)).toMatchObject({ id: item.id });
    } finally {
      stop();
    }
  });
});

describe('A member speaks only for themself', () => {
  it("a contributor's presence and upload progress as the owner are shown by no one; as themself, under their own name", async () => {
    const [owner, cora, vic] = await Promise.all([person('Owner'), person('Cora'), person('Vic')]);
    const album = await owner.backend.albums.createAlbum({ title: 'Who is who' });
    await invite(owner, cora, album.id, 'contributor');
    await invite(owner, vic, album.id, 'viewer');
    let vicSees: PresenceViewer[] = [];
    const vicHears: BroadcastMessage[] = [];
    const { stop } = await subscribeLive(vic.backend, album.id, { onPresence: (v) => (vicSees = v), onBroadcast: (m) => vicHears.push(m) });
    const spoof = cora.client.channel(`album:${album.id}`, { config: { private: true, presence: { key: owner.userId } } });
    try {
      const since = '2020-01-01T00:00:00.000Z';
      const progress = { done: 1, total: 12 };
      const { data: coraTicket } = await cora.client.rpc('presence_ticket', { p_album_id: album.id });
      expect(typeof coraTicket).toBe('string');
      const [, expires, mac] = (coraTicket as string).split('.');
      expect(await join(spoof)).toEqual({ status: 'SUBSCRIBED' });
      // The owner's id and name, with no ticket, with a made-up one, and with Cora's mac under the owner's id.
      for (const ticket of [undefined, 'forged', `${owner.userId}.${expires}.${mac}`]) {
        expect(await spoof.track({ userId: owner.userId, displayName: 'Owner', since, ...(ticket ? { ticket } : {}) })).toBe('ok');
        await spoof.send({ type: 'broadcast', event: 'upload-progress', payload: { type: 'upload-progress', userId: owner.userId, payload: progress, ...(ticket ? { ticket } : {}) } });
      }
      // Cora's real ticket, claiming the owner's progress.
      await spoof.send({ type: 'broadcast', event: 'upload-progress', payload: { type: 'upload-progress', userId: owner.userId, payload: progress, ticket: coraTicket } });
      await sleep(1000);
      expect(vicSees.map((v) => v.userId)).not.toContain(owner.userId);
      expect(vicHears).toEqual([]);

      // Her own ticket under the owner's name shows her, by the name the database has.
      expect(await spoof.track({ userId: owner.userId, displayName: 'Owner', since, ticket: coraTicket })).toBe('ok');
      await waitFor(() => vicSees.find((v) => v.userId === cora.userId), DEADLINE, 'Cora among the viewers');
      expect(vicSees.find((v) => v.userId === cora.userId)?.displayName).toBe('Cora');
      expect(vicSees.map((v) => v.userId)).not.toContain(owner.userId);

      // Her progress through the app arrives as hers.
      cora.backend.realtime.broadcast(album.id, { type: 'upload-progress', userId: cora.userId, payload: progress });
      await waitFor(() => vicHears.find((m) => m.userId === cora.userId), DEADLINE, "Cora's progress");
      expect(vicHears).toEqual([{ type: 'upload-progress', userId: cora.userId, payload: progress }]);
    } finally {
      await cora.client.removeChannel(spoof);
      stop();
    }
  });
});

describe('A removed member stops hearing', () => {
  it("a removed member who stays on the album's topics hears them until their token is refreshed, then the channels end", async () => {
    const [owner, member] = await Promise.all([person('Owner'), person('Member')]);
    const album = await owner.backend.albums.createAlbum({ title: 'Removed' });
    await invite(owner, member, album.id, 'contributor');
    const item = await addReadyItem(owner.backend, album.id);
    const heard: unknown[] = [];
    const system: string[] = [];
    const changes = member.client.channel(`album-db:${album.id}`, { config: { private: true } });
    changes.on('broadcast', { event: 'change' }, (m) => heard.push(m.payload));
    changes.on('system', {}, (m: { message?: string }) => system.push(String(m.message)));
    expect(await join(changes)).toEqual({ status: 'SUBSCRIBED' });

    expect((await owner.client.rpc('remove_member', { p_album_id: album.id, p_user_id: member.userId })).error).toBeNull();
    // What Realtime allows: its read policy is asked at the join and again with each new token, not per message.
    await owner.backend.social.addComment(album.id, item.id, 'Heard after the removal');
    await waitFor(() => heard.find((p) => JSON.stringify(p).includes('Heard after the removal')), DEADLINE, 'the comment heard until the refresh');

    // supabase-js hands Realtime each refreshed token (every jwt_expiry, 15 minutes: supabase/config.toml).
    const { error } = await member.client.auth.refreshSession();
    expect(error).toBeNull();
    await waitFor(
      () => (system.includes(`You no longer have permission to read from this Channel topic: album-db:${album.id}`) ? true : undefined),
      DEADLINE,
      'the channel ended',
    );
    const count = heard.length;
    await owner.backend.social.addComment(album.id, item.id, 'Not heard');
    await sleep(500);
    expect(heard.length).toBe(count);
    expect(changes.state).toBe('closed');
    await member.client.removeChannel(changes);
  });
});

describe('Members still hear everything', () => {
  it('the albums screen hears an album gained, renamed, counted, lost by removal, and deleted', async () => {
    const [owner, member] = await Promise.all([person('Owner'), person('Member')]);
    const heard: ChangeEvent[] = [];
    const { stop } = await subscribeLive(member.backend, null, { onChange: (ev) => heard.push(ev) });
    try {
      const kept = await owner.backend.albums.createAlbum({ title: 'Kept' });
      const left = await owner.backend.albums.createAlbum({ title: 'Left' });
      await invite(owner, member, kept.id);
      await invite(owner, member, left.id);
      await waitFor(() => heard.find((ev) => ev.entity === 'album_member' && ev.op === 'insert' && ev.albumId === left.id), DEADLINE, 'the album gained');
      await owner.backend.albums.updateAlbum(kept.id, { title: 'Kept, renamed' });
      await waitFor(() => heard.find((ev) => ev.entity === 'album' && ev.row?.title === 'Kept, renamed'), DEADLINE, 'the rename');
      await addReadyItem(owner.backend, kept.id);
      await waitFor(() => heard.find((ev) => ev.entity === 'album' && ev.albumId === kept.id && ev.row?.itemCount === 1), DEADLINE, 'the count');
      expect((await owner.client.rpc('remove_member', { p_album_id: left.id, p_user_id: member.userId })).error).toBeNull();
      await waitFor(() => heard.find((ev) => ev.entity === 'album_member' && ev.op === 'delete' && ev.albumId === left.id), DEADLINE, 'the album lost');
      await owner.backend.albums.deleteAlbum(kept.id);
      await waitFor(() => heard.find((ev) => ev.entity === 'album' && ev.op === 'delete' && ev.albumId === kept.id), DEADLINE, 'the album deleted');
    } finally {
      stop();
    }
  });

  it('counts that change faster than once per quiet time are told at once, and once more when they settle', async () => {
    const [owner, member] = await Promise.all([person('Owner'), person('Member')]);
    const album = await owner.backend.albums.createAlbum({ title: 'Busy' });
    await invite(owner, member, album.id);
    const heard: ChangeOfEntity<'album'>[] = [];
    const { stop } = await subscribeLive(member.backend, null, { onChange: (ev) => ev.entity === 'album' && heard.push(ev) });
    try {
      await addReadyItem(owner.backend, album.id);
      await addReadyItem(owner.backend, album.id);
      await addReadyItem(owner.backend, album.id);
      await waitFor(() => heard.find((ev) => ev.row?.itemCount === 1), DEADLINE, 'the first count');
      await sleep(1000);
      // The second and third uploads came within the quiet time: no message of their own.
      expect(heard.filter((ev) => ev.row).map((ev) => ev.row?.itemCount)).toEqual([1]);
      await waitFor(() => heard.find((ev) => ev.row === null), 10_000, 'the second look');
    } finally {
      stop();
    }
  });

  it("an edit of an item's details is told to every member's own topic, where a search across albums listens", async () => {
    const [owner, member] = await Promise.all([person('Owner'), person('Member')]);
    const album = await owner.backend.albums.createAlbum({ title: 'Edited' });
    await invite(owner, member, album.id);
    const item = await addReadyItem(owner.backend, album.id);
    // The upload's count was told first; the edit comes once its quiet time has passed.
    await sleep(5200);
    const heard: ChangeOfEntity<'album'>[] = [];
    const { stop } = await subscribeLive(member.backend, null, { onChange: (ev) => ev.entity === 'album' && heard.push(ev) });
    try {
      await owner.backend.itemWrites.editItems(album.id, [item.id], { title: 'Ribeira at dusk' });
      await waitFor(() => heard.find((ev) => ev.albumId === album.id), DEADLINE, 'the edit');
      expect(heard[0]).toEqual({ entity: 'album', op: 'update', albumId: album.id, id: album.id, row: null });
      // A second edit within the quiet time sends nothing of its own; the second look once it has passed covers it.
      await owner.backend.itemWrites.editItems(album.id, [item.id], { rating: 4 });
      await sleep(1000);
      expect(heard).toHaveLength(1);
      await waitFor(() => (heard.length === 2 ? true : undefined), 10_000, 'the second look');
    } finally {
      stop();
    }
  });

  it('a trash of more than 100 items at once is one message to the album, not one per item', async () => {
    const [owner, member] = await Promise.all([person('Owner'), person('Member')]);
    const album = await owner.backend.albums.createAlbum({ title: 'Bulk' });
    await invite(owner, member, album.id);
    const rows = await db.query<{ id: string }>(
      `insert into public.items (id, album_id, uploader_id, kind, status, filename, mime, bytes, original_key)
       select s.id, $1::uuid, $2::uuid, 'image', 'ready', 'p' || s.g || '.jpg', 'image/jpeg', 1000, 'albums/' || $1::uuid || '/' || s.id || '/original'
       from (select gen_random_uuid() id, g from generate_series(1, 101) g) s returning id::text as id`,
      [album.id, owner.userId],
    );
    // The insert's own message is sent before the member listens.
    wire.realtime!.changesMayHaveCommitted();
    await sleep(300);
    const heard: ChangeEvent[] = [];
    const { stop } = await subscribeLive(member.backend, album.id, { onChange: (ev) => heard.push(ev) });
    try {
      await owner.backend.itemWrites.trashItems(album.id, rows.map((r) => r.id));
      await waitFor(() => heard.find((ev) => ev.entity === 'album'), DEADLINE, 'the album changed');
      await sleep(500);
      expect(heard).toEqual([{ entity: 'album', op: 'update', albumId: album.id, id: album.id, row: null }]);
    } finally {
      stop();
    }
  });

  it('sends nothing the emulated project cannot serve', () => {
    expect(wire.unserved).toEqual([]);
    expect(wire.realtime!.unserved).toEqual([]);
  });
});
