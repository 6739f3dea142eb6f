/**
 * RealtimePort over Supabase Realtime.
 *
 * [Note: One channel per open album]
 * An album has one pair of channels however many parts of the app listen to it: supabase-js hands back the
 * same channel for the same topic, and a joined channel takes no new listeners, so subscriptions share an entry
 * here and the channels are removed when the last one ends. Every channel is private: Realtime lets only the
 * album's members join (RLS on realtime.messages; see the note "Private channels and broadcast from the
 * database" in the migrations). `album-db:{albumId}` carries the `change` messages the database sends for its
 * items, comments, favorites and members, and no member may send there ([Note: Database changes on a topic only
 * the database sends to]); `album:{albumId}` carries presence (`{ticket, since}` per tab, reported as unique
 * users) and the `upload-progress` broadcast, each shown only for a ticket the database vouches for
 * ([Note: Who is here is vouched for by the database]). The albums screen (`subscribe(null, …)`) has
 * `user:{userId}`, where the database tells the user of albums gained, lost, deleted or edited, and of counts
 * that changed. No postgres_changes: Realtime sends their deletes to anyone, member or not.
 */
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import type { AuthPort, BroadcastMessage, ChangeEvent, RealtimeHandlers, RealtimePort, Unsubscribe } from '../ports';
import type { PresenceViewer } from '../../domain/entities';
import { toAlbumChange, toCommentChange, toFavoriteChange, toItem, toMemberChange, type Row } from './supabase-rows';
import { isTicket, PresenceTickets, type Vouched } from './presence-tickets';
import { log } from '../../lib/log';

export const BROADCAST_EVENT = 'upload-progress';
/** The event of the messages the database sends (realtime.send in the triggers). */
export const CHANGE_EVENT = 'change';

/** A `change` message as the database sends it: a delete carries only the row's key. */
export interface ChangeMessage {
  table: string;
  op: string;
  album_id: string;
  row: Row;
  /** Counts of this album may keep changing for this long without another message (the albums screen). */
  quiet_ms?: number;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The row parsed, or null when the app cannot read it (the change then says only which row changed). */
function readable<T>(read: () => T): T | null {
  try {
    return read();
  } catch {
    return null;
  }
}

/**
 * A `change` message as a ChangeEvent, or null for a table the app does not follow or a message that does not
 * say what changed. Its row is parsed here (supabase-rows.ts): null when it is only the key (a delete), or
 * one the app cannot read. Members and hearts, which have no single id column, are keyed by their key's columns.
 */
export function toChangeEvent(message: unknown): ChangeEvent | null {
  if (!message || typeof message !== 'object') return null;
  const { table, op: sent, album_id, row } = message as Partial<ChangeMessage>;
  const op = sent === 'insert' || sent === 'update' || sent === 'delete' ? sent : null;
  const albumId = text(album_id);
  if (!op || !albumId || !row || typeof row !== 'object' || Array.isArray(row)) return null;
  const whole = op !== 'delete';
  switch (table) {
    case 'albums':
      // Only the album's id: many of its items changed at once (or its counts settled).
      return { entity: 'album', op, albumId, id: albumId, row: whole && 'title' in row ? readable(() => toAlbumChange(row)) : null };
    case 'items': {
      // A row without its id is unreadable too: the counts are read again.
      const id = text(row.id) ?? '';
      const item = whole ? readable(() => toItem(row)) : null;
      return { entity: 'item', op, albumId, id, row: item && item.albumId === albumId && item.id === id ? item : null };
    }
    case 'comments':
      return { entity: 'comment', op, albumId, id: text(row.id) ?? '', row: whole ? readable(() => toCommentChange(row)) : null };
    case 'favorites': {
      const heart = readable(() => toFavoriteChange(row));
      return heart ? { entity: 'favorite', op, albumId, id: `${heart.itemId}:${heart.userId}`, row: heart } : null;
    }
    case 'album_members':
      // Unreadable (no user, no role): the members and the album are read again.
      return { entity: 'album_member', op, albumId, id: `${albumId}:${text(row.user_id) ?? ''}`, row: readable(() => toMemberChange(row, op)) };
    default:
      return null;
  }
}

/**
 * Presence state (`{ [key]: [{ ticket, since, presence_ref }, …] }`) as the viewers of an album: one entry per
 * person the database vouched for (`people`, by ticket), whatever the presence says of itself; a person with two
 * tabs open is one viewer, since their first tab; earliest first.
 */
export function toViewers(state: Record<string, unknown[]>, people: ReadonlyMap<string, Vouched>): PresenceViewer[] {
  const byUser = new Map<string, PresenceViewer>();
  for (const meta of presenceMetas(state)) {
    const who = people.get(meta.ticket);
    if (!who) continue;
    const known = byUser.get(who.userId);
    if (!known || meta.since < known.since) byUser.set(who.userId, { userId: who.userId, displayName: who.displayName.trim() || 'Someone', since: meta.since });
  }
  return [...byUser.values()].sort((a, b) => (a.since < b.since ? -1 : a.since > b.since ? 1 : 0));
}

/** The well-formed `{ticket, since}` entries of a presence state. */
export function presenceMetas(state: Record<string, unknown[]>): { ticket: string; since: string }[] {
  const out: { ticket: string; since: string }[] = [];
  for (const metas of Object.values(state)) {
    for (const meta of metas) {
      if (!meta || typeof meta !== 'object') continue;
      const { ticket, since } = meta as Record<string, unknown>;
      if (isTicket(ticket) && typeof since === 'string' && !Number.isNaN(Date.parse(since))) out.push({ ticket, since });
    }
  }
  return out;
}

/**
 * A broadcast payload as a BroadcastMessage with the sender's ticket, or null when it is not one (anyone on the
 * channel can send). Its `userId` is a claim until the ticket is checked.
 */
export function toBroadcastMessage(payload: unknown): (BroadcastMessage & { ticket: string }) | null {
  if (!payload || typeof payload !== 'object') return null;
  const { type, userId, payload: inner, ticket } = payload as Record<string, unknown>;
  if (type !== BROADCAST_EVENT || typeof userId !== 'string' || !isTicket(ticket)) return null;
  if (!inner || typeof inner !== 'object' || Array.isArray(inner)) return null;
  return { type, userId, payload: inner as Record<string, unknown>, ticket };
}

interface ChannelEntry {
  topic: string;
  albumId: string | null;
  channel: RealtimeChannel | null;
  /** An album's `album-db:{id}` channel, where only the database sends its changes (none for the albums screen). */
  changes: RealtimeChannel | null;
  subs: Set<RealtimeHandlers>;
  viewers: PresenceViewer[];
  since: string;
  /** Whether the channel is joined now: a subscriber added meanwhile is live at once. */
  joined: boolean;
  /** By album: a second look once its counts have been quiet (see ChangeMessage.quiet_ms). */
  settles: Map<string, ReturnType<typeof setTimeout>>;
  /** When this tab next shows itself with a new ticket. */
  retrack?: ReturnType<typeof setTimeout>;
}

const RETRACK_MS = 6 * 60 * 60 * 1000;

function report(e: unknown): void {
  if (typeof reportError === 'function') reportError(e);
  else log.error(e);
}

/** A subscriber's exception must not stop the others from hearing. */
function call(fn: () => void): void {
  try {
    fn();
  } catch (e) {
    report(e);
  }
}

export class SupabaseRealtime implements RealtimePort {
  /** By album id; `null` for the albums screen. */
  private readonly entries = new Map<string | null, ChannelEntry>();
  private readonly tickets: PresenceTickets;

