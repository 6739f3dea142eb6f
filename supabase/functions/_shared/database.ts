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
