/**
 * [Note: Who is here is vouched for by the database] (in the migrations): anyone who may join an album's
 * channel writes what they like into presence and broadcasts, so the app does not take a person's id from a
 * message. Each tab tracks a ticket the database made for its user (`presence_ticket`), and a viewer or an
 * upload progress is shown only once `presence_people` has said whose ticket it is, with that person's
 * display name from the database.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { log } from '../../lib/log';

export interface Vouched {
  userId: string;
  displayName: string;
}

/** A ticket lasts a day; a new one is asked for after half of that. */
const TICKET_REFRESH_MS = 12 * 60 * 60 * 1000;
/** How long an answer about a ticket is trusted: a member who leaves stops being shown within this time. */
const VOUCH_TTL_MS = 5 * 60 * 1000;
/** presence_people checks at most this many tickets per call. */
const MAX_PER_CALL = 200;
const MAX_TICKET_LENGTH = 200;

export function isTicket(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_TICKET_LENGTH;
}

export class PresenceTickets {
  private readonly own = new Map<string, { at: number; ticket: Promise<string | null> }>();
  private readonly vouched = new Map<string, { at: number; who: Promise<Vouched | null> }>();

  constructor(
    private readonly client: SupabaseClient,
    private readonly now: () => number = Date.now,
  ) {}

  /** This user's ticket for the album, or null when the database would not give one (not a member). */
  ticketFor(albumId: string): Promise<string | null> {
    const known = this.own.get(albumId);
    if (known && this.now() - known.at < TICKET_REFRESH_MS) return known.ticket;
    const ticket = (async () => {
      const { data, error } = await this.client.rpc('presence_ticket', { p_album_id: albumId });
      if (error || typeof data !== 'string') {
        log.warn('No presence ticket for the album.', error);
        this.own.delete(albumId);
        return null;
      }
      return data;
    })();
    this.own.set(albumId, { at: this.now(), ticket });
    return ticket;
  }

  /** Who each ticket stands for, as the database says; tickets it does not vouch for are absent. */
  async whoHolds(albumId: string, tickets: Iterable<string>): Promise<Map<string, Vouched>> {
    const wanted = [...new Set(tickets)].filter(isTicket);
    if (this.vouched.size > 1000) {
      for (const [k, v] of this.vouched) if (this.now() - v.at >= VOUCH_TTL_MS) this.vouched.delete(k);
    }
    const key = (t: string) => `${albumId} ${t}`;
    const ask = wanted.filter((t) => {
      const known = this.vouched.get(key(t));
      return !known || this.now() - known.at >= VOUCH_TTL_MS;
    });
    for (let i = 0; i < ask.length; i += MAX_PER_CALL) {
      const batch = ask.slice(i, i + MAX_PER_CALL);
      const answer = this.check(albumId, batch);
      for (const t of batch) this.vouched.set(key(t), { at: this.now(), who: answer.then((m) => m.get(t) ?? null) });
    }
    const out = new Map<string, Vouched>();
    for (const t of wanted) {
      const who = await this.vouched.get(key(t))?.who;
      if (who) out.set(t, who);
    }
    return out;
  }

  private async check(albumId: string, tickets: string[]): Promise<Map<string, Vouched>> {
    const { data, error } = await this.client.rpc('presence_people', { p_album_id: albumId, p_tickets: tickets });
    const out = new Map<string, Vouched>();
    if (error || !Array.isArray(data)) {
      // Asked again next time rather than remembered as no one.
      for (const t of tickets) this.vouched.delete(`${albumId} ${t}`);
      if (error) log.warn('Could not check who is in the album.', error);
      return out;
    }
    for (const row of data as { ticket?: unknown; user_id?: unknown; display_name?: unknown }[]) {
      if (typeof row.ticket === 'string' && typeof row.user_id === 'string' && typeof row.display_name === 'string') {
        out.set(row.ticket, { userId: row.user_id, displayName: row.display_name });
      }
    }
    return out;
  }
}
