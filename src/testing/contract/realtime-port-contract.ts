/**
 * The RealtimePort contract, seen from two places at once (two tabs, or two people): what one does, the
 * other hears about quickly, only for the albums it listens to; who is looking shows up; broadcasts pass.
 */
import { describe, expect, it } from 'vitest';
import type { Backend, BroadcastMessage, ChangeEvent, RealtimeHandlers, Unsubscribe } from '../../backend/ports';
import type { PresenceViewer } from '../../domain/entities';
import { addReadyItem, waitFor } from './contract-fixtures';

export interface RealtimePair {
  /** The one who acts. */
  a: Backend;
  /** The one who watches: another tab of the same store, or another member. */
  b: Backend;
  /** Makes `b` able to see an album `a` created (for a server: invite and accept). */
  share?: (albumId: string) => Promise<void>;
}

/** How soon a change must reach the other side. */
export const REALTIME_DEADLINE_MS = 1000;

/** Subscribes and resolves once the subscription says it is live, with what it said each time. */
export async function subscribeLive(
  backend: Backend,
  albumId: string | null,
  handlers: RealtimeHandlers = {},
): Promise<{ stop: Unsubscribe; joins: { mayHaveMissed: boolean }[] }> {
  const joins: { mayHaveMissed: boolean }[] = [];
  const stop = backend.realtime.subscribe(albumId, {
    ...handlers,
    onJoined: (info) => {
      joins.push(info);
      handlers.onJoined?.(info);
    },
  });
  try {
    await waitFor(() => (joins.length > 0 ? true : undefined), REALTIME_DEADLINE_MS * 10, 'the subscription to be live');
  } catch (e) {
    stop();
    throw e;
  }
  return { stop, joins };
}

