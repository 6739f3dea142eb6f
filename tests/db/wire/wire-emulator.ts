/**
 * An emulator of a hosted Supabase project's HTTP API for tests, backed by a real database (PGlite or the
 * Postgres server at DATABASE_URL, through tests/db/db-harness.ts) carrying our own migrations: a `fetch`
 * to hand to supabase-js that serves
 *   /auth/v1/*  GoTrue (gotrue-emulator.ts)    https://github.com/supabase/auth/blob/master/README.md
 *   /rest/v1/*  PostgREST (postgrest-emulator.ts) https://docs.postgrest.org/en/v12/references/api.html
 * behind the API gateway's key check (https://supabase.com/docs/guides/api/api-keys). Only the request
 * forms the Supabase adapter sends are served; an unknown route answers 404 and a known route asked for
 * something not served answers 501, and both are listed in `unserved`, so a gap fails a test instead of
 * passing unnoticed. With `realtime: true`, Realtime is emulated too (realtime-emulator.ts): a WebSocket
 * server on 127.0.0.1 whose address becomes the project URL, so supabase-js connects its Realtime client
 * there, while every HTTP request still goes to `fetch` (including /realtime/v1/api/broadcast).
 */
import { randomBytes } from 'node:crypto';
import { startDb, type Harness } from '../db-harness';
import { GOTRUE_SCHEMA_SQL, GoTrueEmulator } from './gotrue-emulator';
import { signJwt } from './jwt-hs256';
import { PostgrestEmulator } from './postgrest-emulator';
import { EmulatorGap } from './postgrest-query';
import { loadSchemaCache } from './postgrest-schema-cache';
import { RealtimeEmulator } from './realtime-emulator';
import { jsonResponse, readRequest } from './wire-http';

export interface WireEmulator {
  /** The project URL to give supabase-js (never resolved: every request goes to `fetch`). */
  url: string;
  /** The project's anon key: a JWT with role `anon`, signed with the project's secret. */
  anonKey: string;
  /** The project's JWT secret (the dashboard's "Legacy JWT secret"), for edge functions run beside the emulator. */
  jwtSecret: string;
  fetch: typeof fetch;
  /** Every request that met a route or a form the emulator does not serve, as `METHOD path: why`. */
  unserved: string[];
  /** The Realtime server, when asked for (its own `unserved` lists the frames it did not serve). */
  realtime: RealtimeEmulator | null;
  /**
   * Puts an item's original in the project's bucket at its reserved size, as Supabase Storage would record an
   * upload (its row in storage.objects): the emulated project has no bucket, and an item is finished only once
   * its original is stored.
   */
  placeOriginal(albumId: string, itemId: string): Promise<void>;
  /** Stops the Realtime server, if any (before the database closes). */
  close(): Promise<void>;
}

export interface WireEmulatorOptions {
  /** db-max-rows; hosted projects default to 1,000. */
  maxRows?: number;
  accessTokenSeconds?: number;
  /** Also emulate Realtime (a WebSocket server on 127.0.0.1, changes captured from the database). */
  realtime?: boolean;
  /** Realtime's "Allow public access" turned off, as the README asks of a deployment: private channels only. */
  realtimePrivateOnly?: boolean;
  /**
   * The project's JWT secret and anon key, when another server of the same project must accept the tokens this
   * one issues (the real Supabase Storage server); otherwise made fresh.
   */
  keys?: { jwtSecret: string; anonKey: string };
}

const PROJECT_URL = 'https://emulated-project.supabase.test';

const yieldToIo = () => new Promise<void>((resolve) => setImmediate(resolve));

function abortError(): DOMException {
  return new DOMException('This operation was aborted', 'AbortError');
}

