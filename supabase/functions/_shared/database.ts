/**
 * The Postgres connection of a function (SUPABASE_DB_URL). Work is done in transactions that first take
 * on an API role (`set local role`), so policies and grants decide exactly as they do for PostgREST.
 */
import postgres from 'postgres';
import { type Env, required } from './config-error.ts';

export type Sql = postgres.Sql;
export type Tx = postgres.TransactionSql;

export function sqlFromEnv(env: Env): Sql {
  return postgres(required(env, 'SUPABASE_DB_URL'), {
    max: 3,
    // Transaction-mode poolers (Supavisor on port 6543) do not keep prepared statements.
    prepare: false,
    idle_timeout: 20,
    connect_timeout: 10,
    onnotice: () => undefined,
  });
}

/** Postgres's answers that ask for the transaction to be run again: a deadlock, a serialization failure. */
const RUN_AGAIN = new Set(['40P01', '40001']);
export const TRANSACTION_ATTEMPTS = 3;

/**
 * [Note: Transactions run again]
 * When two transactions wait on each other, Postgres ends one of them (`deadlock detected`, 40P01) and asks
 * that it be run again. A guest's queue finishes one photo while it reserves the next, and such a pair met so:
 * the guest's upload was answered 500 and stopped until they pressed Try again. The transaction was rolled back
 * whole, so it is run again here, up to TRANSACTION_ATTEMPTS times after a short random pause. What `work` does
 * outside the database must therefore be safe to do twice (reads, signing).
 */
export async function transaction<T>(sql: Sql, work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await sql.begin(work)) as T;
    } catch (e) {
      if (attempt >= TRANSACTION_ATTEMPTS || !RUN_AGAIN.has(String((e as { code?: unknown } | null)?.code))) throw e;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt + Math.random() * 30));
    }
  }
}
