/**
 * What the functions' tests share: the environment of a real database and S3 gateway (prepared by
 * scripts/functions-test.mjs), signed-in users made in auth.users, their access tokens, and albums.
 * Only test files import this.
 */
import { SignJWT } from 'jose';
import postgres from 'postgres';
import type { Env } from './config-error.ts';
import type { Sql, Tx } from './database.ts';

/** Each run signs its tokens with a secret of its own. */
export const JWT_SECRET = crypto.randomUUID() + crypto.randomUUID();

export function testEnv(): Env {
  const get = (name: string) => {
    const v = Deno.env.get(name);
    if (!v) throw new Error(`${name} is not set: run these tests with scripts/functions-test.mjs`);
    return v;
  };
  return {
    SUPABASE_DB_URL: get('DATABASE_URL'),
    SUPABASE_JWT_SECRET: JWT_SECRET,
    S3_ENDPOINT: get('S3_TEST_ENDPOINT'),
    S3_REGION: get('S3_TEST_REGION'),
    S3_BUCKET: get('S3_TEST_BUCKET'),
    S3_ACCESS_KEY_ID: get('S3_TEST_ACCESS_KEY_ID'),
    S3_SECRET_ACCESS_KEY: get('S3_TEST_SECRET_ACCESS_KEY'),
    S3_FORCE_PATH_STYLE: 'true',
  };
}

/** The database as its owner, for arranging rows the way the app's functions would leave them. */
export function ownerSql(): Sql {
  return postgres(testEnv().SUPABASE_DB_URL!, { max: 2, onnotice: () => undefined });
}

/** Tests share connections and keep-alive sockets across cases, so Deno's per-test leak checks are off. */
export function test(name: string, fn: () => Promise<void>): void {
  Deno.test({ name, fn, sanitizeOps: false, sanitizeResources: false });
}

export async function createUser(sql: Sql, name: string): Promise<string> {
  const id = crypto.randomUUID();
  const email = `${name.toLowerCase()}.${id.slice(0, 8)}@example.test`;
  await sql`insert into auth.users (id, email, raw_user_meta_data) values (${id}, ${email}, ${sql.json({ display_name: name })})`;
  return id;
}

/** Runs `fn` as the signed-in user, the way PostgREST would, and commits. */
export function asUser<T>(sql: Sql, userId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return sql.begin(async (tx) => {
    await tx`set local role authenticated`;
    await tx`select set_config('request.jwt.claims', ${JSON.stringify({ sub: userId, role: 'authenticated' })}, true)`;
    return await fn(tx);
  }) as Promise<T>;
}

/** A token as Supabase Auth issues it (HS256 under the project's secret), or with `secret` to forge one. */
export function accessToken(
  claims: { sub?: string; role?: string },
  opts: { expiresInSeconds?: number; secret?: string } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ role: 'authenticated', aud: 'authenticated', ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now - 60)
    .setExpirationTime(now + (opts.expiresInSeconds ?? 3600))
    .sign(new TextEncoder().encode(opts.secret ?? JWT_SECRET));
}

/** An unsigned token (`alg: none`) that claims whatever it likes. */
export function unsignedToken(claims: Record<string, unknown>): string {
  const part = (o: unknown) => btoa(JSON.stringify(o)).replace(/=+$/, '').replaceAll('+', '-').replaceAll('/', '_');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ exp: Math.floor(Date.now() / 1000) + 3600, ...claims })}.`;
}

export interface Album {
  id: string;
  owner: string;
  editor: string;
  contributor: string;
  viewer: string;
}

/** An album with one member of each role (committed). */
export async function createAlbum(sql: Sql, title = 'Summer'): Promise<Album> {
  const [owner, editor, contributor, viewer] = await Promise.all(['Olive', 'Eddie', 'Cora', 'Vic'].map((n) => createUser(sql, n)));
  const [row] = await asUser(sql, owner!, (tx) => tx<{ id: string }[]>`select id from public.create_album(${title})`);
  const id = row!.id;
  for (const [user, role] of [[editor, 'editor'], [contributor, 'contributor'], [viewer, 'viewer']] as const) {
    await sql`insert into public.album_members (album_id, user_id, role, added_by) values (${id}, ${user!}, ${role}, ${owner!})`;
  }
  return { id, owner: owner!, editor: editor!, contributor: contributor!, viewer: viewer! };
}

/** Reserves one item as `userId` (status `uploading`) and returns its id. */
export async function reserveItem(sql: Sql, userId: string, albumId: string, file: { filename?: string; mime?: string; kind?: string } = {}): Promise<string> {
  const id = crypto.randomUUID();
  const item = { id, filename: 'IMG_0001.jpg', mime: 'image/jpeg', kind: 'image', bytes: 1000, ...file };
  await asUser(sql, userId, (tx) => tx`select id from public.reserve_items(${albumId}, ${tx.json([item])})`);
  return id;
}

/**
 * Records the item's original as stored at its reserved size, as storage-sign does once it has looked in the
 * bucket: for tests about what comes after an upload, not about the upload itself.
 */
export async function markStored(sql: Sql, itemId: string): Promise<void> {
  await sql`select private.record_stored(${itemId}::uuid, (select i.bytes from public.items i where i.id = ${itemId}::uuid))`;
}

export const key = (albumId: string, itemId: string, file = 'original') => `albums/${albumId}/${itemId}/${file}`;

export function randomBytes(n: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i += 65536) crypto.getRandomValues(out.subarray(i, Math.min(n, i + 65536)));
  return out;
}