export async function createWireEmulator(db: Harness, opts: WireEmulatorOptions = {}): Promise<WireEmulator> {
  await db.exec(GOTRUE_SCHEMA_SQL);
  const jwtSecret = opts.keys?.jwtSecret ?? randomBytes(32).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const anonKey = opts.keys?.anonKey ?? signJwt({ iss: 'supabase', ref: 'emulated-project', role: 'anon', iat: now, exp: now + 10 * 365 * 86400 }, jwtSecret);
  const gotrue = new GoTrueEmulator({ db, jwtSecret, issuer: `${PROJECT_URL}/auth/v1`, ...(opts.accessTokenSeconds ? { accessTokenSeconds: opts.accessTokenSeconds } : {}) });
  const postgrest = new PostgrestEmulator({ db, jwtSecret, schema: await loadSchemaCache(db), maxRows: opts.maxRows ?? 1000 });
  const unserved: string[] = [];
  const realtime = opts.realtime ? await RealtimeEmulator.start({ db, jwtSecret, anonKey, privateOnly: opts.realtimePrivateOnly === true }) : null;

  const serve = async (request: Request): Promise<Response> => {
    const req = await readRequest(request);
    const where = `${req.method} ${req.url.pathname}${req.url.search}`;
    const apikey = req.headers.get('apikey') ?? req.url.searchParams.get('apikey');
    if (!apikey) return jsonResponse({ message: 'No API key found in request', hint: "No 'apikey' request header or url param was found." }, 401);
    if (apikey !== anonKey) return jsonResponse({ message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' }, 401);
    try {
      const m = /^\/(auth|rest|realtime)\/v1(\/.*)$/.exec(req.url.pathname);
      const response =
        m?.[1] === 'auth'
          ? await gotrue.handle(req, m[2]!)
          : m?.[1] === 'rest'
            ? await postgrest.handle(req, m[2]!)
            : m?.[1] === 'realtime' && realtime
              ? await realtime.handleHttp(req, m[2]!)
              : null;
      // What the request committed reaches Realtime subscribers (the database may have no LISTEN).
      realtime?.changesMayHaveCommitted();
      if (response) return response;
      unserved.push(`${where}: no such route`);
      return jsonResponse({ message: 'no Route matched with those values' }, 404);
    } catch (e) {
      const gap = e instanceof EmulatorGap;
      unserved.push(`${where}: ${gap ? '' : 'emulator failure: '}${(e as Error).message}`);
      return jsonResponse({ code: gap ? 'EMULATOR_GAP' : 'EMULATOR_FAILURE', message: (e as Error).message, details: null, hint: null }, gap ? 501 : 500);
    }
  };

  const emulatedFetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    // A real request leaves the event loop free while on the network; so does this one, before and after the
    // server's work, so that other I/O (a Realtime WebSocket) moves on while in-process PGlite is busy.
    await yieldToIo();
    if (request.signal.aborted) throw abortError();
    const response = await serve(request);
    await yieldToIo();
    // The caller gave up while the server worked: the answer never reaches it, as with a real fetch.
    if (request.signal.aborted) throw abortError();
    return response;
  };

  const placeOriginal = async (albumId: string, itemId: string) => {
    await db.query(
      `insert into storage.objects (bucket_id, name, owner_id, metadata)
       select 'shoebox', i.original_key, i.uploader_id::text, pg_catalog.jsonb_build_object('size', coalesce(i.stored_bytes, i.bytes))
       from public.items i where i.id = $1::uuid and i.album_id = $2::uuid`,
      [itemId, albumId],
    );
  };
  return { url: realtime?.url ?? PROJECT_URL, anonKey, jwtSecret, fetch: emulatedFetch, unserved, realtime, placeOriginal, close: async () => realtime?.close() };
}

/** A database and the emulated project in front of it: what the tests of the Supabase adapter start from. */
export async function startWire(opts: WireEmulatorOptions = {}): Promise<{ db: Harness; wire: WireEmulator }> {
  const db = await startDb();
  return { db, wire: await createWireEmulator(db, opts) };
}
