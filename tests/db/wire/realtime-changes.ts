/**
 * Change capture for the Realtime emulator, from the real database: a row trigger on every table of the
 * `supabase_realtime` publication records each committed change (installed by the emulator as the harness's
 * superuser, never by a migration), and the feed hands each change on once, in commit order as far as it can
 * tell (see [Note: Reading each committed change once]). It then decides, as
 * Realtime's `realtime.apply_rls` does (https://github.com/supabase/realtime, priv/repo/migrations), what one
 * subscriber receives:
 *   - the old row is the table's replica identity: the whole row for REPLICA IDENTITY FULL, the index columns
 *     for USING INDEX, the primary key by default; an update carries it only when FULL or when a key column
 *     changed, as the WAL does;
 *   - generated columns are not in the record (publications do not carry them), `columns` lists them all;
 *   - columns the subscriber's role may not select are left out;
 *   - inserts and updates reach a subscriber only if `select exists(select 1 from <table> where <pk> = …)`
 *     finds the row run as that subscriber (role and JWT claims), i.e. RLS decides; deletes are sent without
 *     that check, with only the primary key of the old row when the table has RLS enabled.
 * Broadcast from the database: every row inserted into realtime.messages (realtime.send, broadcast_changes) is
 * captured the same way and handed on in the same order, for the emulator to deliver to the topic's channels.
 * Postgres server: LISTEN on a connection of its own. PGlite has one connection the harness keeps to itself,
 * so the emulator reads changes after each request it serves, plus a poll each second for commits made by
 * other means (each PGlite query holds the event loop, so a busier poll would slow the WebSocket down).
 */
import pg from 'pg';
import type { Harness, Row } from '../db-harness';
import type { Claims } from './jwt-hs256';

export interface TableInfo {
  entity: string;
  schema: string;
  table: string;
  rls: boolean;
  /** d (primary key), f (full), i (index), n (nothing): pg_class.relreplident. */
  replicaIdentity: 'd' | 'f' | 'i' | 'n';
  primaryKey: string[];
  replicaIndex: string[];
  columns: { name: string; type: string; generated: boolean }[];
}

export type ChangeOp = 'INSERT' | 'UPDATE' | 'DELETE';

/** A committed row of realtime.messages: a broadcast sent from the database. */
export interface DatabaseMessage {
  topic: string;
  event: string;
  extension: string;
  private: boolean;
  payload: unknown;
}

export interface CapturedChange {
  id: number;
  info: TableInfo;
  op: ChangeOp;
  /** New row values (JSON as `to_jsonb` gives them, which is what Realtime's `realtime.cast` gives). */
  record: Row | null;
  /** The old row's replica identity, or null when the WAL carries none. */
  identity: Row | null;
  commitTimestamp: string;
}

/** The `data` of a postgres_changes message, as one subscriber may receive it. */
export interface ChangeData {
  schema: string;
  table: string;
  commit_timestamp: string;
  type: ChangeOp;
  columns: { name: string; type: string }[];
  record?: Row;
  old_record?: Row;
  errors: null;
}

/**
 * [Note: Reading each committed change once]
 * Realtime streams the WAL, so a client hears each committed change once, in commit order. The emulator reads
 * its changes table instead, and neither of the obvious cursors is right: its ids are taken when a row is
 * written, not when its transaction commits, so a transaction that wrote id 7 may commit after another wrote
 * and committed id 8; a high-water mark on ids (deliver `id > last`) then never sends 7. So the cursor is the
 * database's own visibility: each read is one statement that also returns its snapshot, and the next read
 * takes only the changes of transactions that read could not see (those still running then, its `xip`, and
 * those begun after, `xid >= xmax`). A change is visible to exactly one read: the first after its transaction
 * commits. Within a read, transactions go in the order of their last change (a transaction commits after its
 * last write), their changes in id order (ids are numbers: `order by id::text` would put 10 before 8).
 */
const NOTIFY_CHANNEL = 'realtime_emulator';
/** For commits made other than through the emulated API (which reads changes after each request). */
const POLL_MS = 1000;

