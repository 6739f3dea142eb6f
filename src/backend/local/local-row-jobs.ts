/**
 * The work an upgrade leaves on the item rows already stored (`jobs` in local-db.ts), done after the database has
 * opened: a chunk of rows per transaction, the place reached kept in `jobs`, so a reload goes on where it stopped
 * and the app stays usable meanwhile.
 */
import type { IDBPTransaction } from 'idb';
import { WRITE_STORES, type ItemRecord, type LocalDb, type LocalSchema } from './local-db';

const CHUNK = 500;

/** A chunk's transaction: the stores every write holds, and `jobs`. */
export type JobTx = IDBPTransaction<LocalSchema, [...typeof WRITE_STORES, 'jobs'], 'readwrite'>;

/** Hands the rows left to job `name` to `apply`, a chunk at a time, until none are left; at once when it is done. */
export async function runRowJob(db: LocalDb, name: string, apply: (rows: ItemRecord[], tx: JobTx) => Promise<void> | void): Promise<void> {
  for (;;) {
    const idb = await db.get();
    // The same stores as every write, so a chunk queues with the app's writes instead of racing them.
    const tx: JobTx = idb.transaction([...WRITE_STORES, 'jobs'], 'readwrite');
    const jobs = tx.objectStore('jobs');
    const job = await jobs.get(name);
    if (!job) {
      await tx.done;
      return;
    }
    const rows: ItemRecord[] = await tx.objectStore('items').getAll(job.after ? IDBKeyRange.lowerBound(job.after, true) : null, CHUNK);
    await apply(rows, tx);
    const last = rows[rows.length - 1];
    if (rows.length < CHUNK || !last) void jobs.delete(name);
    else void jobs.put({ after: [last.albumId, last.id] }, name);
    await tx.done;
  }
}
