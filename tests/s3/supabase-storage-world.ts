/**
 * A Supabase project whose files go to the real Supabase Storage server (scripts/supabase-storage-test-server.mjs
 * runs it behind a stand-in for the `/storage/v1` gateway, on a database carrying our migrations): Auth and the
 * REST API are the wire emulator's (tests/db/wire) over that same database and with the project's keys, so a
 * person signed up here is one the storage server's Row Level Security knows. Each backend is the app's own
 * Supabase backend with `storage.provider: 'supabase'`: uploads are signed with the person's session, display URLs
 * come from Storage's batch signing, and Storage's policies (our migrations) decide.
 *
 * Every test makes its own people and albums; the database is shared by the run and nothing is ever cleaned up
 * by a test.
 */
import type { Backend } from '../../src/backend/ports';
import { createSupabaseBackend } from '../../src/backend/supabase/create-supabase-backend';
import { SilentWebSocket } from '../../src/testing/supabase-wire-stub';
import { attachDb, type Harness } from '../db/db-harness';
import { createWireEmulator, type WireEmulator } from '../db/wire/wire-emulator';
import { supabaseStorageTestEnv, type SupabaseStorageTestEnv } from './supabase-storage-env';

export const PASSWORD = 'correct horse battery staple';

export interface Member {
  backend: Backend;
  id: string;
  email: string;
  /** The person's current access token (a JWT the storage server accepts). */
  accessToken(): Promise<string>;
}

export interface StorageWorld {
  env: SupabaseStorageTestEnv;
  db: Harness;
  wire: WireEmulator;
  /** A new account, signed up through the emulated Auth, with the app's Supabase backend. */
  newMember(name?: string): Promise<Member>;
  /** The bytes Storage holds under `key`, read with the service key (no policy applies), or null when none. */
  stored(key: string): Promise<Uint8Array | null>;
  close(): Promise<void>;
}

let people = 0;

export async function startStorageWorld(): Promise<StorageWorld> {
  const env = supabaseStorageTestEnv();
  const db = await attachDb(env.databaseUrl);
  const wire = await createWireEmulator(db, { keys: { jwtSecret: env.jwtSecret, anonKey: env.anonKey } });
  // supabase-js speaks to one project URL: Storage's paths go to the real server, the rest to the emulator.
  const projectFetch: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    return url.pathname.startsWith('/storage/v1/') ? fetch(input, init) : wire.fetch(input, init);
  };
  const newBackend = () =>
    createSupabaseBackend({
      url: env.url,
      anonKey: env.anonKey,
      fetch: projectFetch,
      persistSession: false,
      webSocket: SilentWebSocket as never,
      storage: { provider: 'supabase', region: env.region, bucket: env.bucket, projectRef: env.tenantId },
    });
  return {
    env,
    db,
    wire,
    async newMember(name = 'Member') {
      const n = ++people;
      const email = `${name.toLowerCase()}.${n}.${crypto.randomUUID().slice(0, 8)}@example.test`;
      const backend = newBackend();
      const session = await backend.auth.signUp(email, PASSWORD, `${name} ${n}`);
      if (!session) throw new Error('sign-up gave no session: the emulated project asks for no email confirmation');
      const [row] = await db.query<{ id: string }>('select id from auth.users where email = $1', [email]);
      return {
        backend,
        id: row!.id,
        email,
        // A session of its own, as a second browser of the same person would have.
        accessToken: async () => {
          const res = await wire.fetch(`${env.url}/auth/v1/token?grant_type=password`, {
            method: 'POST',
            headers: { apikey: env.anonKey, 'content-type': 'application/json' },
            body: JSON.stringify({ email, password: PASSWORD }),
          });
          const body = (await res.json()) as { access_token?: string };
          if (!body.access_token) throw new Error(`signing in ${email} again: HTTP ${res.status}`);
          return body.access_token;
        },
      };
    },
    async stored(key) {
      const res = await fetch(`${env.url}/storage/v1/object/${env.bucket}/${key}`, { headers: { authorization: `Bearer ${env.serviceKey}`, apikey: env.serviceKey } });
      if (res.status === 400 || res.status === 404) return null;
      if (!res.ok) throw new Error(`reading ${key} with the service key: HTTP ${res.status} ${await res.text()}`);
      return new Uint8Array(await res.arrayBuffer());
    },
    async close() {
      await wire.close();
      await db.close();
    },
  };
}
