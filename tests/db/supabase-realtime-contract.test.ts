/**
 * The Realtime port contract against the real Supabase adapter and real supabase-js (realtime-js over a real
 * WebSocket, package `ws`), with our real SQL deciding who hears which change: the wire emulator serves the
 * HTTP API and, with `realtime: true`, a Realtime server on 127.0.0.1 fed by the database's own changes
 * (tests/db/wire/realtime-emulator.ts). Each pair is two new accounts; `share` invites the second into the
 * first one's album through the SQL functions, as the invite screens do.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addReadyItem, placeOriginalsWith, sleep, waitFor } from '../../src/testing/contract/contract-fixtures';
import { describeRealtimePortContract, REALTIME_DEADLINE_MS, subscribeLive, type RealtimePair } from '../../src/testing/contract/realtime-port-contract';
import type { Backend, ChangeEvent } from '../../src/backend/ports';
import type { PresenceViewer } from '../../src/domain/entities';
import { createSupabaseBackend } from '../../src/backend/supabase/create-supabase-backend';
import { startDb, type Harness } from './db-harness';
import { createWireEmulator, type WireEmulator } from './wire/wire-emulator';

let db: Harness;
let wire: WireEmulator;

// Applying the migrations can take minutes when the machine is busy with other suites.
beforeAll(async () => {
  db = await startDb();
  wire = await createWireEmulator(db, { realtime: true, realtimePrivateOnly: true });
}, 300_000);
afterAll(async () => {
  await wire?.close();
  await db?.close();
});

const PASSWORD = 'correct horse battery staple';
let accounts = 0;

interface Account {
  backend: Backend;
  email: string;
  userId: string;
}

/** A backend signed in as a new account, made through the adapter's own sign-up, with Realtime over `ws`. */
async function signedUp(): Promise<Account> {
  const n = ++accounts;
  const email = `viewer${n}.${crypto.randomUUID().slice(0, 8)}@example.test`;
  const backend = placeOriginalsWith(createSupabaseBackend({ url: wire.url, anonKey: wire.anonKey, fetch: wire.fetch, persistSession: false, webSocket: WebSocket as never }), wire.placeOriginal);
  const session = await backend.auth.signUp(email, PASSWORD, `Viewer ${n}`);
  if (!session) throw new Error('sign-up gave no session: the emulated project asks for no email confirmation');
  return { backend, email, userId: session.userId };
}

/** A plain supabase-js client signed in as the account, for what the ports do not offer (invites, purges). */
async function rawClient(account: Account): Promise<SupabaseClient> {
  const client = createClient(wire.url, wire.anonKey, {
    global: { fetch: wire.fetch },
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  });
  const { error } = await client.auth.signInWithPassword({ email: account.email, password: PASSWORD });
  if (error) throw error;
  return client;
}

/** Invites `member` into `owner`'s album as an editor and accepts, through the SQL functions. */
async function invite(owner: SupabaseClient, member: SupabaseClient, albumId: string): Promise<void> {
  const created = await owner.rpc('create_invite', { p_album_id: albumId, p_role: 'editor' });
  if (created.error) throw new Error(created.error.message);
  const token = (created.data as { token: string }[])[0]!.token;
  const accepted = await member.rpc('accept_invite', { p_token: token });
  if (accepted.error) throw new Error(accepted.error.message);
}

async function makePair(): Promise<RealtimePair & { accounts: [Account, Account] }> {
  const a = await signedUp();
  const b = await signedUp();
  const [owner, member] = await Promise.all([rawClient(a), rawClient(b)]);
  return { a: a.backend, b: b.backend, share: (albumId) => invite(owner, member, albumId), accounts: [a, b] };
}

describeRealtimePortContract('supabase (wire emulator)', makePair);