const CAPTURE_SQL = `
create schema if not exists realtime_emulator;
create table if not exists realtime_emulator.changes (
  id bigserial primary key,
  schema_name text not null,
  table_name text not null,
  op text not null,
  new_row jsonb,
  old_row jsonb,
  commit_timestamp text not null,
  xid xid8 not null default pg_current_xact_id()
);
-- A database made by an earlier emulator has the table without the transaction's id.
alter table realtime_emulator.changes add column if not exists xid xid8 not null default pg_current_xact_id();
create index if not exists changes_xid on realtime_emulator.changes (xid);
create or replace function realtime_emulator.capture() returns trigger
language plpgsql security definer set search_path = pg_catalog as $$
declare
  change_id bigint;
begin
  insert into realtime_emulator.changes (schema_name, table_name, op, new_row, old_row, commit_timestamp)
  values (tg_table_schema, tg_table_name, tg_op,
          case when tg_op <> 'DELETE' then to_jsonb(new) end,
          case when tg_op <> 'INSERT' then to_jsonb(old) end,
          to_char(clock_timestamp() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
  returning id into change_id;
  perform pg_notify('${NOTIFY_CHANNEL}', change_id::text);
  return null;
end $$;
do $$
begin
  if to_regclass('realtime.messages') is not null then
    create or replace trigger realtime_emulator_capture after insert on realtime.messages
      for each row execute function realtime_emulator.capture();
  end if;
end $$;
`;

const TABLES_SQL = `
select format('%I.%I', n.nspname, c.relname) as entity, n.nspname as schema, c.relname as "table",
       c.relrowsecurity as rls, c.relreplident::text as replica_identity,
       coalesce((select json_agg(a.attname::text order by a.attnum) from pg_constraint k
                 join pg_attribute a on a.attrelid = k.conrelid and a.attnum = any(k.conkey)
                 where k.conrelid = c.oid and k.contype = 'p'), '[]'::json) as primary_key,
       coalesce((select json_agg(a.attname::text order by a.attnum) from pg_index i
                 join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
                 where i.indrelid = c.oid and i.indisreplident), '[]'::json) as replica_index,
       (select json_agg(json_build_object('name', a.attname::text, 'type', t.typname::text, 'generated', a.attgenerated <> '')
                        order by a.attnum)
          from pg_attribute a join pg_type t on t.oid = a.atttypid
         where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped) as columns
  from pg_publication_tables p
  join pg_namespace n on n.nspname = p.schemaname
  join pg_class c on c.relnamespace = n.oid and c.relname = p.tablename
 where p.pubname = 'supabase_realtime'`;

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

