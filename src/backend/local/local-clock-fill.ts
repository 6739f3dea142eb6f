/**
 * Files the item rows stored before version 4 by the clock where they were taken ([Note: Photos filed by the
 * clock where they were taken] in src/lib/item-metadata.ts): a row whose capture time has an offset gets
 * its sort time again, and its month's count moves with it. After the database has opened, a chunk of rows per
 * transaction, the place reached kept in `jobs`, as local-words-fill.ts gives rows their words.
 */
import { TAKEN_CLOCK_JOB, WRITE_STORES, type ItemRecord, type LocalDb, type WriteTx } from './local-db';
import { ItemLedger } from './local-item-ledger';
import { toItem } from './local-item-record';
import { withListFields } from './local-list-fields';

const CHUNK = 500;

/** Resolves once every row is filed by its clock (at once when nothing was left to do). */
export async function fileByTakenClock(db: LocalDb): Promise<void> {
  for (;;) {
    const idb = await db.get();
    // The same stores as every write, so a chunk queues with the app's writes instead of racing them.
    const tx = idb.transaction([...WRITE_STORES, 'jobs'], 'readwrite');
    const jobs = tx.objectStore('jobs');
    const job = await jobs.get(TAKEN_CLOCK_JOB);
    if (!job) {
      await tx.done;
      return;
    }
    const items = tx.objectStore('items');
    const rows: ItemRecord[] = await items.getAll(job.after ? IDBKeyRange.lowerBound(job.after, true) : null, CHUNK);
    const ledger = new ItemLedger();
    for (const row of rows) {
      if (row.metadata.takenOffset === undefined) continue;
      const next = withListFields(toItem(row));
      if (next.st === row.st) continue;
      ledger.record(row, next);
      void items.put(next);
    }
    // The ledger writes counts and albums, which this transaction holds as every write does.
    await ledger.flush(tx as unknown as WriteTx, null);
    const last = rows[rows.length - 1];
    if (rows.length < CHUNK || !last) void jobs.delete(TAKEN_CLOCK_JOB);
    else void jobs.put({ after: [last.albumId, last.id] }, TAKEN_CLOCK_JOB);
    await tx.done;
  }
}
