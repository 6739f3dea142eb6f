/**
 * The emulated Supabase project (tests/db/wire, over PGlite or the DATABASE_URL server, with our migrations)
 * served to browser tests: the emulator runs in the Vitest process, and the page's supabase-js sends each HTTP
 * request here through a browser command (tests/browser/browser-wire.ts), so screens are tested against our
 * real SQL and RLS with several people at once.
 */
import { startDb, type Harness } from '../db/db-harness';
import { seedShareLink, type SeedShareLink } from '../db/share-link-seed';
import { createWireEmulator, type WireEmulator } from '../db/wire/wire-emulator';

export interface WireInfo {
  id: string;
  url: string;
  anonKey: string;
}

export interface WireRequest {
  url: string;
  method: string;
  headers: [string, string][];
  body: string | null;
}

export interface WireResponse {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: string;
}

const running = new Map<string, { db: Harness; wire: WireEmulator }>();
let next = 0;

/** With `realtime`, the page's supabase-js connects its own WebSocket to the emulated Realtime on 127.0.0.1. */
export async function wireStart(opts: { realtime?: boolean } = {}): Promise<WireInfo> {
  const db = await startDb();
  const wire = await createWireEmulator(db, opts.realtime ? { realtime: true, realtimePrivateOnly: true } : {});
  const id = `wire-${++next}`;
  running.set(id, { db, wire });
  return { id, url: wire.url, anonKey: wire.anonKey };
}

export async function wireFetch(id: string, req: WireRequest): Promise<WireResponse> {
  const entry = running.get(id);
  if (!entry) throw new Error(`no emulated project ${id}`);
  const res = await entry.wire.fetch(new Request(req.url, { method: req.method, headers: req.headers, body: req.body }));
  return { status: res.status, statusText: res.statusText, headers: [...res.headers.entries()], body: await res.text() };
}

/** What the page asked for that the emulator does not serve (a gap fails the test instead of passing unseen). */
export function wireUnserved(id: string): string[] {
  return running.get(id)?.wire.unserved ?? [];
}

/** Lets an invitation's week pass: it expired yesterday. */
export async function wireExpireInvite(id: string, inviteId: string): Promise<void> {
  const entry = running.get(id);
  if (!entry) throw new Error(`no emulated project ${id}`);
  await entry.db.query(`update public.invites set created_at = now() - interval '8 days', expires_at = now() - interval '1 day' where id = $1`, [inviteId]);
}

/** A share link as the share-links function leaves it, in the state the test needs; its id. */
export async function wireShareLink(id: string, link: SeedShareLink): Promise<string> {
  const entry = running.get(id);
  if (!entry) throw new Error(`no emulated project ${id}`);
  return seedShareLink(entry.db, link);
}

export async function wireStop(id: string): Promise<void> {
  const entry = running.get(id);
  running.delete(id);
  await entry?.wire.close();
  await entry?.db.close();
}
