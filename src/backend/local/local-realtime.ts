/**
 * RealtimePort across the tabs of one browser: changes, presence and broadcasts travel on a
 * BroadcastChannel, and subscribers in the writing tab are told directly (a channel never delivers to the
 * object that posted).
 *
 * [Note: Local presence]
 * Every tab (every backend instance) has an id. A tab with at least one subscription to an album announces
 * itself for that album on subscribing and then every HEARTBEAT_MS, asks the others to announce at once,
 * and says goodbye when its last subscription ends or the page is hidden for good. A tab not heard from
 * for STALE_MS is dropped (it crashed or was frozen). Viewers are reported as unique users: on the local
 * backend every tab is the same profile, but tabs still count for knowing when that profile leaves.
 */
import type { BroadcastMessage, ChangeEvent, RealtimeHandlers, RealtimePort, Unsubscribe } from '../ports';
import type { PresenceViewer, Profile } from '../../domain/entities';
import { log } from '../../lib/log';

export const HEARTBEAT_MS = 4_000;
export const STALE_MS = 3 * HEARTBEAT_MS + 1_000;

interface PresenceEntry {
  userId: string;
  displayName: string;
  since: string;
  seenAt: number;
}

type WireMessage =
  | { t: 'changes'; events: ChangeEvent[] }
  | { t: 'here'; albumId: string; tabId: string; userId: string; displayName: string; since: string }
  | { t: 'who'; albumId: string; tabId: string }
  | { t: 'bye'; albumId: string; tabId: string }
  | { t: 'broadcast'; albumId: string; msg: BroadcastMessage }
  | { t: 'profile' };

interface Subscription {
  albumId: string | null;
  handlers: RealtimeHandlers;
}

function report(e: unknown): void {
  if (typeof reportError === 'function') reportError(e);
  else log.error(e);
}

export class LocalRealtime implements RealtimePort {
  readonly tabId = crypto.randomUUID();
  private readonly channel: BroadcastChannel;
  private readonly subs = new Set<Subscription>();
  /** albumId → tabId → entry, only for albums this tab is subscribed to. */
  private readonly presence = new Map<string, Map<string, PresenceEntry>>();
  /** When this tab started viewing each album. */
  private readonly ownSince = new Map<string, string>();
  private readonly profileListeners = new Set<() => void>();
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private closed = false;
  /** Albums (and `null`, the person's own changes) someone in this tab listens to, from their first join on. */
  private readonly listening = new Set<string | null>();

  constructor(
    channelName: string,
    private readonly currentProfile: () => Promise<Profile>,
  ) {
    this.channel = new BroadcastChannel(channelName);
    this.channel.onmessage = (e: MessageEvent<WireMessage>) => this.receive(e.data);
    globalThis.addEventListener?.('pagehide', this.onPageHide);
  }