describe('Supabase realtime over the emulated wire', () => {
  it('tells a stranger who subscribes to an album nothing of its new items, while a member hears them', async () => {
    const pair = await makePair();
    const stranger = await signedUp();
    const album = await pair.a.albums.createAlbum({ title: 'Members only' });
    await pair.share!(album.id);
    const heardByMember: ChangeEvent[] = [];
    const heardByStranger: ChangeEvent[] = [];
    const { stop: stopMember } = await subscribeLive(pair.b, album.id, { onChange: (ev) => heardByMember.push(ev) });
    // Realtime refuses the stranger's join of the album's private channel, so it never goes live.
    const strangerJoins: unknown[] = [];
    const stopStranger = stranger.backend.realtime.subscribe(album.id, { onChange: (ev) => heardByStranger.push(ev), onJoined: (info) => strangerJoins.push(info) });
    try {
      const item = await addReadyItem(pair.a, album.id);
      await pair.a.albums.updateAlbum(album.id, { title: 'Members only, renamed' });
      await waitFor(() => heardByMember.find((ev) => ev.entity === 'item' && ev.id === item.id), REALTIME_DEADLINE_MS * 2, 'the member hearing the item');
      // Whatever reaches the member has been sent by then; give a late one the same again to arrive.
      await sleep(300);
      expect(heardByStranger).toEqual([]);
      expect(strangerJoins).toEqual([]);
    } finally {
      stopStranger();
      stopMember();
    }
  });

  it('tells a member about an item removed for good, by its key, as an event of the album', async () => {
    const pair = await makePair();
    const album = await pair.a.albums.createAlbum({ title: 'Purged' });
    await pair.share!(album.id);
    const item = await addReadyItem(pair.a, album.id);
    const heard: ChangeEvent[] = [];
    const { stop } = await subscribeLive(pair.b, album.id, { onChange: (ev) => heard.push(ev) });
    try {
      // Rows are removed for good only by the purge, which runs as the database owner; members trash them.
      await db.query(`delete from public.items where id = $1`, [item.id]);
      const event = await waitFor(() => heard.find((ev) => ev.op === 'delete'), REALTIME_DEADLINE_MS * 2, 'the delete');
      expect(event).toEqual({ entity: 'item', op: 'delete', albumId: album.id, id: item.id, row: null });
    } finally {
      stop();
    }
  });

  it('after a dropped connection it joins again and says changes may have been missed; then it hears again', async () => {
    const pair = await makePair();
    const album = await pair.a.albums.createAlbum({ title: 'Flaky network' });
    await pair.share!(album.id);
    const heard: ChangeEvent[] = [];
    const { stop, joins } = await subscribeLive(pair.b, album.id, { onChange: (ev) => heard.push(ev) });
    try {
      expect(joins).toEqual([{ mayHaveMissed: true }]);
      wire.realtime!.dropConnections();
      // Made while the connection is down: Realtime does not replay it, which is why the rejoin says so.
      await addReadyItem(pair.a, album.id);
      await waitFor(() => (joins.length === 2 ? true : undefined), 30_000, 'the second join');
      expect(joins[1]).toEqual({ mayHaveMissed: true });
      const after = await addReadyItem(pair.a, album.id);
      await waitFor(() => heard.find((ev) => ev.entity === 'item' && ev.id === after.id), REALTIME_DEADLINE_MS * 5, 'the item after the rejoin');
    } finally {
      stop();
    }
  });

  /** An owner's album with one member, a stranger, and the raw clients of the owner and the member. */
  async function albumWithStranger(title: string) {
    const owner = await signedUp();
    const member = await signedUp();
    const stranger = await signedUp();
    const [ownerDb, memberDb] = await Promise.all([rawClient(owner), rawClient(member)]);
    const album = await owner.backend.albums.createAlbum({ title });
    await invite(ownerDb, memberDb, album.id);
    return { owner, member, stranger, ownerDb, memberDb, album };
  }

  it('comments, favourites and membership changes reach the members, and never a stranger', async () => {
    const { owner, member, stranger, ownerDb, memberDb, album } = await albumWithStranger('Together');
    const item = await addReadyItem(owner.backend, album.id);
    const byOwner: ChangeEvent[] = [];
    const byMember: ChangeEvent[] = [];
    const byStranger: ChangeEvent[] = [];
    const o = await subscribeLive(owner.backend, album.id, { onChange: (ev) => byOwner.push(ev) });
    const m = await subscribeLive(member.backend, album.id, { onChange: (ev) => byMember.push(ev) });
    const stopStranger = stranger.backend.realtime.subscribe(album.id, { onChange: (ev) => byStranger.push(ev) });
    try {
      const comment = await memberDb.from('comments').insert({ item_id: item.id, album_id: album.id, author_id: member.userId, body: 'What a view' }).select('id').single();
      expect(comment.error).toBeNull();
      const fav = await memberDb.from('favorites').insert({ item_id: item.id, album_id: album.id, user_id: member.userId });
      expect(fav.error).toBeNull();
      const role = await ownerDb.rpc('set_member_role', { p_album_id: album.id, p_user_id: member.userId, p_role: 'viewer' });
      expect(role.error).toBeNull();
      const wait = REALTIME_DEADLINE_MS * 3;
      const heardComment = await waitFor(() => byOwner.find((ev) => ev.entity === 'comment' && ev.op === 'insert'), wait, 'the comment');
      expect(heardComment).toMatchObject({ id: (comment.data as { id: string }).id, row: { itemId: item.id, authorId: member.userId, body: 'What a view' } });
      const heardFav = await waitFor(() => byOwner.find((ev) => ev.entity === 'favorite' && ev.op === 'insert'), wait, 'the favourite');
      expect(heardFav.row).toMatchObject({ itemId: item.id, userId: member.userId });
      // The member hears their own new role: the app hides what a viewer may not do.
      const heardRole = await waitFor(() => byMember.find((ev) => ev.entity === 'album_member' && ev.op === 'update'), wait, 'the role change');
      expect(heardRole.row).toMatchObject({ userId: member.userId, role: 'viewer' });
      await waitFor(() => byMember.find((ev) => ev.entity === 'comment'), wait, 'the comment, by its author');
      await sleep(300);
      expect(byStranger).toEqual([]);
    } finally {
      stopStranger();
      o.stop();
      m.stop();
    }
  });

  it('presence on a private channel: members see each other; a stranger can neither join nor see who is there', async () => {
    const { owner, member, stranger, album } = await albumWithStranger('Who is here');
    let seenByMember: PresenceViewer[] = [];
    const seenByStranger: PresenceViewer[][] = [];
    let seenByOwner: PresenceViewer[] = [];
    const o = await subscribeLive(owner.backend, album.id, { onPresence: (v) => (seenByOwner = v) });
    const m = await subscribeLive(member.backend, album.id, { onPresence: (v) => (seenByMember = v) });
    const strangerJoins: unknown[] = [];
    const stopStranger = stranger.backend.realtime.subscribe(album.id, { onPresence: (v) => seenByStranger.push(v), onJoined: (i) => strangerJoins.push(i) });
    try {
      const wait = REALTIME_DEADLINE_MS * 3;
      await waitFor(() => (seenByMember.some((v) => v.userId === owner.userId) ? true : undefined), wait, 'the member seeing the owner');
      await waitFor(() => (seenByOwner.some((v) => v.userId === member.userId) ? true : undefined), wait, 'the owner seeing the member');
      expect(seenByMember.find((v) => v.userId === owner.userId)?.displayName).toMatch(/^Viewer \d+$/);
      await sleep(500);
      expect(strangerJoins).toEqual([]);
      expect(seenByStranger).toEqual([]);
      expect(seenByOwner.map((v) => v.userId)).not.toContain(stranger.userId);
      expect(seenByMember.map((v) => v.userId)).not.toContain(stranger.userId);
    } finally {
      stopStranger();
      o.stop();
      m.stop();
    }
  });

  it('a rejoin after a dropped socket catches up: reading again on the join that says so finds what changed meanwhile', async () => {
    const { owner, member, album } = await albumWithStranger('Catch up');
    const seen = new Set<string>();
    const read = async () => {
      for (const it of (await member.backend.items.listItems(album.id, { sort: 'taken', limit: 100 })).rows) seen.add(it.id);
    };
    // What the album screen does: read again whenever the join says changes may have been missed.
    const { stop, joins } = await subscribeLive(member.backend, album.id, { onJoined: (info) => info.mayHaveMissed && void read() });
    try {
      await read();
      wire.realtime!.dropConnections();
      const whileAway = await addReadyItem(owner.backend, album.id);
      await waitFor(() => (joins.length >= 2 ? true : undefined), 30_000, 'the rejoin');
      expect(joins[joins.length - 1]).toEqual({ mayHaveMissed: true });
      await waitFor(() => (seen.has(whileAway.id) ? true : undefined), REALTIME_DEADLINE_MS * 5, 'the item added while away');
    } finally {
      stop();
    }
  });

  it('sends nothing the emulated project cannot serve, over HTTP or the WebSocket', () => {
    expect(wire.unserved).toEqual([]);
    expect(wire.realtime!.unserved).toEqual([]);
  });
});
