/**
 * Files the item rows stored before version 4 by the clock where they were taken ([Note: Photos filed by the
 * clock where they were taken] in src/lib/item-metadata.ts): a row whose capture time has an offset gets its sort
 * time again, and its month's count moves with it (local-row-jobs.ts runs it after the database opens).
 */
import { TAKEN_CLOCK_JOB, type LocalDb, type WriteTx } from './local-db';
import { ItemLedger } from './local-item-ledger';
import { toItem } from './local-item-record';
import { withListFields } from './local-list-fields';
import { runRowJob } from './local-row-jobs';

/** Resolves once every row is filed by its clock (at once when nothing was left to do). */
export function fileByTakenClock(db: LocalDb): Promise<void> {
  return runRowJob(db, TAKEN_CLOCK_JOB, async (rows, tx) => {
    const items = tx.objectStore('items');
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
  });
}
