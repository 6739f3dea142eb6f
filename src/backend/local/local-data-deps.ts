/**
 * What every local data operation works with, and the one way each kind of operation touches the
 * database: a read in one read-only transaction, a write in one read-write transaction over the same
 * stores (rows, counters and activity together), whose changes are then emitted to realtime.
 */
import { throwIfAborted } from '../../lib/app-error';
import { log } from '../../lib/log';
import type { Profile } from '../../domain/entities';
import { WRITE_STORES, type LocalDb, type ReadTx, type WriteTx } from './local-db';
import { guard } from './local-errors';
import type { SidecarWriter } from '../sidecar-writer';
import type { LocalFiles } from './local-files';
import type { LocalRealtime } from './local-realtime';

export interface LocalDataDeps {
  db: LocalDb;
  files: LocalFiles;
  /** Writes edited items' sidecars beside their originals ([Note: Sidecars beside originals]). */
  sidecars: Pick<SidecarWriter, 'write'>;
  realtime: LocalRealtime;
  profile: () => Promise<Profile>;
}

export type AnyTx = ReadTx | WriteTx;

/** The most rows one read returns (a page of items, the activity feed). */
export const MAX_PAGE_SIZE = 1000;

// [Note: The local clock never repeats]
// Lists are ordered by a time to the millisecond, then by id, and a fast device makes several albums, items or
// comments within one millisecond. The id is random, so such a tie would list them in a random order. Every
// local write in this page therefore stamps a time later than the one before it, running ahead of the real
// clock only while writes come faster than one a millisecond: what was made in a row is listed in that order,
// newest first, as the server's finer clock orders it. A clock set back by more than a second (it was wrong)
// is followed at once, rather than stamping every later write with the wrong time.
const SET_BACK_MS = 1000;
let lastStamp = 0;

/** The time of a local write: now, or a millisecond after the previous write when that is not earlier. */
export function now(): string {
  const clock = Date.now();
  lastStamp = clock > lastStamp || lastStamp - clock > SET_BACK_MS ? clock : lastStamp + 1;
  return new Date(lastStamp).toISOString();
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

/**
 * Removes the files of items whose rows are gone, after the transaction that removed them. A file that cannot
 * be removed is logged, not thrown: the items are gone either way, and a leftover file costs only space.
 */
export async function removeItemFiles(deps: LocalDataDeps, rows: readonly { albumId: string; id: string }[], what: string): Promise<void> {
  const results = await Promise.allSettled(rows.map((r) => deps.files.removeTree(`albums/${r.albumId}/${r.id}`)));
  const failed = results.filter((r) => r.status === 'rejected');
  if (failed.length > 0) log.error(`Could not remove the files of ${failed.length} ${what}`, failed[0]);
}