  subscribe(albumId: string | null, handlers: RealtimeHandlers): Unsubscribe {
    const sub: Subscription = { albumId, handlers };
    const missed = !this.listening.has(albumId);
    this.subs.add(sub);
    if (albumId !== null) {
      if (!this.ownSince.has(albumId)) {
        this.ownSince.set(albumId, new Date().toISOString());
        this.presence.set(albumId, new Map());
        void this.announce(albumId, true);
        this.startHeartbeat();
      } else if (handlers.onPresence) {
        const viewers = this.viewers(albumId);
        queueMicrotask(() => this.subs.has(sub) && call(() => handlers.onPresence?.(viewers)));
      }
    }
    // Live at once: a BroadcastChannel delivers everything posted after it was made, and this tab's own
    // changes go straight to its subscribers, so nothing is missed while someone listens. But what the screens
    // of those who start listening hold may have been read before (kept in the query cache while the person
    // was on another screen): like the Supabase adapter's join, the first join of the album says it may have
    // missed changes, and a subscriber who comes once it is live is told it did not.
    queueMicrotask(() => {
      if (this.subs.has(sub)) this.listening.add(albumId);
      if (handlers.onJoined && this.subs.has(sub)) call(() => handlers.onJoined?.({ mayHaveMissed: missed }));
    });
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.subs.delete(sub);
      if (![...this.subs].some((s) => s.albumId === albumId)) this.listening.delete(albumId);
      if (albumId !== null && ![...this.subs].some((s) => s.albumId === albumId)) this.leave(albumId);
    };
  }

  broadcast(albumId: string, msg: BroadcastMessage): void {
    this.post({ t: 'broadcast', albumId, msg });
  }

  /** Delivers changes made in this tab to its subscribers and to every other tab. */
  emit(events: ChangeEvent[]): void {
    if (events.length === 0) return;
    this.deliver(events);
    this.post({ t: 'changes', events });
  }

  /** Tells the other tabs that the profile changed, and this tab's presence follows. */
  profileChanged(): void {
    this.post({ t: 'profile' });
    for (const albumId of this.ownSince.keys()) void this.announce(albumId, false);
  }

  onProfileChange(listener: () => void): Unsubscribe {
    this.profileListeners.add(listener);
    return () => this.profileListeners.delete(listener);
  }

  /** Leaves every album and closes the channel (tests; a page that goes away). */
  close(): void {
    if (this.closed) return;
    for (const albumId of [...this.ownSince.keys()]) this.leave(albumId);
    this.subs.clear();
    this.closed = true;
    this.channel.close();
    globalThis.removeEventListener?.('pagehide', this.onPageHide);
  }

  private readonly onPageHide = (e: Event) => {
    // A page kept in the back/forward cache may come back; its heartbeat will announce it again.
    if ((e as PageTransitionEvent).persisted) return;
    for (const albumId of this.ownSince.keys()) this.post({ t: 'bye', albumId, tabId: this.tabId });
  };

  private post(msg: WireMessage): void {
    if (this.closed) return;
    try {
      this.channel.postMessage(msg);
    } catch (e) {
      report(e);
    }
  }

  private receive(msg: WireMessage): void {
    switch (msg.t) {
      case 'changes':
        this.deliver(msg.events);
        break;
      case 'broadcast':
        for (const sub of this.subs) {
          if (sub.albumId === msg.albumId) call(() => sub.handlers.onBroadcast?.(msg.msg));
        }
        break;
      case 'here': {
        const tabs = this.presence.get(msg.albumId);
        if (!tabs || msg.tabId === this.tabId) break;
        const before = tabs.get(msg.tabId);
        tabs.set(msg.tabId, { userId: msg.userId, displayName: msg.displayName, since: msg.since, seenAt: Date.now() });
        if (!before || before.displayName !== msg.displayName || before.userId !== msg.userId) this.notifyPresence(msg.albumId);
        break;
      }
      case 'who':
        if (this.ownSince.has(msg.albumId) && msg.tabId !== this.tabId) void this.announce(msg.albumId, false);
        break;
      case 'bye':
        if (this.presence.get(msg.albumId)?.delete(msg.tabId)) this.notifyPresence(msg.albumId);
        break;
      case 'profile':
        for (const listener of this.profileListeners) call(listener);
        for (const albumId of this.ownSince.keys()) void this.announce(albumId, false);
        break;
    }
  }

  private deliver(events: ChangeEvent[]): void {
    for (const sub of this.subs) {
      const onChange = sub.handlers.onChange;
      if (!onChange) continue;
      for (const ev of events) {
        const wanted = sub.albumId === null ? ev.entity === 'album' || ev.entity === 'item' : ev.albumId === sub.albumId;
        if (wanted) call(() => onChange(ev));
      }
    }
  }

  /** Records this tab as a viewer and tells the others; `ask` also asks them to announce themselves. */
  private async announce(albumId: string, ask: boolean): Promise<void> {
    let profile: Profile;
    try {
      profile = await this.currentProfile();
    } catch (e) {
      report(e);
      return;
    }
    const since = this.ownSince.get(albumId);
    const tabs = this.presence.get(albumId);
    if (!since || !tabs) return;
    const before = tabs.get(this.tabId);
    tabs.set(this.tabId, { userId: profile.id, displayName: profile.displayName, since, seenAt: Date.now() });
    this.post({ t: 'here', albumId, tabId: this.tabId, userId: profile.id, displayName: profile.displayName, since });
    if (ask) this.post({ t: 'who', albumId, tabId: this.tabId });
    if (!before || before.displayName !== profile.displayName) this.notifyPresence(albumId);
  }

  private leave(albumId: string): void {
    this.ownSince.delete(albumId);
    this.presence.delete(albumId);
    this.post({ t: 'bye', albumId, tabId: this.tabId });
    if (this.ownSince.size === 0 && this.heartbeat) {
      clearInterval(this.heartbeat);
      this.heartbeat = null;
    }
  }

  private startHeartbeat(): void {
    if (this.heartbeat) return;
    this.heartbeat = setInterval(() => {
      const now = Date.now();
      for (const [albumId, tabs] of this.presence) {
        void this.announce(albumId, false);
        let dropped = false;
        for (const [tabId, entry] of tabs) {
          if (tabId !== this.tabId && now - entry.seenAt > STALE_MS) {
            tabs.delete(tabId);
            dropped = true;
          }
        }
        if (dropped) this.notifyPresence(albumId);
      }
    }, HEARTBEAT_MS);
  }

  private viewers(albumId: string): PresenceViewer[] {
    const byUser = new Map<string, PresenceViewer>();
    for (const entry of this.presence.get(albumId)?.values() ?? []) {
      const known = byUser.get(entry.userId);
      if (!known || entry.since < known.since) {
        byUser.set(entry.userId, { userId: entry.userId, displayName: entry.displayName, since: entry.since });
      }
    }
    return [...byUser.values()].sort((a, b) => (a.since < b.since ? -1 : a.since > b.since ? 1 : 0));
  }

  private notifyPresence(albumId: string): void {
    const viewers = this.viewers(albumId);
    for (const sub of this.subs) {
      if (sub.albumId === albumId && sub.handlers.onPresence) {
        const onPresence = sub.handlers.onPresence;
        call(() => onPresence(viewers));
      }
    }
  }
}

/** A subscriber's exception must not stop the others from hearing about the change. */
function call(fn: () => void): void {
  try {
    fn();
  } catch (e) {
    report(e);
  }
}
