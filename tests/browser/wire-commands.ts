/**
 * The emulated Supabase project (tests/db/wire, over PGlite or the DATABASE_URL server, with our migrations)
 * served to browser tests: the emulator runs in the Vitest process, and the page's supabase-js sends each HTTP
 * request here through a browser command (tests/browser/browser-wire.ts), so screens are tested against our
 * real SQL and RLS with several people at once.
 */
import { randomBytes } from 'node:crypto';
import { startDb, type Harness } from '../db/db-harness';
import { seedGuestItems, seedShareLink, type SeedShareLink } from '../db/share-link-seed';
import { createWireEmulator, type WireEmulator } from '../db/wire/wire-emulator';
import { startEdgeFunction, type EdgeFunctionServer } from '../e2e/edge-function-server';

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

export interface WireOptions {
  realtime?: boolean;
  /**
   * Edge functions (supabase/functions/<name>) to serve at /functions/v1/<name>, run by real Deno on the same
   * database (so DATABASE_URL must be a server) and presigning for the S3 test bucket (S3_TEST_*).
   */
  functions?: string[];
}

const running = new Map<string, { db: Harness; wire: WireEmulator; functions: Map<string, EdgeFunctionServer> }>();
let next = 0;

/** With `realtime`, the page's supabase-js connects its own WebSocket to the emulated Realtime on 127.0.0.1. */
export async function wireStart(opts: WireOptions = {}): Promise<WireInfo> {
  const db = await startDb();
  const wire = await createWireEmulator(db, opts.realtime ? { realtime: true, realtimePrivateOnly: true } : {});
  const id = `wire-${++next}`;
  const functions = new Map<string, EdgeFunctionServer>();
  running.set(id, { db, wire, functions });
  if (opts.functions?.length) {
    const server = process.env.DATABASE_URL;
    if (!server) throw new Error('edge functions in browser tests need DATABASE_URL (a PostgreSQL server Deno can reach)');
    const [row] = await db.query<{ name: string }>('select current_database() as name');
    const dbUrl = new URL(server);
    dbUrl.pathname = `/${row!.name}`;
    const env = (name: string) => process.env[name] ?? '';
    for (const name of opts.functions) {
      functions.set(name, await startEdgeFunction(name, {
        SUPABASE_DB_URL: dbUrl.toString(),
        SUPABASE_JWT_SECRET: wire.jwtSecret,
        S3_ENDPOINT: env('S3_TEST_ENDPOINT'),
        S3_REGION: env('S3_TEST_REGION'),
        S3_BUCKET: env('S3_TEST_BUCKET'),
        S3_ACCESS_KEY_ID: env('S3_TEST_ACCESS_KEY_ID'),
        S3_SECRET_ACCESS_KEY: env('S3_TEST_SECRET_ACCESS_KEY'),
        S3_FORCE_PATH_STYLE: 'true',
        SHOEBOX_SITE_URL: 'https://shoebox.test',
      }));
    }
  }
  return { id, url: wire.url, anonKey: wire.anonKey };
}

export async function wireFetch(id: string, req: WireRequest): Promise<WireResponse> {
  const entry = running.get(id);
  if (!entry) throw new Error(`no emulated project ${id}`);
  const url = new URL(req.url);
  const fn = /^\/functions\/v1\/([a-z-]+)$/.exec(url.pathname)?.[1];
  const server = fn ? entry.functions.get(fn) : undefined;
  const res = server
    ? await fetch(`${server.url}${url.pathname}${url.search}`, { method: req.method, headers: req.headers, body: req.body })
    : await entry.wire.fetch(new Request(req.url, { method: req.method, headers: req.headers, body: req.body }));
  return { status: res.status, statusText: res.statusText, headers: [...res.headers.entries()], body: await res.text() };
}

/** What the page asked for that the emulator does not serve (a gap fails the test instead of passing unseen). */
export function wireUnserved(id: string): string[] {
  return running.get(id)?.wire.unserved ?? [];
}

/** Lets an invitation's week pass: it expired yesterday. */
/** The item's original in the project's bucket at its reserved size (WireEmulator.placeOriginal). */
export async function wirePlaceOriginal(id: string, albumId: string, itemId: string): Promise<void> {
  const entry = running.get(id);
  if (!entry) throw new Error(`no emulated project ${id}`);
  await entry.wire.placeOriginal(albumId, itemId);
}

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

/** A guest named `name` adds `count` finished items through the link, as share-upload does; their ids. */
export async function wireGuestItems(id: string, linkId: string, name: string, count: number): Promise<string[]> {
  const entry = running.get(id);
  if (!entry) throw new Error(`no emulated project ${id}`);
  return seedGuestItems(entry.db, linkId, name, count);
}

/** A share link to the album, as its owner would make it, with guest uploads on; returns the link's token. */
export async function wireGuestShareLink(id: string, albumId: string, ownerId: string, guestMaxFiles: number | null = null): Promise<string> {
  const entry = running.get(id);
  if (!entry) throw new Error(`no emulated project ${id}`);
  const token = randomBytes(16).toString('base64url');
  await entry.db.query(
    `insert into public.share_links (album_id, token_hash, allow_guest_upload, created_by, expires_at, guest_max_files)
     values ($1, private.hash_token($2), true, $3, now() + interval '1 day', $4)`,
    [albumId, token, ownerId, guestMaxFiles],
  );
  return token;
}

export async function wireStop(id: string): Promise<void> {
  const entry = running.get(id);
  running.delete(id);
  await Promise.all([...(entry?.functions.values() ?? [])].map((f) => f.stop()));
  await entry?.wire.close();
  await entry?.db.close();
}
