/**
 * A fresh database for one test file: PGlite in-process by default, or a throwaway database on the
 * Postgres server at DATABASE_URL. Applies tests/db/supabase-fixture.sql (what a Supabase project
 * provides) and then every migration in supabase/migrations in file-name order, and runs code as an
 * actor: in a transaction, as the role PostgREST would use, with that actor's JWT claims set.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import pg from 'pg';

const root = new URL('../..', import.meta.url).pathname;
export const migrationsDir = join(root, 'supabase', 'migrations');

export type Row = Record<string, unknown>;

export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** A caller: a signed-in user (id and e-mail), or the anonymous visitor (`id: null`). */
export interface Actor {
  id: string | null;
  email?: string | null;
}

export const anonymous: Actor = { id: null };

export interface DbError {
  code: string;
  message: string;
  detail?: string;
}

/** A connection of its own to the test database, outside the harness's one-at-a-time queue. */
export interface Session extends Queryable {
  /** Opens a transaction as `actor`, as `Harness.as` does; the caller commits or rolls back. */
  begin(actor: Actor): Promise<void>;
  close(): Promise<void>;
}

export interface Harness extends Queryable {
  /** Runs `fn` as `actor` in a transaction that is rolled back, unless `commit` is set. */
  as<T>(actor: Actor, fn: (q: Queryable) => Promise<T>, opts?: { commit?: boolean }): Promise<T>;
  /** Creates a user in auth.users (the profile follows by trigger) and returns it as an actor. */
  createUser(displayName: string): Promise<Actor>;
  exec(sql: string): Promise<void>;
  /** Another connection to the same database, for races between transactions: only on the Postgres server (PGlite has one connection). */
  session: (() => Promise<Session>) | null;
  /** `pglite` or `postgres`. */
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

interface Conn {
  /** Opens another connection to the same database, where there can be one. */
  another?: () => Promise<Conn>;
  query(sql: string, params?: unknown[]): Promise<Row[]>;
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

async function pgliteConn(): Promise<Conn> {
  const db = new PGlite({ extensions: { pgcrypto } });
  await db.waitReady;
  return {
    query: async (sql, params) => (await db.query<Row>(sql, params)).rows,
    exec: async (sql) => {
      await db.exec(sql);
    },
    close: () => db.close(),
  };
}

async function postgresConn(url: string): Promise<Conn> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const name = `shoebox_test_${randomUUID().replaceAll('-', '')}`;
  await admin.query(`create database ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: target.toString() });
  await client.connect();
  // Notices (publication without logical WAL, etc.) are not test output.
  client.on('notice', () => undefined);
  const another = () => connect(target.toString());
  return {
    another,
    query: async (sql, params) => (await client.query<Row>(sql, params)).rows,
    exec: async (sql) => {
      await client.query(sql);
    },
    close: async () => {
      await client.end();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

export function migrationFiles(): string[] {
  return readdirSync(migrationsDir)
    .filter((f) => /^\d{14}_[a-z0-9_]+\.sql$/.test(f))
    .sort();
}

export async function startDb(): Promise<Harness> {
  const url = process.env.DATABASE_URL;
  const conn = url ? await postgresConn(url) : await pgliteConn();
  await conn.exec(readFileSync(join(root, 'tests', 'db', 'supabase-fixture.sql'), 'utf8'));
  for (const file of migrationFiles()) {
    try {
      await conn.exec(readFileSync(join(migrationsDir, file), 'utf8'));
    } catch (e) {
      throw new Error(`migration ${file} failed: ${(e as Error).message}`, { cause: e });
    }
  }
  return harnessOver(conn, url ? 'postgres' : 'pglite');
}

/**
 * A harness on a database that already carries the project (the real Supabase Storage server's, which
 * scripts/supabase-storage-test-server.mjs made): nothing is applied, and closing leaves the database as it is.
 * Tests on it make their own people and albums, as on any shared project.
 */
export async function attachDb(url: string): Promise<Harness> {
  const open = () => connect(url);
  return harnessOver({ ...(await open()), another: open }, 'postgres');
}

function harnessOver(conn: Conn, kind: Harness['kind']): Harness {

  // One connection: calls are serialised so that a transaction never interleaves with another.
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = chain.then(fn, fn);
    chain = next.catch(() => undefined);
    return next;
  };

  const claimsOf = (actor: Actor) => {
    const role = actor.id ? 'authenticated' : 'anon';
    const claims = actor.id ? { sub: actor.id, role, email: actor.email ?? null, aud: 'authenticated' } : { role };
    return { role, claims: JSON.stringify(claims) };
  };
  const beginAs = async (c: Conn, actor: Actor) => {
    const { role, claims } = claimsOf(actor);
    await c.exec('begin');
    await c.query(`select set_config('request.jwt.claims', $1, true)`, [claims]);
    await c.exec(`set local role ${role}`);
  };
  const { another } = conn;
  const sessions: Conn[] = [];

  const inner: Queryable = { query: async <T extends Row>(sql: string, params?: unknown[]) => (await conn.query(sql, params)) as T[] };

  return {
    kind,
    session: another
      ? async () => {
          const c = await another();
          sessions.push(c);
          return {
            query: async <T extends Row>(sql: string, params?: unknown[]) => (await c.query(sql, params)) as T[],
            begin: (actor: Actor) => beginAs(c, actor),
            close: async () => {
              sessions.splice(sessions.indexOf(c), 1);
              await c.close();
            },
          };
        }
      : null,
    query: (sql, params) => serial(() => inner.query(sql, params)),
    exec: (sql) => serial(() => conn.exec(sql)),
    close: () =>
      serial(async () => {
        for (const c of sessions.splice(0)) await c.close();
        await conn.close();
      }),
    as: (actor, fn, opts = {}) =>
      serial(async () => {
        try {
          await beginAs(conn, actor);
          const out = await fn(inner);
          await conn.exec(opts.commit ? 'commit' : 'rollback');
          return out;
        } catch (e) {
          await conn.exec('rollback');
          throw e;
        }
      }),
    createUser: (displayName) =>
      serial(async () => {
        const id = randomUUID();
        const email = `${displayName.toLowerCase().replace(/[^a-z0-9]+/g, '.')}.${id.slice(0, 8)}@example.test`;
        await conn.query(`insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3)`, [
          id,
          email,
          JSON.stringify({ display_name: displayName }),
        ]);
        return { id, email };
      }),
  };
}

/** The error a statement raised (`code`, `message`, `detail`), or throws when it succeeded. */
export async function errorOf(p: Promise<unknown>): Promise<DbError> {
  try {
    await p;
  } catch (e) {
    const err = e as { code?: string; message?: string; detail?: string };
    if (typeof err.code !== 'string') throw e;
    return { code: err.code, message: err.message ?? '', ...(err.detail ? { detail: err.detail } : {}) };
  }
  throw new Error('expected the statement to fail, and it succeeded');
}

/** A connection to a Postgres server as the harness uses one (server notices are not test output). */
async function connect(url: string): Promise<Conn> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  c.on('notice', () => undefined);
  return {
    query: async (sql, params) => (await c.query<Row>(sql, params)).rows,
    exec: async (sql) => {
      await c.query(sql);
    },
    close: () => c.end(),
  };
}

/**
 * An upload's original arriving in the bucket as Supabase Storage records it: a row in storage.objects,
 * written as the uploader (its insert policy decides), whose metadata gives the size (`bytes`, else the size
 * reserved: the stored size of an original stored compressed). Finishing the upload needs it ([Note: An upload is finished only once its original is stored]).
 * Nothing is written for an item that is not the caller's upload in progress, or that is stored already.
 */
export async function storeOriginal(q: Queryable, albumId: string, itemId: string, bytes?: number): Promise<void> {
  await q.query(
    `insert into storage.objects (bucket_id, name, owner_id, metadata)
     select 'shoebox', i.original_key, (select auth.uid())::text, jsonb_build_object('size', coalesce($3::bigint, i.stored_bytes, i.bytes))
     from public.items i
     where i.id = $2::uuid and i.album_id = $1::uuid and i.uploader_id = (select auth.uid()) and i.status = 'uploading'
       and not exists (select 1 from storage.objects o where o.bucket_id = 'shoebox' and o.name = i.original_key)`,
    [albumId, itemId, bytes ?? null],
  );
}

/** A database and the people of PRODUCT.md §6's roles, each signed up: what most files of tests/db start from. */
export interface Cast {
  db: Harness;
  owner: Actor;
  editor: Actor;
  contributor: Actor;
  viewer: Actor;
  /** Signed in, and no member of anything. */
  stranger: Actor;
}

export async function startCast(): Promise<Cast> {
  const db = await startDb();
  const [owner, editor, contributor, viewer, stranger] = [
    await db.createUser('Olive'),
    await db.createUser('Eddie'),
    await db.createUser('Cora'),
    await db.createUser('Vic'),
    await db.createUser('Stan'),
  ];
  return { db, owner, editor, contributor, viewer, stranger };
}