function pick(row: Row, names: string[]): Row {
  return Object.fromEntries(names.filter((n) => n in row).map((n) => [n, row[n]]));
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The old values the WAL carries for a change to this table (see the header). */
function identityOf(info: TableInfo, op: ChangeOp, oldRow: Row | null, newRow: Row | null): Row | null {
  if (!oldRow || op === 'INSERT') return null;
  const stored = info.columns.filter((c) => !c.generated).map((c) => c.name);
  if (info.replicaIdentity === 'f') return pick(oldRow, stored);
  const key = info.replicaIdentity === 'i' ? info.replicaIndex : info.replicaIdentity === 'd' ? info.primaryKey : [];
  if (key.length === 0) return null;
  if (op === 'UPDATE' && newRow && key.every((k) => same(oldRow[k], newRow[k]))) return null;
  return pick(oldRow, key);
}

/** The snapshot of the last read: what it could not see is what the next read takes (see the note). */
interface Horizon {
  xmax: string;
  /** Transactions running at the read, as an array literal (`{745,748}`). */
  xip: string;
}

const SNAPSHOT_SQL = `pg_snapshot_xmax(pg_current_snapshot())::text as xmax,
       array(select pg_snapshot_xip(pg_current_snapshot()))::text as xip`;

/** The changes committed since the read at `$1` (xmax) / `$2` (xip), and the snapshot that saw them: one statement. */
const READ_SQL = `
select s.xmax, s.xip, c.id::text as id, c.schema_name, c.table_name, c.op, c.new_row, c.old_row, c.commit_timestamp
  from (select ${SNAPSHOT_SQL}) s
  left join realtime_emulator.changes c on c.xid >= $1::xid8 or c.xid = any($2::xid8[])
 order by max(c.id) over (partition by c.xid), c.id`;

export class ChangeFeed {
  private tables = new Map<string, TableInfo>();
  private horizon: Horizon = { xmax: '0', xip: '{}' };
  private draining: Promise<void> = Promise.resolve();
  private pending = false;
  private closed = false;
  private timer: NodeJS.Timeout | null = null;
  private listener: pg.Client | null = null;
  private readonly selectable = new Map<string, Set<string>>();

  private constructor(
    private readonly db: Harness,
    private readonly deliver: (change: CapturedChange) => Promise<void>,
    private readonly deliverMessage: (message: DatabaseMessage) => void,
  ) {}

  /** Installs the capture (idempotent: several emulators may share a database) and starts following it. */
  static async start(
    db: Harness,
    deliver: (change: CapturedChange) => Promise<void>,
    deliverMessage: (message: DatabaseMessage) => void,
  ): Promise<ChangeFeed> {
    const feed = new ChangeFeed(db, deliver, deliverMessage);
    await db.exec(CAPTURE_SQL);
    for (const row of await db.query(TABLES_SQL)) {
      const info: TableInfo = {
        entity: String(row.entity),
        schema: String(row.schema),
        table: String(row.table),
        rls: Boolean(row.rls),
        replicaIdentity: String(row.replica_identity) as TableInfo['replicaIdentity'],
        primaryKey: row.primary_key as string[],
        replicaIndex: row.replica_index as string[],
        columns: row.columns as TableInfo['columns'],
      };
      feed.tables.set(`${info.schema}.${info.table}`, info);
      await db.exec(
        `create or replace trigger realtime_emulator_capture after insert or update or delete on ${info.entity}
           for each row execute function realtime_emulator.capture()`,
      );
    }
    // From now on, as Realtime sends what commits after a client joins.
    const [now] = await db.query<{ xmax: string; xip: string }>(`select ${SNAPSHOT_SQL}`);
    feed.horizon = { xmax: now!.xmax, xip: now!.xip };
    if (db.kind === 'postgres' && process.env.DATABASE_URL) {
      await feed.listen(process.env.DATABASE_URL);
    } else {
      feed.timer = setInterval(() => void feed.kick(), POLL_MS);
      feed.timer.unref();
    }
    return feed;
  }

  /** The published table `schema.table`, if it is published. */
  table(schema: string, table: string): TableInfo | undefined {
    return this.tables.get(`${schema}.${table}`);
  }

  /** Whether the table exists at all (Realtime accepts postgres_changes on any table; only published ones send). */
  async exists(schema: string, table: string): Promise<boolean> {
    const [row] = await this.db.query<{ found: boolean }>(`select to_regclass(format('%I.%I', $1::text, $2::text)) is not null as found`, [schema, table]);
    return row?.found === true;
  }

  /**
   * Reads whatever was committed since the last read (cheap when nothing was), each change once. Resolves once
   * a read begun after this call has handed its changes on.
   */
  kick(): Promise<void> {
    if (this.closed || this.pending) return this.draining;
    this.pending = true;
    this.draining = this.draining.then(async () => {
      this.pending = false;
      if (this.closed) return;
      const rows = await this.db.query(READ_SQL, [this.horizon.xmax, this.horizon.xip]);
      const [first] = rows;
      if (first) this.horizon = { xmax: String(first.xmax), xip: String(first.xip) };
      for (const row of rows) {
        if (row.id === null) continue; // the snapshot's row when nothing committed
        if (row.schema_name === 'realtime' && row.table_name === 'messages') {
          const m = row.new_row as Row;
          this.deliverMessage({ topic: String(m.topic), event: String(m.event ?? ''), extension: String(m.extension), private: m.private === true, payload: m.payload ?? {} });
          continue;
        }
        const info = this.tables.get(`${String(row.schema_name)}.${String(row.table_name)}`);
        if (!info) continue;
        const op = String(row.op) as ChangeOp;
        const newRow = (row.new_row as Row | null) ?? null;
        const stored = info.columns.filter((c) => !c.generated).map((c) => c.name);
        await this.deliver({
          id: Number(row.id),
          info,
          op,
          record: newRow ? pick(newRow, stored) : null,
          identity: identityOf(info, op, (row.old_row as Row | null) ?? null, newRow),
          commitTimestamp: String(row.commit_timestamp),
        });
      }
    });
    this.draining = this.draining.catch((e: unknown) => {
      if (!this.closed) console.error('realtime emulator: reading changes failed', e);
    });
    return this.draining;
  }

  /** Whether an insert or update is visible to the subscriber: the row looked up by key, as them. */
  async visible(change: CapturedChange, claims: Claims): Promise<boolean> {
    if (!change.info.rls || change.op === 'DELETE') return true;
    const key = change.info.primaryKey;
    if (!change.record || key.length === 0) return false;
    const where = key.map((k, i) => `${quoteIdent(k)} = $${i + 1}`).join(' and ');
    const values = key.map((k) => {
      const v = change.record![k];
      return v === null || v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v);
    });
    const authenticated = claims.role === 'authenticated';
    const actor = authenticated ? { id: String(claims.sub), email: typeof claims.email === 'string' ? claims.email : null } : { id: null };
    return this.db.as(actor, async (q) => {
      await q.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify(claims)]);
      const [row] = await q.query<{ visible: boolean }>(`select exists(select 1 from ${change.info.entity} where ${where}) as visible`, values);
      return row?.visible === true;
    });
  }

  /** The message data for one role: unselectable columns dropped; a delete under RLS keeps only the key. */
  async dataFor(change: CapturedChange, role: string): Promise<ChangeData> {
    const { info } = change;
    const cacheKey = `${role} ${info.entity}`;
    let cols = this.selectable.get(cacheKey);
    if (!cols) {
      const rows = await this.db.query<{ name: string }>(
        `select a.attname::text as name from pg_attribute a
          where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped
            and has_column_privilege($2, a.attrelid, a.attname, 'SELECT')`,
        [info.entity, role],
      );
      cols = new Set(rows.map((r) => r.name));
      this.selectable.set(cacheKey, cols);
    }
    const allowed = cols;
    const keep = (row: Row | null, only?: string[]): Row | null =>
      row && Object.fromEntries(Object.entries(row).filter(([k]) => allowed.has(k) && (!only || only.includes(k))));
    const data: ChangeData = {
      schema: info.schema,
      table: info.table,
      commit_timestamp: change.commitTimestamp,
      type: change.op,
      columns: info.columns.filter((c) => allowed.has(c.name)).map(({ name, type }) => ({ name, type })),
      errors: null,
    };
    // jsonb_object_agg over no columns is null, so an update without old keys sends `old_record: null`.
    if (change.op !== 'DELETE') data.record = keep(change.record) ?? {};
    if (change.op === 'UPDATE') data.old_record = keep(change.identity) as Row;
    if (change.op === 'DELETE') data.old_record = keep(change.identity, info.rls ? info.primaryKey : undefined) as Row;
    return data;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.draining;
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => undefined);
  }

  private async listen(serverUrl: string): Promise<void> {
    const [row] = await this.db.query<{ name: string }>('select current_database() as name');
    const url = new URL(serverUrl);
    url.pathname = `/${row!.name}`;
    const client = new pg.Client({ connectionString: url.toString() });
    // The harness drops the database at the end with `force`, which ends this connection.
    client.on('error', () => undefined);
    client.on('notification', () => void this.kick());
    await client.connect();
    await client.query(`listen ${NOTIFY_CHANNEL}`);
    this.listener = client;
  }
}