  constructor(
    private readonly client: SupabaseClient,
    private readonly auth: Pick<AuthPort, 'getSession'>,
  ) {
    this.tickets = new PresenceTickets(client);
  }

  subscribe(albumId: string | null, handlers: RealtimeHandlers): Unsubscribe {
    // A copy, so the same handlers passed twice are two subscriptions that each end on their own.
    const own: RealtimeHandlers = { ...handlers };
    let entry = this.entries.get(albumId);
    if (!entry) {
      entry = { topic: '', albumId, channel: null, changes: null, subs: new Set(), viewers: [], since: new Date().toISOString(), joined: false, settles: new Map() };
      this.entries.set(albumId, entry);
      void this.open(entry);
    } else {
      const known = entry;
      if (own.onPresence && known.viewers.length > 0) queueMicrotask(() => known.subs.has(own) && call(() => own.onPresence?.(known.viewers)));
      // Joining a channel that is already live: this subscriber hears everything from now on.
      if (own.onJoined && known.joined) queueMicrotask(() => known.subs.has(own) && known.joined && call(() => own.onJoined?.({ mayHaveMissed: false })));
    }
    entry.subs.add(own);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const current = this.entries.get(albumId);
      if (!current) return;
      current.subs.delete(own);
      if (current.subs.size === 0) this.close(current);
    };
  }

  broadcast(albumId: string, msg: BroadcastMessage): void {
    // Messages wait for the same ticket, so they leave in the order they were given.
    void this.tickets.ticketFor(albumId).then((ticket) => ticket && this.send(albumId, { ...msg, ticket }), report);
  }

  private send(albumId: string, msg: BroadcastMessage & { ticket: string }): void {
    const channel = this.entries.get(albumId)?.channel;
    if (channel) {
      channel.send({ type: 'broadcast', event: BROADCAST_EVENT, payload: msg }).catch(report);
      return;
    }
    // Not watching the album (uploads go on from the uploads screen): one message over HTTP.
    const once = this.client.channel(`album:${albumId}`, { config: { private: true, broadcast: { self: false } } });
    once
      .httpSend(BROADCAST_EVENT, msg)
      .catch(report)
      .finally(() => {
        if (!this.entries.get(albumId)?.channel) void this.client.removeChannel(once);
      });
  }