export function describeRealtimePortContract(name: string, makePair: () => Promise<RealtimePair> | RealtimePair): void {
  describe(`RealtimePort contract: ${name}`, () => {
    async function sharedAlbum(pair: RealtimePair, title: string) {
      const album = await pair.a.albums.createAlbum({ title });
      await pair.share?.(album.id);
      return album;
    }

    it("says when it is live, then tells the other side about an album's new item as it happens", async () => {
      const pair = await makePair();
      const album = await sharedAlbum(pair, 'Live');
      const heard: ChangeEvent[] = [];
      const { stop } = await subscribeLive(pair.b, album.id, { onChange: (ev) => heard.push(ev) });
      try {
        const item = await addReadyItem(pair.a, album.id);
        // That it comes without anyone asking again; not how fast, which a loaded test machine would decide.
        const event = await waitFor(
          () => heard.find((ev) => ev.entity === 'item' && ev.id === item.id && ev.row?.status === 'ready'),
          REALTIME_DEADLINE_MS * 5,
          'the ready item',
        );
        expect(event).toMatchObject({ entity: 'item', albumId: album.id, op: expect.stringMatching(/^(insert|update)$/) });
        await pair.a.itemWrites.trashItems(album.id, [item.id]);
        await waitFor(() => heard.find((ev) => ev.entity === 'item' && ev.id === item.id && ev.row?.deletedAt), REALTIME_DEADLINE_MS * 2, 'the trashed item');
      } finally {
        stop();
      }
    });

    it('hears only the albums it subscribed to, and nothing after unsubscribing', async () => {
      const pair = await makePair();
      const watched = await sharedAlbum(pair, 'Watched');
      const other = await sharedAlbum(pair, 'Other');
      const heard: ChangeEvent[] = [];
      const { stop } = await subscribeLive(pair.b, watched.id, { onChange: (ev) => heard.push(ev) });
      await addReadyItem(pair.a, other.id);
      const marker = await addReadyItem(pair.a, watched.id);
      await waitFor(() => heard.find((ev) => ev.id === marker.id), REALTIME_DEADLINE_MS * 2, 'the watched album change');
      expect(heard.every((ev) => ev.albumId === watched.id)).toBe(true);

      stop();
      const countAfterStop = heard.length;
      // A subscription made after the stop hears the next change: the stopped one would have heard it by then.
      const still: ChangeEvent[] = [];
      const probe = await subscribeLive(pair.b, watched.id, { onChange: (ev) => still.push(ev) });
      try {
        const after = await addReadyItem(pair.a, watched.id);
        await waitFor(() => still.find((ev) => ev.id === after.id), REALTIME_DEADLINE_MS * 2, 'the change after the stop');
      } finally {
        probe.stop();
      }
      expect(heard.length).toBe(countAfterStop);
    });

    it('tells an albums screen (no album) about its albums: gained, renamed, new counts, lost', async () => {
      const pair = await makePair();
      const heard: ChangeEvent[] = [];
      const { stop } = await subscribeLive(pair.b, null, { onChange: (ev) => heard.push(ev) });
      try {
        const album = await sharedAlbum(pair, 'Everywhere');
        await pair.a.albums.updateAlbum(album.id, { title: 'Everywhere, renamed' });
        await waitFor(
          () => heard.find((ev) => ev.entity === 'album' && ev.id === album.id && ev.row?.title === 'Everywhere, renamed'),
          REALTIME_DEADLINE_MS * 2,
          'the renamed album',
        );
        await addReadyItem(pair.a, album.id);
        await waitFor(
          () => heard.find((ev) => ev.entity === 'album' && ev.id === album.id && ev.row?.itemCount === 1),
          REALTIME_DEADLINE_MS * 2,
          'the album with its new item counted',
        );
        await pair.a.albums.deleteAlbum(album.id);
        await waitFor(() => heard.find((ev) => ev.entity === 'album' && ev.albumId === album.id && ev.op === 'delete'), REALTIME_DEADLINE_MS * 2, 'the deleted album');
      } finally {
        stop();
      }
    });

    it('shows who is looking at an album', async () => {
      const pair = await makePair();
      const album = await sharedAlbum(pair, 'Presence');
      const aUser = (await pair.a.auth.getSession())!.userId;
      const bUser = (await pair.b.auth.getSession())!.userId;
      let seenByA: PresenceViewer[] = [];
      let seenByB: PresenceViewer[] = [];
      const stopA = pair.a.realtime.subscribe(album.id, { onPresence: (v) => (seenByA = v) });
      const stopB = pair.b.realtime.subscribe(album.id, { onPresence: (v) => (seenByB = v) });
      try {
        await waitFor(() => (seenByA.some((v) => v.userId === bUser) ? true : undefined), REALTIME_DEADLINE_MS * 2, 'b in a’s viewers');
        await waitFor(() => (seenByB.some((v) => v.userId === aUser) ? true : undefined), REALTIME_DEADLINE_MS * 2, 'a in b’s viewers');
        const users = seenByA.map((v) => v.userId);
        expect(new Set(users).size).toBe(users.length);
        for (const viewer of seenByA) {
          expect(viewer.displayName.length).toBeGreaterThan(0);
          expect(Number.isNaN(Date.parse(viewer.since))).toBe(false);
        }
        stopB();
        if (aUser !== bUser) {
          // Someone else leaving disappears from the list (on one device, the same person stays).
          await waitFor(() => (seenByA.some((v) => v.userId === bUser) ? undefined : true), REALTIME_DEADLINE_MS * 5, 'b gone');
        }
      } finally {
        stopB();
        stopA();
      }
    });

    it('passes broadcasts to the other side of the same album', async () => {
      const pair = await makePair();
      const album = await sharedAlbum(pair, 'Broadcast');
      const heard: BroadcastMessage[] = [];
      const { stop } = await subscribeLive(pair.b, album.id, { onBroadcast: (msg) => heard.push(msg) });
      const { stop: stopA } = await subscribeLive(pair.a, album.id);
      try {
        const userId = (await pair.a.auth.getSession())!.userId;
        const msg: BroadcastMessage = { type: 'upload-progress', userId, payload: { done: 3, total: 10 } };
        // Both sides are live: one message is enough.
        pair.a.realtime.broadcast(album.id, msg);
        expect(await waitFor(() => heard[0], REALTIME_DEADLINE_MS * 5, 'the broadcast')).toEqual(msg);
        // Each is passed once: by the time the next one arrives, a second copy of the first would have.
        const next: BroadcastMessage = { ...msg, payload: { done: 4, total: 10 } };
        pair.a.realtime.broadcast(album.id, next);
        await waitFor(() => heard.find((m) => m.payload.done === 4), REALTIME_DEADLINE_MS * 5, 'the next broadcast');
        expect(heard).toEqual([msg, next]);
      } finally {
        stopA();
        stop();
      }
    });

    it('a second subscriber to a live album is live at once, and each is told once', async () => {
      const pair = await makePair();
      const album = await sharedAlbum(pair, 'Twice');
      const heardFirst: ChangeEvent[] = [];
      const heardSecond: ChangeEvent[] = [];
      const first = await subscribeLive(pair.b, album.id, { onChange: (ev) => heardFirst.push(ev) });
      const second = await subscribeLive(pair.b, album.id, { onChange: (ev) => heardSecond.push(ev) });
      try {
        // Both hear a change made now; a join either would be told of again has come by then.
        const item = await addReadyItem(pair.a, album.id);
        for (const heard of [heardFirst, heardSecond]) {
          await waitFor(() => heard.find((ev) => ev.id === item.id), REALTIME_DEADLINE_MS * 2, 'the change after both joined');
        }
        // The first says what the screen holds may be older than the join (read before, or kept while away).
        expect(first.joins).toEqual([{ mayHaveMissed: true }]);
        expect(second.joins).toEqual([{ mayHaveMissed: false }]);
      } finally {
        second.stop();
        first.stop();
      }
    });
  });
}
