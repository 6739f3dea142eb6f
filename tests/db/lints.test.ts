/**
 * Database lints as tests: the mistakes that make Row Level Security silently useless.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startDb, type Harness } from './db-harness';

let db: Harness;
beforeAll(async () => {
  db = await startDb();
});
afterAll(async () => {
  await db?.close();
});

describe('schema lints', () => {
  test('every table in public has Row Level Security enabled', async () => {
    const rows = await db.query<{ table: string; rls: boolean }>(`
      select c.relname as table, c.relrowsecurity as rls
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') order by 1`);
    expect(rows.map((r) => r.table)).toEqual(
      ['activity', 'album_members', 'album_visits', 'albums', 'comments', 'devices', 'favorites', 'invites', 'items', 'profiles', 'share_guest_items', 'share_guests', 'share_link_views', 'share_links', 'share_password_failures', 'share_visits'],
    );
    expect(rows.filter((r) => !r.rls).map((r) => r.table)).toEqual([]);
  });

  test('every view in public runs with the caller\'s rights (security_invoker)', async () => {
    const rows = await db.query<{ view: string; options: string[] | null }>(`
      select c.relname as view, c.reloptions as options
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('v', 'm') order by 1`);
    expect(rows.map((r) => r.view)).toEqual(['activity_feed', 'album_summaries', 'my_favorite_items']);
    for (const r of rows) expect(r.options ?? [], r.view).toContain('security_invoker=true');
  });

  test('every security definer function has a fixed, empty search_path', async () => {
    const rows = await db.query<{ fn: string; config: string[] | null }>(`
      select n.nspname || '.' || p.proname as fn, p.proconfig as config
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where p.prosecdef and n.nspname in ('public', 'private') order by 1`);
    expect(rows.length).toBeGreaterThanOrEqual(15);
    const unfixed = rows.filter((r) => !(r.config ?? []).includes('search_path=""'));
    expect(unfixed.map((r) => r.fn)).toEqual([]);
  });

  test('anon can execute no function of ours, and reads or writes no table or view in public', async () => {
    const fns = await db.query<{ fn: string }>(`
      select n.nspname || '.' || p.proname as fn
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname in ('public', 'private') and has_function_privilege('anon', p.oid, 'execute') order by 1`);
    expect(fns.map((r) => r.fn)).toEqual([]);
    const rels = await db.query<{ rel: string }>(`
      select c.relname as rel
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'v', 'm', 'p')
        and (has_table_privilege('anon', c.oid, 'select') or has_table_privilege('anon', c.oid, 'insert')
             or has_table_privilege('anon', c.oid, 'update') or has_table_privilege('anon', c.oid, 'delete')
             or has_any_column_privilege('anon', c.oid, 'select, insert, update'))`);
    expect(rels.map((r) => r.rel)).toEqual([]);
    const [schema] = await db.query<{ usage: boolean }>(`select has_schema_privilege('anon', 'private', 'usage') as usage`);
    expect(schema?.usage).toBe(false);
  });

  test('no policy is always true, and every policy names its role', async () => {
    const rows = await db.query<{ name: string; tbl: string; roles: string[]; qual: string | null; check: string | null }>(`
      select policyname as name, schemaname || '.' || tablename as tbl, roles::text[] as roles,
             qual, with_check as check
      from pg_policies where schemaname in ('public', 'storage')`);
    expect(rows.length).toBeGreaterThanOrEqual(29);
    const trivial = (e: string | null) => e !== null && /^\(*\s*true\s*\)*$/i.test(e.trim());
    expect(rows.filter((r) => trivial(r.qual) || trivial(r.check)).map((r) => r.name)).toEqual([]);
    expect(rows.filter((r) => r.roles.includes('public') || r.roles.includes('anon')).map((r) => r.name)).toEqual([]);
  });

  test('every policy reads the caller through (select auth.uid()) or the membership helper, never per row', async () => {
    const rows = await db.query<{ name: string; expr: string }>(`
      select policyname as name, coalesce(qual, '') || ' ' || coalesce(with_check, '') as expr
      from pg_policies where schemaname in ('public', 'storage')`);
    // pg_get_expr prints an InitPlan-able call as "( SELECT auth.uid() AS uid)".
    const bare = rows.filter((r) => /auth\.uid\(\)/.test(r.expr.replace(/SELECT auth\.uid\(\) AS uid/g, '')));
    expect(bare.map((r) => r.name)).toEqual([]);
  });

  test('a table with an UPDATE policy has a SELECT policy for the same role', async () => {
    const rows = await db.query<{ tbl: string }>(`
      select distinct u.schemaname || '.' || u.tablename as tbl from pg_policies u
      where u.cmd = 'UPDATE' and u.schemaname in ('public', 'storage') and not exists (
        select 1 from pg_policies s where s.schemaname = u.schemaname and s.tablename = u.tablename
          and s.cmd in ('SELECT', 'ALL') and s.roles && u.roles)`);
    expect(rows).toEqual([]);
  });

  test('every foreign key is covered by an index (deletes and cascades never scan a table)', async () => {
    const rows = await db.query<{ fk: string }>(`
      select c.conname as fk
      from pg_constraint c
      where c.contype = 'f' and c.connamespace = 'public'::regnamespace
        and not exists (
          select 1 from pg_index i
          where i.indrelid = c.conrelid
            and (i.indkey::int2[])[0:array_length(c.conkey, 1) - 1] @> c.conkey
            and (i.indkey::int2[])[0:array_length(c.conkey, 1) - 1] <@ c.conkey)`);
    expect(rows.map((r) => r.fk)).toEqual([]);
  });

  test('no table is published for postgres_changes (their deletes reach anyone); album tables broadcast to private topics', async () => {
    const rows = await db.query<{ tablename: string }>(
      `select tablename from pg_publication_tables where pubname = 'supabase_realtime' order by 1`,
    );
    expect(rows.map((r) => r.tablename)).toEqual([]);
    const triggers = await db.query<{ tbl: string }>(`
      select distinct c.relname as tbl from pg_trigger t join pg_class c on c.oid = t.tgrelid
      where not t.tgisinternal and t.tgname like '%broadcast%' order by 1`);
    expect(triggers.map((r) => r.tbl)).toEqual(['album_members', 'albums', 'comments', 'favorites', 'items']);
  });

  test('realtime.messages: every channel policy is for signed-in users, none always true', async () => {
    const rows = await db.query<{ name: string; roles: string[]; expr: string }>(`
      select policyname as name, roles::text[] as roles, coalesce(qual, '') || ' ' || coalesce(with_check, '') as expr
      from pg_policies where schemaname = 'realtime' and tablename = 'messages'`);
    expect(rows.map((r) => r.name).sort()).toEqual(['album_changes_receive', 'album_topic_broadcast', 'album_topic_presence', 'album_topic_receive', 'user_topic_receive']);
    expect(rows.filter((r) => r.roles.join() !== 'authenticated').map((r) => r.name)).toEqual([]);
    expect(rows.filter((r) => !/realtime\.topic\(\)/.test(r.expr)).map((r) => r.name)).toEqual([]);
    const bare = rows.filter((r) => /auth\.uid\(\)/.test(r.expr.replace(/SELECT auth\.uid\(\) AS uid/g, '')));
    expect(bare.map((r) => r.name)).toEqual([]);
  });

  test('migrations are named as the Supabase CLI expects and apply in order', async () => {
    const { migrationFiles } = await import('./db-harness');
    const files = migrationFiles();
    expect(files.length).toBeGreaterThanOrEqual(5);
    expect([...files].sort()).toEqual(files);
  });
});
