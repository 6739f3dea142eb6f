// The real Supabase Storage server started by scripts/supabase-storage-test-server.mjs, for Node tests: its
// coordinates (SUPABASE_STORAGE_TEST_*), people with access tokens it accepts, albums and reserved items in its
// database made through the app's own SQL functions, and S3 clients signed with a person's session.
import { randomUUID } from 'node:crypto';
import { S3Client } from '@aws-sdk/client-s3';
import pg from 'pg';
import { signJwt } from '../db/wire/jwt-hs256';
import { readSupabaseStorageSettings, type SupabaseStorageTestEnv } from './supabase-storage-settings';

export type { SupabaseStorageTestEnv };

/** Reads SUPABASE_STORAGE_TEST_*; throws naming what is missing and how to get it. */
export function supabaseStorageTestEnv(env: NodeJS.ProcessEnv = process.env): SupabaseStorageTestEnv {
  return readSupabaseStorageSettings(
    env,
    'Run the suite with `node scripts/test.mjs s3`, or start the server with `DATABASE_URL=… node scripts/supabase-storage-test-server.mjs` and export the lines it prints.',
  );
}

/** Someone signed in: their id and e-mail in auth.users, and an access token for them. */
export interface StoragePerson {
  id: string;
  email: string;
  /** A JWT as Supabase Auth issues it (role `authenticated`, `sub` = id), signed with the server's secret. */
  jwt: string;
}

/** An access token for `person` as Supabase Auth issues one, valid for `seconds`. */
export function accessToken(person: { id: string; email: string }, seconds = 3600, env = supabaseStorageTestEnv()): string {
  const now = Math.floor(Date.now() / 1000);
  return signJwt(
    {
      aud: 'authenticated',
      iss: `${env.url}/auth/v1`,
      sub: person.id,
      email: person.email,
      role: 'authenticated',
      aal: 'aal1',
      session_id: randomUUID(),
      is_anonymous: false,
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: {},
      iat: now,
      exp: now + seconds,
    },
    env.jwtSecret,
  );
}

export interface StorageFile {
  filename: string;
  mime: string;
  kind: 'image' | 'video' | 'file';
  bytes: number;
}

/** The storage server's database, to make people, albums and items the way the app does. */
export interface StorageDatabase {
  /** Adds a person to auth.users (their profile follows by trigger), with an access token. */
  createPerson(displayName: string): Promise<StoragePerson>;
  /** Runs `sql` as `person` (role authenticated, with their JWT claims) and commits. */
  asPerson<T extends Record<string, unknown>>(person: StoragePerson, sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs `sql` as the database owner (bypassing Row Level Security), e.g. to look at storage.objects. */
  query<T extends Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** A new album owned by `person` (public.create_album); its id. */
  createAlbum(owner: StoragePerson, title?: string): Promise<string>;
  /** Adds `person` to the album with `role`, as the owner's invitation would. */
  addMember(albumId: string, owner: StoragePerson, person: StoragePerson, role: 'editor' | 'contributor' | 'viewer'): Promise<void>;
  /** Reserves one item as `person` (public.reserve_items): its id and the key its original is uploaded to. */
  reserveItem(person: StoragePerson, albumId: string, file?: Partial<StorageFile>): Promise<{ id: string; originalKey: string }>;
  close(): Promise<void>;
}

export async function openStorageDatabase(env = supabaseStorageTestEnv()): Promise<StorageDatabase> {
  const client = new pg.Client({ connectionString: env.databaseUrl });
  client.on('notice', () => undefined);
  await client.connect();
  // One connection: calls take turns, so that one person's transaction never takes in another's statements.
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = chain.then(fn, fn);
    chain = next.catch(() => undefined);
    return next;
  };
  const query = <T extends Record<string, unknown>>(sql: string, params?: unknown[]) => serial(async () => (await client.query<T>(sql, params)).rows);
  const asPerson = <T extends Record<string, unknown>>(person: StoragePerson, sql: string, params?: unknown[]) =>
    serial(async () => {
      await client.query('begin');
      try {
        const claims = { sub: person.id, role: 'authenticated', email: person.email, aud: 'authenticated' };
        await client.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify(claims)]);
        await client.query('set local role authenticated');
        const rows = (await client.query<T>(sql, params)).rows;
        await client.query('commit');
        return rows;
      } catch (err) {
        await client.query('rollback');
        throw err;
      }
    });

  return {
    query,
    asPerson,
    async createPerson(displayName) {
      const id = randomUUID();
      const email = `${displayName.toLowerCase().replace(/[^a-z0-9]+/g, '.')}.${id.slice(0, 8)}@example.test`;
      await query(`insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3)`, [id, email, JSON.stringify({ display_name: displayName })]);
      return { id, email, jwt: accessToken({ id, email }, 3600, env) };
    },
    async createAlbum(owner, title = 'Storage test album') {
      const [album] = await asPerson<{ id: string }>(owner, `select id from public.create_album($1)`, [title]);
      return album!.id;
    },
    async addMember(albumId, owner, person, role) {
      await query(`insert into public.album_members (album_id, user_id, role, added_by) values ($1, $2, $3, $4)`, [albumId, person.id, role, owner.id]);
    },
    async reserveItem(person, albumId, file = {}) {
      const item = { id: randomUUID(), filename: 'IMG_0001.jpg', mime: 'image/jpeg', kind: 'image', bytes: 1024, ...file };
      const [row] = await asPerson<{ id: string; original_key: string }>(person, `select id, original_key from public.reserve_items($1, $2)`, [albumId, JSON.stringify([item])]);
      return { id: row!.id, originalKey: row!.original_key };
    },
    close: () => serial(() => client.end()),
  };
}

export interface SessionS3ClientOptions {
  /** Another secret than the anon key (e.g. a wrong one). */
  secretAccessKey?: string;
  /** SDK retries; 1 means no retry, so a test sees each failure. */
  maxAttempts?: number;
}

/**
 * An S3 client as a browser signed in to Supabase makes one: the project ref as access key id, the anon key as
 * secret, the person's access token as session token, path-style, at `<url>/storage/v1/s3`.
 */
export function sessionS3Client(jwt: string, opts: SessionS3ClientOptions = {}, env = supabaseStorageTestEnv()): S3Client {
  return storageS3Client(env, opts.maxAttempts ?? 3, { accessKeyId: env.tenantId, secretAccessKey: opts.secretAccessKey ?? env.anonKey, sessionToken: jwt });
}

/** An S3 client with the project's S3 access keys (service role: Row Level Security does not apply). */
export function serviceS3Client(env = supabaseStorageTestEnv()): S3Client {
  return storageS3Client(env, 1, { accessKeyId: env.s3AccessKeyId, secretAccessKey: env.s3SecretAccessKey });
}

/** An S3 client at `<url>/storage/v1/s3`, path-style, checksums only where the operation needs them. */
function storageS3Client(env: SupabaseStorageTestEnv, maxAttempts: number, credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string }): S3Client {
  return new S3Client({
    endpoint: `${env.url}/storage/v1/s3`,
    region: env.region,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts,
    credentials,
  });
}
