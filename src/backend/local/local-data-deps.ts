/**
 * What every local data operation works with, and the one way each kind of operation touches the
 * database: a read in one read-only transaction, a write in one read-write transaction over the same
 * stores (rows, counters and activity together), whose changes are then emitted to realtime.
 */
import { throwIfAborted } from '../../lib/app-error';
import type { Profile } from '../entities';
import { WRITE_STORES, type LocalDb, type ReadTx, type WriteTx } from './local-db';
import { guard } from './local-errors';
import type { LocalFiles } from './local-files';
import type { LocalRealtime } from './local-realtime';

export interface LocalDataDeps {
  db: LocalDb;
  files: LocalFiles;
  realtime: LocalRealtime;
  profile: () => Promise<Profile>;
}

export type AnyTx = ReadTx | WriteTx;

/** The most rows one read returns (a page of items, the activity feed). */
export const MAX_PAGE_SIZE = 1000;

export function now(): string {
  return new Date().toISOString();
}

/** A row as a change event carries it: a plain copy. */
export function rowOf<T extends { id: string }>(value: T): { id: string } & Record<string, unknown> {
  return { ...value };
}

export function readTransaction<T>(deps: LocalDataDeps, signal: AbortSignal | undefined, fn: (tx: ReadTx) => Promise<T>): Promise<T> {
  return guard(signal, async () => {
    const db = await deps.db.get();
    const tx = db.transaction(WRITE_STORES, 'readonly');
    tx.done.catch(() => undefined);
    const result = await fn(tx);
    throwIfAborted(signal);
    return result;
  });
}

/** Runs `fn` in one write transaction; anything it throws aborts the transaction, so nothing half-done stays. */
export async function writeTransaction<T>(deps: LocalDataDeps, fn: (tx: WriteTx) => Promise<T>): Promise<T> {
  const db = await deps.db.get();
  const tx = db.transaction(WRITE_STORES, 'readwrite');
  tx.done.catch(() => undefined);
  try {
    const result = await fn(tx);
    await tx.done;
    return result;
  } catch (e) {
    try {
      tx.abort();
    } catch {
      // Already committed or aborted.
    }
    throw e;
  }
}