  private async open(entry: ChannelEntry): Promise<void> {
    let session;
    try {
      session = await this.auth.getSession();
    } catch (e) {
      report(e);
      return;
    }
    if (this.entries.get(entry.albumId) !== entry || !session) return;
    const albumId = entry.albumId;
    entry.topic = albumId === null ? `user:${session.userId}` : `album:${albumId}`;
    const channel = this.client.channel(entry.topic, {
      config: { private: true, broadcast: { self: false }, presence: { key: session.userId } },
    });
    entry.channel = channel;
    // [Note: Database changes on a topic only the database sends to] (in the migrations): an album's changes are
    // taken from `album-db:{id}` alone; a `change` sent on `album:{id}` came from a member and is not listened to.
    const changes = albumId === null ? channel : this.client.channel(`album-db:${albumId}`, { config: { private: true } });
    if (albumId !== null) entry.changes = changes;
    const tell = (ev: ChangeEvent) => {
      for (const sub of entry.subs) if (sub.onChange) call(() => sub.onChange!(ev));
    };
    changes.on('broadcast', { event: CHANGE_EVENT }, (message: { payload?: unknown }) => {
      const ev = toChangeEvent(message.payload);
      if (!ev) return;
      tell(ev);
      // Counts sent at most once per quiet time: once it has passed, the later ones are told as one change.
      const quietMs = (message.payload as Partial<ChangeMessage>).quiet_ms;
      if (typeof quietMs !== 'number' || !(quietMs > 0) || entry.settles.has(ev.albumId)) return;
      const settled: ChangeEvent = { entity: 'album', op: 'update', albumId: ev.albumId, id: ev.albumId, row: null };
      entry.settles.set(
        ev.albumId,
        setTimeout(() => {
          entry.settles.delete(ev.albumId);
          if (this.entries.get(albumId) === entry) tell(settled);
        }, quietMs),
      );
    });
    if (albumId !== null) {
      const id = albumId;
      channel.on('presence', { event: 'sync' }, () => {
        const tickets = presenceMetas(channel.presenceState() as Record<string, unknown[]>).map((m) => m.ticket);
        void this.tickets.whoHolds(id, tickets).then((people) => {
          if (this.entries.get(id) !== entry) return;
          // The state now, which may have moved on while the tickets were checked.
          const state = channel.presenceState() as Record<string, unknown[]>;
          if (presenceMetas(state).some((m) => !people.has(m.ticket) && !tickets.includes(m.ticket))) return; // a later sync shows it
          entry.viewers = toViewers(state, people);
          for (const sub of entry.subs) if (sub.onPresence) call(() => sub.onPresence!(entry.viewers));
        }, report);
      });
      channel.on('broadcast', { event: BROADCAST_EVENT }, (message: { payload?: unknown }) => {
        const claimed = toBroadcastMessage(message.payload);
        if (!claimed) return;
        void this.tickets.whoHolds(id, [claimed.ticket]).then((people) => {
          // Only the ticket's holder speaks for themself.
          if (people.get(claimed.ticket)?.userId !== claimed.userId || this.entries.get(id) !== entry) return;
          const msg: BroadcastMessage = { type: claimed.type, userId: claimed.userId, payload: claimed.payload };
          for (const sub of entry.subs) if (sub.onBroadcast) call(() => sub.onBroadcast!(msg));
        }, report);
      });
    }
    // SUBSCRIBED comes after each join, the first and every one after a reconnection; the changes of the time
    // before it were not sent to this client.
    changes.subscribe((status, err) => {
      if (err) report(err);
      if (status !== 'SUBSCRIBED') {
        entry.joined = false;
        return;
      }
      entry.joined = true;
      for (const sub of entry.subs) if (sub.onJoined) call(() => sub.onJoined!({ mayHaveMissed: true }));
    });
    if (albumId === null) return;
    const tickets = this.tickets;
    channel.subscribe((status, err) => {
      if (err) report(err);
      if (status !== 'SUBSCRIBED') return;
      const track = () => {
        if (this.entries.get(albumId) !== entry) return;
        void tickets.ticketFor(albumId).then((ticket) => ticket && channel.track({ ticket, since: entry.since }), report);
        // A ticket lasts a day: the tab shows itself again with a new one before that.
        clearTimeout(entry.retrack);
        entry.retrack = setTimeout(track, RETRACK_MS);
      };
      track();
    });
  }

  private close(entry: ChannelEntry): void {
    this.entries.delete(entry.albumId);
    for (const timer of entry.settles.values()) clearTimeout(timer);
    clearTimeout(entry.retrack);
    entry.settles.clear();
    if (entry.channel) void this.client.removeChannel(entry.channel);
    if (entry.changes) void this.client.removeChannel(entry.changes);
  }
}
